"""Task arguments are checked against the task function's signature (core.task_args): one
sentence naming the argument, the value and what is allowed. No task takes ``**kwargs``: an
unknown ``-T`` name is Inspect's (it warns and drops it); a sweep file's is refused with the
closest name (``check_task_arguments``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Literal

import pytest
from inspect_ai import Task, task

from research_taste_evals._registry import TASKS
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.task_args import check_task_arguments, task_entry


@task
@task_entry({"n": (1, None), "share": (0.0, 1.0)})
def toy(
    mode: Literal["a", "b"] = "a",
    n: int = 3,
    share: float = 0.5,
    flag: bool = True,
    quorum: int | None = None,
    names: str | list[str] | None = None,
) -> Task:
    """A toy task."""
    return Task()


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"mode": "c"}, "toy: argument 'mode' got 'c'; allowed: 'a', 'b'."),
        ({"n": "many"}, "toy: argument 'n' got 'many'; allowed: an integer."),
        ({"n": True}, "toy: argument 'n' got True; allowed: an integer."),
        ({"n": 0}, "toy: argument 'n' got 0; allowed: 1 or more."),
        ({"share": 1.5}, "toy: argument 'share' got 1.5; allowed: 0.0 to 1.0."),
        ({"flag": "maybe"}, "toy: argument 'flag' got 'maybe'; allowed: true or false."),
        ({"quorum": "x"}, "toy: argument 'quorum' got 'x'; allowed: an integer, none."),
    ],
)
def test_a_bad_argument_is_one_sentence_naming_it(arguments: dict, expected: str) -> None:
    with pytest.raises(ConfigError) as raised:
        toy(**arguments)
    assert str(raised.value).startswith(expected)
    assert len(str(raised.value).splitlines()) == 1


def test_a_sweep_files_unknown_name_is_one_sentence_with_the_closest_name() -> None:
    expected = "toy has no argument(s) ['mdoe'] (did you mean 'mode'?); its arguments: ['flag', "
    with pytest.raises(ConfigError) as raised:
        check_task_arguments(toy, {"mdoe": "a"})
    assert str(raised.value).startswith(expected)
    assert len(str(raised.value).splitlines()) == 1


def test_good_arguments_pass_and_unchecked_types_are_left_alone() -> None:
    toy(mode="b", n=1, share=1, flag=False, quorum=None, names=["x", "y"])
    toy("b", 2)
    check_task_arguments(toy, {"names": "a,b", "quorum": 3})


def test_every_task_checks_its_arguments_before_building_anything() -> None:
    for task_fn in TASKS:
        with pytest.raises(ConfigError, match="has no argument"):
            check_task_arguments(task_fn, {"no_such_argument": 1})


def test_no_task_takes_kwargs_and_none_rewrites_its_signature() -> None:
    """An unknown -T name is Inspect's to handle (``task_create`` warns and drops it unless the
    task declares ``**kwargs``): no task declares it, nothing rewrites ``__signature__``."""
    import inspect

    for task_fn in TASKS:
        original = inspect.unwrap(task_fn)
        kinds = [p.kind for p in inspect.signature(task_fn).parameters.values()]
        assert inspect.Parameter.VAR_KEYWORD not in kinds, task_fn.__name__
        assert not any("__signature__" in vars(f) for f in (task_fn, original)), task_fn


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.parametrize(
    ("task_name", "argument", "fragment"),
    [
        ("eqinfer", "context_words=many", "argument 'context_words' got 'many'"),
        ("eqinfer", "variant=multiple-choice", "argument 'variant' got 'multiple-choice'"),
        ("lft", "partial_credit=maybe", "argument 'partial_credit' got 'maybe'"),
    ],
)
def test_inspect_eval_ends_in_the_sentence_and_exits_non_zero_under_display_none(
    task_name: str, argument: str, fragment: str, tmp_path: Path
) -> None:
    executable = shutil.which("inspect", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"inspect is not installed beside {sys.executable}")
    result = subprocess.run(
        [executable, "eval", f"research_taste_evals/{task_name}", "-T", argument]
        + ["--model", "baseline/all-positive", "--display", "none"]
        + ["--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    # Inspect's (Python's) display of a build error: its traceback, whose last line is the
    # sentence; no hook of ours shortens it (CONTRIBUTING.md, "Inspect versions").
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines and fragment in lines[-1] and lines[-1].endswith("."), result.stderr
    assert not (tmp_path / "logs").exists()


def test_the_sweep_builds_each_task_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from research_taste.cli import sweep, sweep_schema

    built: list[dict] = []

    def counting(**arguments: object) -> Task:
        built.append(arguments)
        return Task()

    monkeypatch.setattr(sweep, "tasks_by_name", lambda: {"toy": counting})
    given: list[int] = []  # tasks handed to eval_set (the sweep then reads the log folder)
    monkeypatch.setattr(sweep, "eval_set", lambda tasks, **_: given.append(len(tasks)))
    config = sweep_schema.SweepConfig(
        log_dir=str(tmp_path),
        models=["mockllm/a", "mockllm/b"],
        model_roles={"grader": "mockllm/g"},
        tasks=[sweep_schema.SweepTask(task="toy", args={"n": 2})],
    )
    sweep.run_sweep(config)
    assert given == [2]
    assert built == [{"n": 2}, {"n": 2}]  # one build per planned run, nothing more
