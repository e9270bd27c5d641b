"""``research-taste list`` without importing Inspect: task and baseline lines read from source.

Importing the tasks imports Inspect (seconds); the list needs only names and one-line
descriptions, which the source holds: each family folder's ``__init__.py`` names its task
functions (core/families.py; their docstrings' first lines), and each
``@register_baseline("name", "description")`` names a baseline. tests/test_cli.py checks this
reading against the imported registry, so the two cannot drift apart.
"""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

PACKAGE = "research_taste_evals"


def _root() -> Path:
    return Path(str(resources.files(PACKAGE)))


def _first_line(text: str | None) -> str:
    stripped = (text or "").strip()
    return stripped.splitlines()[0] if stripped else ""


def _module_file(module: str) -> Path:
    parts = module.split(".")[1:]
    path = _root().joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def tasks() -> list[tuple[str, str]]:
    """(task name, first docstring line) in ``_registry.TASKS`` order (every family folder's
    exported tasks, core/families.py)."""
    from research_taste_evals.core.families import families

    listed = []
    for family in families():
        tree = ast.parse((family.folder / "__init__.py").read_text(encoding="utf-8"))
        origin = {
            alias.asname or alias.name: node.module
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        for name in family.tasks:
            function = None
            if name in origin:
                source = ast.parse(_module_file(origin[name]).read_text(encoding="utf-8"))
                function = next(
                    (
                        node
                        for node in ast.walk(source)
                        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                        and node.name == name
                    ),
                    None,
                )
            if function is None:  # defined elsewhere and re-exported: ask the registry (slower)
                return _imported_tasks()
            listed.append((name, _first_line(ast.get_docstring(function))))
    return listed


def _imported_tasks() -> list[tuple[str, str]]:
    from research_taste_evals._registry import TASKS

    return [(fn.__name__, _first_line(fn.__doc__)) for fn in TASKS]


def baselines() -> list[tuple[str, str]]:
    """(baseline name, description) of every ``@register_baseline`` in the package, sorted."""
    found: dict[str, str] = {}
    for path in sorted(_root().rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "register_baseline(" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None))
                == "register_baseline"
                and len(node.args) == 2
                and all(isinstance(arg, ast.Constant) for arg in node.args)
            ):
                name, description = (ast.literal_eval(arg) for arg in node.args)
                found[str(name)] = str(description)
    return sorted(found.items())
