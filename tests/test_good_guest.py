"""A good guest: another package's task, in the same Inspect install, sees Inspect and only it.

- Its malformed 200 answers are Inspect's business: run in one eval with a task of this package
  (the same ``Model`` object serves both), it is not retried by this package and its sample
  fails exactly as it does with Inspect alone, as does this package's task (nothing asked again).
- ``inspect eval`` of it prints nothing that names this package, and no "hooks enabled" banner.
- Importing the package's registry (Inspect's entry point) and every module registers no hook.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.solver import generate
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer

SRC = Path(__file__).resolve().parents[1] / "src"
FOREIGN_PROMPT = "A foreign task's question."
TIMEOUT = 300.0  # seconds for the subprocess
PACKAGE_NAMES = ("research_taste", "research-taste")

INSPECT = str(Path(sys.executable).with_name("inspect"))  # the public console script


class FlakyAPI(ModelAPI):
    """The foreign prompt always gets ``choices: []``; any other prompt gets one on its first
    call, then a real answer ("1", an EqInfer label)."""

    calls: dict[str, int] = {}

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = input[-1].text
        FlakyAPI.calls[prompt] = FlakyAPI.calls.get(prompt, 0) + 1
        if prompt == FOREIGN_PROMPT or FlakyAPI.calls[prompt] == 1:
            return ModelOutput(model="flaky", choices=[], usage=ModelUsage(total_tokens=1))
        output = ModelOutput.from_content(model="flaky", content="1")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@modelapi(name="good-guest-flaky")
def _flaky() -> type[ModelAPI]:
    return FlakyAPI


@task
def foreign() -> Task:
    """Another package's task: Inspect's own ``generate()``, nothing of this package."""
    return Task(dataset=[Sample(input=FOREIGN_PROMPT)], solver=generate())


def _foreign_error(log: EvalLog) -> str:
    (sample,) = log.samples or []
    assert sample.error is not None, "the foreign sample did not fail"
    return sample.error.message


def test_a_foreign_tasks_malformed_answer_is_not_retried_by_this_package(tmp_path: Path) -> None:
    alone_model = get_model("good-guest-flaky/alone", memoize=False)
    FlakyAPI.calls.clear()
    (alone,) = eval(foreign(), model=alone_model, log_dir=str(tmp_path / "alone"), display="none")
    assert FlakyAPI.calls == {FOREIGN_PROMPT: 1}

    FlakyAPI.calls.clear()
    data = write_demo_eqinfer(tmp_path / "data")
    shared = get_model("good-guest-flaky/shared", memoize=False)  # one Model for both tasks
    logs = eval(
        [foreign(), eqinfer(data_path=str(data))],
        model=shared,
        log_dir=str(tmp_path / "together"),
        display="none",
    )
    together = {log.eval.task.split("/")[-1]: log for log in logs}
    # The foreign sample: asked once, failed as with Inspect alone.
    assert FlakyAPI.calls[FOREIGN_PROMPT] == 1
    assert _foreign_error(together["foreign"]) == _foreign_error(alone)
    # This package's task, same model: Inspect's handling too (its generate() fails the sample
    # on a reply without choices); no call is asked again behind the user's back.
    ours = together["eqinfer"]
    assert ours.status == "error" and ours.samples
    assert all(count == 1 for count in FlakyAPI.calls.values()), FlakyAPI.calls


def _run(args: list[str], cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), *sys.path]), "NO_COLOR": "1"}
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_inspect_eval_of_a_foreign_task_prints_nothing_of_this_package(tmp_path: Path) -> None:
    (tmp_path / "guest.py").write_text(
        "from inspect_ai import Task, task\n"
        "from inspect_ai.dataset import Sample\n"
        "from inspect_ai.solver import generate\n\n\n"
        "@task\n"
        "def guest():\n"
        "    return Task(dataset=[Sample(input='hi')], solver=generate())\n"
    )
    for display in ("plain", "rich"):
        printed = _run(
            [
                INSPECT,
                "eval",
                "guest.py",
                "--model",
                "mockllm/model",
                "--display",
                display,
                "--log-dir",
                str(tmp_path / "logs"),
            ],
            tmp_path,
        )
        assert "guest" in printed, printed  # the run's own output is captured
        assert "hooks enabled" not in printed, printed
        assert not any(name in printed for name in PACKAGE_NAMES), printed


def test_importing_the_package_registers_no_hook(tmp_path: Path) -> None:
    """Every module of the package imported, then a model made: Inspect prints its hooks
    banner on the first model made when any hook is registered."""
    probe = (
        "import importlib, pkgutil, research_taste_evals._registry, research_taste_evals as p\n"
        "for m in pkgutil.walk_packages(p.__path__, 'research_taste_evals.'):\n"
        "    importlib.import_module(m.name)\n"
        "from inspect_ai.model import get_model\n"
        "get_model('mockllm/model')\n"
        "print(json.dumps('done'))\n"
    )
    printed = _run([sys.executable, "-c", "import json\n" + probe], tmp_path)
    assert json.dumps("done") in printed and "hooks enabled" not in printed, printed


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_no_private_inspect_name_in_code_or_strings() -> None:
    """``grep -rnE "inspect_ai(\\.\\w+)*\\._" src`` finds nothing: imports, strings, comments."""
    private = re.compile(r"inspect_ai(\.\w+)*\._")
    hits = [
        f"{path.relative_to(SRC)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line)
    ]
    assert hits == []


def test_nothing_assigns_to_a_modules_class_or_swaps_a_method_of_an_inspect_object() -> None:
    """No module class swapping (``sys.modules[...].__class__ = ...``) and no method of a
    ``Model``/``ModelAPI`` replaced on an instance (``.api.generate = ...``)."""
    swaps = re.compile(r"\.__class__\s*=[^=]|\.api\.\w+\s*=[^=]|\bapi\s*=\s*copy\.copy")
    hits = [
        f"{path.relative_to(SRC)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if swaps.search(line)
    ]
    assert hits == []


def test_no_class_is_built_at_run_time_and_every_model_api_is_a_registered_provider() -> None:
    """No ``type(name, bases, namespace)``, no assignment to an object's ``__dict__``, and the
    only ``ModelAPI`` subclasses are the providers ``@modelapi`` registers (baseline, local)."""
    built, dict_writes, providers = [], [], set()
    for path in _sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)}"
            call = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "type"
            if call and len(node.args) == 3:  # type: ignore[attr-defined]
                built.append(where)
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "__dict__" for t in targets):
                dict_writes.append(where)
            if isinstance(node, ast.ClassDef) and any(
                getattr(base, "id", getattr(base, "attr", "")).endswith("API")
                for base in node.bases
            ):
                providers.add(node.name)
    assert built == [] and dict_writes == []
    assert providers == {"BaselineModelAPI", "LocalChatAPI"}
    registered = {
        line.split("import ")[-1].strip()
        for registry in ("research_taste/_registry.py", "research_taste_evals/_registry.py")
        for line in (SRC / registry).read_text().splitlines()
        if "API" in line and "import" in line
    }
    assert providers <= {name for entry in registered for name in entry.split(", ")}, registered


def test_the_tooling_imports_no_private_name_of_the_evals() -> None:
    """``research_taste`` uses the evals' public names only (``failure_text.plain_message``)."""
    hits = []
    for path in sorted((SRC / "research_taste").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "research_taste_evals"
            ):
                hits += [
                    f"{path.relative_to(SRC)}:{node.lineno} {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.endswith("__")
                ]  # a dunder the package exports (``__version__``, in ``__all__``) is public
    assert hits == []


def test_every_task_documents_every_argument_in_an_args_section() -> None:
    """As inspect_evals does (e.g. gpqa.py): ``Args:`` lists each parameter with its type."""
    import inspect as pyinspect

    from research_taste_evals._registry import TASKS

    for fn in TASKS:
        doc = pyinspect.getdoc(fn) or ""
        assert "\nArgs:\n" in doc, fn.__name__
        args = doc.split("\nArgs:\n", 1)[1]
        for name in pyinspect.signature(pyinspect.unwrap(fn)).parameters:
            assert re.search(rf"^\s+{name} \(.+\): \S", args, re.M), f"{fn.__name__}: {name}"
