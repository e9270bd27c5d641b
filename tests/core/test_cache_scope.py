"""Every model call of the package follows the user's ``--cache``: without it nothing is written
to Inspect's cache, with it a re-run pays for no call (core/cache_scope.py).

One task makes each kind of call the package makes: the evaluated model's ``generate()`` with a
re-ask of an unparsed answer (``core.answers``), a grader panel of a role model with repeats
(``core.grading``), the recognition probe (``core.recognition``) and a role's own step
(``core.solvers.generate_with_role``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage
from inspect_ai.solver import Generate, Solver, TaskState, solver
from mock_models import scripted_model, scripted_outputs

from research_taste_evals.core.answers import generate_until_parsed, parse_binary
from research_taste_evals.core.cache_scope import scoped_cache
from research_taste_evals.core.grading import resolve_graders, run_panel
from research_taste_evals.core.recognition import RecallItem, RecallProbe, is_probe_prompt
from research_taste_evals.core.solvers import generate_with_role

PANEL_REPEATS = 2


@solver
def role_calls() -> Solver:
    """A grader panel with repeats and a recognition probe, both role/probe model calls."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        panel = await run_panel("grade it", int, resolve_graders(), repeats=PANEL_REPEATS)
        state.metadata["grades"] = panel.valid
        item = RecallItem("a", "An idea about models that revise answers.", "Tree Search Agents")
        state.metadata["probe"] = (await RecallProbe().recognise(item)).answer
        return state

    return solve


def _run(tmp_path: Path, calls: list[str], **eval_args: object) -> None:
    def evaluated(messages: list[ChatMessage]) -> str:
        calls.append("evaluated")
        if is_probe_prompt(messages[-1].text):
            return "I do not recognise this paper."
        return "not a digit" if calls.count("evaluated") == 1 else "1"

    def grader(messages: list[ChatMessage]) -> str:
        calls.append("grader")
        return str(calls.count("grader"))  # each repeat its own answer

    task = Task(
        dataset=[Sample(input="Is it 1?")],
        solver=[generate_until_parsed(parse_binary, retries=1), role_calls()],
    )
    (log,) = eval(
        task,
        model="mockllm/model",
        model_args={"custom_outputs": scripted_outputs(evaluated)},
        model_roles={"grader": scripted_model(grader), "extractor": scripted_model(grader)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        **eval_args,  # type: ignore[arg-type]
    )
    assert log.status == "success", log.error
    extract = Task(dataset=[Sample(input="extract it")], solver=generate_with_role("extractor"))
    (log,) = eval(
        extract,
        model="mockllm/model",
        model_args={"custom_outputs": scripted_outputs(evaluated)},
        model_roles={"extractor": scripted_model(grader)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        **eval_args,  # type: ignore[arg-type]
    )
    assert log.status == "success", log.error


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "inspect-cache"
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(folder))
    return folder


def _entries(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def test_a_run_without_cache_writes_nothing_to_inspects_cache(
    cache_dir: Path, tmp_path: Path
) -> None:
    calls: list[str] = []
    _run(tmp_path, calls)
    # The re-ask, both panel repeats, the probe and the role's step were all made ...
    assert calls.count("evaluated") == 3 and calls.count("grader") == PANEL_REPEATS + 1
    assert _entries(cache_dir) == []  # ... and none of them was cached


def test_with_cache_a_rerun_pays_for_no_call_and_repeats_stay_distinct(
    cache_dir: Path, tmp_path: Path
) -> None:
    calls: list[str] = []
    _run(tmp_path, calls, cache=True)
    first = list(calls)
    assert first.count("evaluated") == 3 and first.count("grader") == PANEL_REPEATS + 1
    assert len(_entries(cache_dir)) >= 6
    _run(tmp_path, calls, cache=True)
    assert calls == first  # every call read back: re-ask, repeats, probe and role step


def test_outside_a_run_a_scope_adds_no_cache() -> None:
    assert scoped_cache("reask", "1") is False
