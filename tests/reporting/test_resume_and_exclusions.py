"""An interrupted sweep resumes without repeating finished samples; unfit logs are excluded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log
from inspect_ai.model import ChatMessage
from mock_models import scripted_model

from research_taste.cli.sweep import run_sweep
from research_taste.cli.sweep_load import load_sweep
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import read_runs
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.core.baselines import register_baseline, registered_baselines

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

INTERRUPTIBLE = "test-interruptible"
DEMO_DECISIONS = 24  # the EqInfer demo set: 6 equations x 4 options


class Switch:
    """Scripted model state: the prompts it answered, and whether the 'machine' is dead."""

    answered: list[str] = []
    dead_after: int | None = None


def _respond(messages: list[ChatMessage]) -> str:
    if Switch.dead_after is not None and len(Switch.answered) >= Switch.dead_after:
        raise RuntimeError("sweep killed")  # every call fails from here on: the run stops
    Switch.answered.append(messages[-1].text)
    return "1"


if INTERRUPTIBLE not in registered_baselines():
    register_baseline(INTERRUPTIBLE, "tests: answers 1 and counts its calls")(_respond)


def _sweep_file(tmp_path: Path, data: Path, log_dir: Path) -> Path:
    config = tmp_path / "sweep.yaml"
    config.write_text(
        f"log_dir: {log_dir}\n"
        f"models: [baseline/{INTERRUPTIBLE}]\n"
        f"tasks:\n  - task: eqinfer\n    args: {{data_path: '{data}'}}\n"
        "retry_on_error: 0\nretry_attempts: 0\nmax_connections: 1\nmax_samples: 1\n"
    )
    return config


def test_interrupted_sweep_resumes_without_repeating_finished_samples(tmp_path: Path) -> None:
    data = write_demo_eqinfer(tmp_path / "data")
    log_dir = tmp_path / "logs"
    config = load_sweep(_sweep_file(tmp_path, data, log_dir))
    Switch.answered, Switch.dead_after = [], 10
    assert not run_sweep(config, display="none")  # killed midway
    (first,) = list_eval_logs(str(log_dir))
    interrupted = read_eval_log(first)
    assert interrupted.status == "error"
    finished = {s.input for s in interrupted.samples or [] if s.error is None}
    assert 0 < len(finished) < DEMO_DECISIONS
    assert finished <= set(Switch.answered)  # same texts, so the check below can fail

    Switch.answered, Switch.dead_after = [], None
    assert run_sweep(config, display="none")  # the same command again completes the sweep
    assert len(Switch.answered) == DEMO_DECISIONS - len(finished)
    assert not finished & set(Switch.answered)  # no finished sample asked again
    (complete,) = [
        log
        for log in (read_eval_log(i, header_only=True) for i in list_eval_logs(str(log_dir)))
        if log.status == "success"
    ]
    assert complete.results is not None and complete.results.completed_samples == DEMO_DECISIONS

    logs_before = sorted(info.name for info in list_eval_logs(str(log_dir)))
    Switch.answered = []
    assert run_sweep(config, display="none")  # a third run: everything is complete
    assert Switch.answered == []  # no model call
    assert sorted(info.name for info in list_eval_logs(str(log_dir))) == logs_before


def _copy_with(log: Any, folder: Path, name: str, **changes: Any) -> None:
    for key, value in changes.items():
        setattr(log.eval, key, value)
    write_eval_log(log, str(folder / name))


def test_errored_other_version_and_test_logs_are_excluded_with_reasons(tmp_path: Path) -> None:
    data = write_demo_eqinfer(tmp_path / "data")
    log_dir = tmp_path / "logs"
    (good,) = inspect_eval(
        eqinfer(data_path=str(data)), model="baseline/all-positive", log_dir=str(log_dir)
    )
    # A test-suite run: Inspect's mock provider.
    inspect_eval(
        eqinfer(data_path=str(data)),
        model=scripted_model(lambda messages: "1"),
        log_dir=str(log_dir),
        limit=2,
    )
    # An errored run: a model that always fails, no retries.
    Switch.answered, Switch.dead_after = [], 0
    inspect_eval(
        eqinfer(data_path=str(data)),
        model=f"baseline/{INTERRUPTIBLE}",
        log_dir=str(log_dir),
        retry_on_error=0,
        limit=2,
    )
    Switch.dead_after = None
    # The same good run, as an older task version and as a run tagged by a test.
    old = read_eval_log(good.location)
    _copy_with(old, log_dir, "old-version.eval", task_version="0-Z")
    tagged = read_eval_log(good.location)
    _copy_with(tagged, log_dir, "tagged.eval", tags=["test"])

    (log_dir / "truncated.eval").write_bytes(b"PK\x03\x04 not a whole zip")

    runs, excluded = read_runs(str(log_dir))
    assert [Path(run.log.removeprefix("file://")) for run in runs] == [Path(good.location)]
    reasons = {Path(e.log).name: e.reason for e in excluded}
    assert reasons["old-version.eval"].startswith("task version 0-Z, current is ")
    assert reasons["tagged.eval"] == "test log: tagged 'test'"
    assert any(r.startswith("test log: model mockllm/model") for r in reasons.values())
    assert any(r.startswith("errored: ") and "sweep killed" in r for r in reasons.values())
    assert reasons["truncated.eval"].startswith("unreadable log: ")
    assert len(excluded) == 5

    out = tmp_path / "report"
    write_report(str(log_dir), out, bundle=False)
    report = (out / "report.md").read_text()
    excluded_part = report.split("## Excluded logs")[1]
    for reason in ("task version 0-Z", "test log: tagged", "mockllm", "errored: "):
        assert reason in excluded_part
    assert "0-Z" not in report.split("## Excluded logs")[0]
    assert len((out / "excluded.csv").read_text().splitlines()) == 1 + 5


@pytest.mark.parametrize("shards", [2])
def test_shards_in_two_processes_share_one_log_folder(tmp_path: Path, shards: int) -> None:
    import subprocess
    import sys

    data = write_demo_eqinfer(tmp_path / "data")
    log_dir = tmp_path / "shared-logs"
    config = tmp_path / "sharded.yaml"
    config.write_text(
        f"log_dir: {log_dir}\n"
        "models: [baseline/all-positive, baseline/tastybench-first]\n"
        f"tasks:\n  - task: eqinfer\n    args: {{data_path: '{data}'}}\n"
    )
    cli = "import sys; from research_taste.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", cli, "sweep", str(config)]
    workers = [
        subprocess.Popen([*command, "--shard", f"{i}/{shards}"], stdout=subprocess.DEVNULL)
        for i in range(1, shards + 1)
    ]
    assert [worker.wait(timeout=600) for worker in workers] == [0] * shards
    runs, excluded = read_runs(str(log_dir))
    assert {run.model for run in runs} == {"baseline/all-positive", "baseline/tastybench-first"}
    assert excluded == []


KILLABLE_SCRIPT = """
import json, sys, time
from pathlib import Path
from research_taste.cli.sweep import run_sweep
from research_taste.cli.sweep_load import load_sweep
from research_taste_evals.core.baselines import register_baseline

