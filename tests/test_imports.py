"""The package's structure: core is generic, families are independent, no import cycle in
either layer; the evals never import the tooling, and no source file imports a private Inspect
module.

Read from the source with ``ast`` and ``tokenize`` (nothing is imported or executed), so a
violation is reported even when importing the module would fail.
"""

from __future__ import annotations

import ast
import graphlib
import importlib.util
import io
import pkgutil
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = "research_taste_evals"
TOOLING = "research_taste"  # the layer on top: CLI, reports, builders, local models
CORE = f"{PACKAGE}.core"
# Top-level subpackages that are not benchmark families.
NOT_FAMILIES = frozenset({"core"})
# A private Inspect module in an import (``inspect_ai._util``, ``inspect_ai.model._model``).
PRIVATE_INSPECT = re.compile(r"\binspect_ai(\.\w+)*\._")
# Benchmark and task names core must not import, whether or not their folder exists yet
# (families being built elsewhere are listed so the rule holds the day they arrive).
BENCHMARK_WORDS = frozenset(
    {
        "aaar",
        "eqinfer",
        "expdesign",
        "weakness",
        "lft",
        "tastybench",
        "reviewcritique",
        "review_critique",
        "ideapairs",
        "idea_pairs",
        "scijudge",
    }
)

# A benchmark named in core's code, docstrings or comments (a benchmark-specific default or
# statistic belongs to its family, which passes it to core).
BENCHMARK_MENTION = re.compile(
    r"\b(aaar|tastybench|lft|aisi|eqinfer|expdesign|paper_weakness|reviewcritique|"
    r"review_critique|ideapairs|idea_pairs|scijudge)\b|long-form tasks?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Import:
    """One import statement's target, as written and resolved to a package module."""

    source: str  # the importing module
    line: int
    target: str  # the module imported (for ``from m import name``: m.name if that is a module)
    names: tuple[str, ...]  # the names imported from it (empty for ``import m``)


def _package_root(package: str = PACKAGE) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is not importable"
    return Path(next(iter(spec.submodule_search_locations)))


def _modules(root: Path, prefix: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package: dotted name -> source file (packages -> ``__init__.py``)."""
    found = {prefix: root / "__init__.py"}
    for info in pkgutil.iter_modules([str(root)]):
        name = f"{prefix}.{info.name}"
        if info.ispkg:
            found.update(_modules(root / info.name, name))
        else:
            found[name] = root / f"{info.name}.py"
    return found


MODULES = _modules(_package_root())
# Both layers of src/: the evals and the tooling on top (the cycle check reads them all).
SRC_MODULES = {**MODULES, **_modules(_package_root(TOOLING), TOOLING)}


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def _imports(module: str, modules: dict[str, Path] = SRC_MODULES) -> list[Import]:
    path = modules[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    # Every import: at module level, inside a function (an import moved there to break a cycle
    # still makes one) and under ``if TYPE_CHECKING:`` (a cycle of types is a cycle of roles).
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(module, node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                target = _resolve_relative(
                    module, path.name == "__init__.py", node.level, node.module
                )
            names = tuple(alias.name for alias in node.names)
            found.append(Import(module, node.lineno, target, names))
            # ``from pkg import submodule`` imports the submodule itself.
            found.extend(
                Import(module, node.lineno, f"{target}.{name}", ())
                for name in names
                if f"{target}.{name}" in modules
            )
    return found


IMPORTS = {module: _imports(module) for module in MODULES}


def _import_cycle(modules: dict[str, Path]) -> list[str]:
    """One import cycle among ``modules``, each hop with its file and line; [] when none."""
    hops = {
        (statement.source, statement.target): statement
        for module in modules
        for statement in _imports(module, modules)
        if statement.target in modules and statement.target != module
    }
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for source, target in hops:
        graph[source].add(target)
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        cycle = error.args[1]  # [a, ..., a], each imported by the one after it
        return [
            f"{hops[(cycle[i + 1], cycle[i])].source} imports {cycle[i]} "
            f"(line {hops[(cycle[i + 1], cycle[i])].line})"
            for i in range(len(cycle) - 1)
        ]
    return []


def _family(module: str) -> str | None:
    """The benchmark family a package module belongs to (None for core, cli, reporting...)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != PACKAGE:
        return None
    top = parts[1]
    if top in NOT_FAMILIES or top.startswith("_") or f"{PACKAGE}.{top}" not in MODULES:
        return None
    is_package = MODULES[f"{PACKAGE}.{top}"].name == "__init__.py"
    return top if is_package else None


def _where(statement: Import) -> str:
    path = MODULES[statement.source].relative_to(_package_root().parent)
    return f"{path}:{statement.line} ({statement.source})"


def test_the_walk_sees_every_part_of_the_package() -> None:
    # Guards the test itself: a walk that found nothing would pass every check below.
    assert f"{CORE}.stats" in MODULES and f"{PACKAGE}.tastybench.tastybench" in MODULES
    assert {_family(m) for m in MODULES} >= {"aaar", "lft", "tastybench"}
    assert _SOURCE_FILES and any(path.parent.name == "cli" for path in _SOURCE_FILES)


# Every Python file of both layers (src/research_taste_evals and src/research_taste).
_SOURCE_FILES = sorted(_package_root().parent.glob("research_taste*/**/*.py"))


def _is_tooling(target: str) -> bool:
    return target == TOOLING or target.startswith(f"{TOOLING}.")


def test_the_evals_never_import_the_tooling() -> None:
    violations = [
        f"{_where(statement)} imports {statement.target}"
        for statements in IMPORTS.values()
        for statement in statements
        if _is_tooling(statement.target)
    ]
    assert not violations, (
        f"{PACKAGE} must not import {TOOLING} (the tooling sits on top of the evals):\n"
        + "\n".join(violations)
    )


def test_no_private_inspect_import_in_either_layer() -> None:
    violations = []
    for path in _SOURCE_FILES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "import" in line and PRIVATE_INSPECT.search(line):
                violations.append(f"{path.relative_to(_package_root().parent)}:{number}: {line}")
    assert not violations, "private Inspect imports (use the public API):\n" + "\n".join(violations)


def test_core_imports_no_benchmark() -> None:
    violations = []
    for module in _core_modules():
        for statement in IMPORTS[module]:
            written = " ".join([statement.target, *statement.names]).lower()
            words = sorted(word for word in BENCHMARK_WORDS if word in written)
            family = _family(statement.target)
            if words or family:
                what = f"family '{family}'" if family else f"benchmark name(s) {words}"
                imported = ", ".join(statement.names) or statement.target
                violations.append(
                    f"{_where(statement)} imports {imported} from {statement.target}: {what}"
                )
    assert not violations, "core must stay generic:\n" + "\n".join(violations)


def _core_modules() -> list[str]:
    return [m for m in MODULES if m == CORE or m.startswith(f"{CORE}.")]


def test_core_mentions_no_benchmark_by_name() -> None:
    violations = []
    for module in _core_modules():
        path = MODULES[module]
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in (tokenize.NAME, tokenize.STRING, tokenize.COMMENT):
                continue
            for match in BENCHMARK_MENTION.finditer(token.string):
                line = token.start[0] + token.string[: match.start()].count("\n")
                where = f"{path.relative_to(_package_root().parent)}:{line} ({module})"
                violations.append(f"{where} mentions '{match.group(0)}'")
    assert not violations, (
        "core must not name a benchmark (move the benchmark-specific part to its family):\n"
        + "\n".join(violations)
    )


def test_no_benchmark_family_imports_another() -> None:
    violations = []
    for module, statements in IMPORTS.items():
        own = _family(module)
        if own is None:
            continue
        for statement in statements:
            other = _family(statement.target)
            if other is not None and other != own:
                violations.append(
                    f"{_where(statement)}: family '{own}' imports {statement.target} "
                    f"(family '{other}')"
                )
    assert not violations, "families must be independent:\n" + "\n".join(violations)


def test_no_import_cycle_anywhere_in_src() -> None:
    assert f"{TOOLING}.builders.openreview.write" in SRC_MODULES  # the walk reaches the tooling
    cycle = _import_cycle(SRC_MODULES)
    assert not cycle, "import cycle (shared pieces belong in the module below):\n" + "\n".join(
        cycle
    )


def _package_edges(modules: dict[str, Path], source: str, target: str) -> list[str]:
    """Each import by a module of subpackage ``source`` of a module of ``target``."""
    return [
        f"{statement.source} imports {statement.target} (line {statement.line})"
        for module in modules
        if module.startswith(f"{source}.")
        for statement in _imports(module, modules)
        if statement.target == target or statement.target.startswith(f"{target}.")
    ]


def test_rounds_and_reporting_import_one_way() -> None:
    # The reports read the rounds (``reporting/rounds.py`` imports ``rounds/score.py``), so no
    # module of ``rounds/`` imports ``reporting/``: a reader of the reports' rows sits beside
    # them (``reporting/board_rows.py``), not in the package the reports import.
    rounds, reporting = f"{TOOLING}.rounds", f"{TOOLING}.reporting"
    assert _package_edges(SRC_MODULES, reporting, rounds), "the reports no longer read rounds/"
    assert not _package_edges(SRC_MODULES, rounds, reporting)


def test_a_lazy_or_type_only_import_still_makes_a_cycle(tmp_path: Path) -> None:
    # The check must be able to fail, on the imports that hide a cycle from Python.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "top.py").write_text("def run():\n    from pkg import low\n")
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.top import run\n"
    )
    modules = _modules(package, "pkg")
    assert _import_cycle(modules) in (
        ["pkg.top imports pkg.low (line 2)", "pkg.low imports pkg.top (line 4)"],
        ["pkg.low imports pkg.top (line 4)", "pkg.top imports pkg.low (line 2)"],
    )
    (package / "low.py").write_text("")
    assert _import_cycle(_modules(package, "pkg")) == []


def test_a_cross_family_import_would_be_reported() -> None:
    assert _family(f"{PACKAGE}.lft.scorer") == "lft"
    assert _family(f"{PACKAGE}.aaar.scorer.eqinfer") == "aaar"
    assert _family(f"{CORE}.stats") is None and _family(f"{PACKAGE}._registry") is None
    assert _is_tooling("research_taste.cli") and not _is_tooling("research_taste_evals.cli")
    assert PRIVATE_INSPECT.search("from inspect_ai._util.error import PrerequisiteError")
    assert PRIVATE_INSPECT.search("from inspect_ai.model._model import Model")
    assert not PRIVATE_INSPECT.search("from inspect_ai.model import get_model")
    assert BENCHMARK_MENTION.search("as AAAR-1.0 does") and BENCHMARK_MENTION.search("AISI LFT")
    assert not BENCHMARK_MENTION.search("shift the lifted tasks")


def test_families_are_the_folders_with_an_eval_yaml_and_list_their_tasks_there() -> None:
    """A family is found from its folder (core/families.py): every folder with an
    ``eval.yaml``, whose ``tasks`` are exactly the names its ``__init__.py`` exports."""
    import yaml

    from research_taste_evals import FAMILY_NAMED, TASK_PACKAGES
    from research_taste_evals.core.families import families

    root = Path(__file__).resolve().parents[1] / "src" / PACKAGE
    folders = sorted(p.name for p in root.iterdir() if (p / "eval.yaml").is_file())
    assert [family.name for family in families()] == folders
    for family in families():
        declared = yaml.safe_load((family.folder / "eval.yaml").read_text(encoding="utf-8"))
        assert [entry["name"] for entry in declared["tasks"]] == list(family.tasks), family.name
    assert set(TASK_PACKAGES) == {task for family in families() for task in family.tasks}
    assert {task for task in TASK_PACKAGES if task in folders} == FAMILY_NAMED


def _task_shapes(path: Path) -> dict[str, tuple[tuple[str, ...], bool]]:
    """Each ``@task`` function of a file: its decorators (outermost first) and whether it takes
    ``**kwargs`` (none does: an unknown ``-T`` name is Inspect's to handle)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    shapes = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = tuple(
                ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
            )
            if "task" in names:
                shapes[node.name] = (names, node.args.kwarg is not None)
    return shapes


def test_the_template_family_has_the_real_tasks_shape() -> None:
    # tests/throwaway_family is what a new family copies (CONTRIBUTING.md, "Adding a family").
    real = {name: shape for path in MODULES.values() for name, shape in _task_shapes(path).items()}
    assert len(real) >= 9, sorted(real)
    assert set(real.values()) == {(("task", "task_entry"), False)}, real
    template = Path(__file__).resolve().parent / "throwaway_family" / "throwaway.py"
    assert list(_task_shapes(template).values()) == [(("task", "task_entry"), False)]


def test_a_family_init_without_a_literal_all_is_one_sentence(tmp_path: Path) -> None:
    from research_taste_evals.core.families import exported_tasks

    (tmp_path / "__init__.py").write_text("from x import y\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"__init__\.py: a family folder .* literal __all__"):
        exported_tasks(tmp_path)