calls, delay = Path(sys.argv[2]), float(sys.argv[3])

@register_baseline("slow-counter", "tests: answers 1 after a delay, appends each prompt to a file")
def respond(messages):
    with calls.open("a") as handle:
        handle.write(json.dumps(messages[-1].text) + "\\n")
    time.sleep(delay)
    return "1"

sys.exit(0 if run_sweep(load_sweep(sys.argv[1]), display="none") else 1)
"""
KILL_AFTER_CALLS = 8
SLOW_CALL_SECONDS = 0.5


def test_sigkilled_sweep_resumes_without_repeating_finished_samples(tmp_path: Path) -> None:
    import json
    import signal
    import subprocess
    import sys
    import time

    data = write_demo_eqinfer(tmp_path / "data")
    log_dir = tmp_path / "logs"
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {log_dir}\nmodels: [baseline/slow-counter]\n"
        f"tasks:\n  - task: eqinfer\n    args: {{data_path: '{data}'}}\n"
        "max_samples: 1\nlog_buffer: 1\n"
    )
    script = tmp_path / "run.py"
    script.write_text(KILLABLE_SCRIPT)
    first, second = tmp_path / "calls-1.jsonl", tmp_path / "calls-2.jsonl"
    worker = subprocess.Popen(
        [sys.executable, str(script), str(sweep), str(first), str(SLOW_CALL_SECONDS)]
    )
    while worker.poll() is None and (
        not first.exists() or len(first.read_text().splitlines()) < KILL_AFTER_CALLS
    ):
        time.sleep(0.1)
    assert worker.poll() is None, "the sweep ended before it could be killed"
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    (killed,) = [read_eval_log(info) for info in list_eval_logs(str(log_dir))]
    assert killed.status == "started"  # the process died mid-run
    finished = {sample.input for sample in killed.samples or []}
    assert 0 < len(finished) < DEMO_DECISIONS
    # The call records and the sample inputs are the same texts (so the check below can fail).
    assert finished <= {json.loads(line) for line in first.read_text().splitlines()}

    rerun = subprocess.run([sys.executable, str(script), str(sweep), str(second), "0"], timeout=600)
    assert rerun.returncode == 0
    asked = [json.loads(line) for line in second.read_text().splitlines()]
    assert len(asked) == DEMO_DECISIONS - len(finished)
    assert not finished & set(asked)
    complete = [read_eval_log(i, header_only=True) for i in list_eval_logs(str(log_dir))]
    assert [log.status for log in complete].count("success") == 1
