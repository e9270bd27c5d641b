"""Kill ``inspect eval`` midway (SIGINT, SIGTERM, SIGKILL), resume with ``inspect eval-retry``.

The run is TastyBench on the demo papers with every judge answer read by the extractor (whose
calls Inspect caches), against the fault server with some latency so it can be killed midway.
The server's counts show what the resumed run asked again: no sample that was complete before
the kill (its judge and extractor calls both answered), and no cached extractor call.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from as_from_a_terminal import as_from_a_terminal
from fault_runs import (
    EVALUATED,
    figures,
    metrics,
    model_name,
    report_lines,
    run,
    same_metrics,
    stable,
    write_demo,
)
from fault_runs import FaultTask as Spec
from fault_server import HELD, Faults, FaultServer, Message, ServerStats, prompt_hash
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

EXTRACTOR = "extractor"
LATENCY = 0.15  # seconds per answer: the run lasts long enough to be killed midway
MAX_CONNECTIONS = 4
LIMIT = 40  # comparisons of the 90 all-pairs ones: enough to kill midway, quick to resume
KILL_AFTER_ANSWERS = 30  # of 80 calls (40 comparisons x judge + extractor)
SETTLE_SECONDS = 2.0  # after the server starts holding calls, before the kill
PHASE_TIMEOUT = 240.0  # seconds any one subprocess may take before the test gives up
REF = re.compile(r"\[ref ([0-9a-f]{16})\]")
# The recognition probe (on by default) is off here: this test counts judge and extractor calls
# per comparison; that a re-run repeats no probe call is tests/core/test_recognition.py's.
TASK_ARGS = {
    "schedule": "all_pairs",
    "choice_method": "extractor",
    "bootstrap_resamples": 20,
    "recall_probe": False,
}


class Links:
    """Which judge call each extractor call reads (the judge answer names its own prompt)."""

    def __init__(self) -> None:
        self.judge_of: dict[str, str] = {}

    def rule(self, model: str, messages: list[Message]) -> str:
        text = messages[-1]["content"]
        if model == EXTRACTOR:
            match = REF.search(text)
            if match is not None:
                self.judge_of[prompt_hash(messages)] = match.group(1)
            return f"They end up recommending PROJECT {1 + stable(text) % 2}"
        pick = 1 + stable(text) % 2
        return f"On balance Project {pick} is the better bet. [ref {prompt_hash(messages)}]"


def _answered(stats: ServerStats, model: str) -> set[str]:
    return {digest for (name, digest), n in stats.answered.items() if name == model and n}


def _environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),  # Inspect's sample buffer, for recovery
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }


def _inspect(*args: str) -> list[str]:
    return [str(Path(sys.executable).with_name("inspect")), *args]  # the public script


def _eval_command(data: Path, log_dir: Path) -> list[str]:
    task_args = [f"{k}={v}" for k, v in {"data_path": data, **TASK_ARGS}.items()]
    return _inspect(
        "eval",
        "research_taste_evals/tastybench",
        "--model",
        model_name(EVALUATED),
        "--model-role",
        f"{EXTRACTOR}={model_name(EXTRACTOR)}",
        *[part for arg in task_args for part in ("-T", arg)],
        "--limit",
        str(LIMIT),
        "--max-connections",
        str(MAX_CONNECTIONS),
        "--log-dir",
        str(log_dir),
        "--display",
        "none",
    )


def _kill_midway(server: FaultServer, command: list[str], env: dict[str, str], sig: int) -> int:
    process = subprocess.Popen(
        as_from_a_terminal(command),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + PHASE_TIMEOUT
    server.hold_after(KILL_AFTER_ANSWERS)
    try:
        while server.stats.faults[HELD] == 0 and process.poll() is None:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("the eval never reached the kill point")
            time.sleep(0.02)
        # Every answer sent has now been received and recorded; every new call is held.
        time.sleep(SETTLE_SECONDS)
        assert process.poll() is None, "the eval ended before the kill"
        process.send_signal(sig)
        try:
            process.communicate(timeout=PHASE_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail(f"the eval did not stop after signal {sig}")
    finally:
        server.release()
        server.hold_after(None)
    return process.returncode


@pytest.fixture(scope="module")
def reference(fault_server: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """The same run, fault-free and never interrupted (in process)."""
    folder = tmp_path_factory.mktemp("reference")
    spec = Spec(
        "tastybench",
        Links().rule,
        demo="tastybench",
        args=TASK_ARGS,
        roles={EXTRACTOR: model_name(EXTRACTOR)},
    )
    log, _ = run(fault_server, spec, folder, Faults(), limit=LIMIT)
    assert log.status == "success", log.error
    return log


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=str)
def test_killed_run_resumes_without_repeating_completed_samples(
    sig: signal.Signals, fault_server: FaultServer, reference: EvalLog, tmp_path: Path
) -> None:
    links = Links()
    fault_server.set_rule(links.rule)
    fault_server.set_faults(Faults(latency=LATENCY), seed=0)
    fault_server.reset_stats()
    env = _environment(tmp_path)
    data, log_dir = write_demo("tastybench", tmp_path / "data"), tmp_path / "logs"

    started = time.monotonic()
    code = _kill_midway(fault_server, _eval_command(data, log_dir), env, sig)
    killed_at = time.monotonic()
    before = fault_server.reset_stats()
    (killed,) = list_eval_logs(str(log_dir))
    resume = subprocess.run(
        _inspect("eval-retry", killed.name, "--log-dir", str(log_dir), "--display", "none"),
        env=env,
        capture_output=True,
        text=True,
        timeout=PHASE_TIMEOUT,
    )
    after = fault_server.reset_stats()
    print(f"\nphase 1 {killed_at - started:.1f}s, resume {time.monotonic() - killed_at:.1f}s")
    assert resume.returncode == 0, resume.stdout + resume.stderr

    final = max(list_eval_logs(str(log_dir)), key=lambda info: info.mtime or 0)
    log = read_eval_log(final.name)
    judged_before, judged_after = _answered(before, EVALUATED), _answered(after, EVALUATED)
    extracted_before = _answered(before, EXTRACTOR)
    complete_before = {links.judge_of[e] for e in extracted_before} & judged_before
    repeated = complete_before & judged_after
    report = (
        f"{sig.name}: exit {code}; before the kill {before.total_answered} answers "
        f"({len(complete_before)} samples complete); resumed run {after.total_answered} answers, "
        f"{len(judged_before & judged_after)} judge calls asked again (in flight at the kill), "
        f"{len(repeated)} of them for complete samples, "
        f"{len(extracted_before & _answered(after, EXTRACTOR))} cached extractor calls repeated; "
        f"final: {figures('tastybench', log, after).line()}"
    )
    report_lines(report)
    assert log.status == "success" and log.samples is not None, report
    assert len(log.samples) == len(reference.samples or []), report
    assert all(s.error is None and s.scores for s in log.samples), report
    assert complete_before and repeated == set(), report
    assert not extracted_before & _answered(after, EXTRACTOR), report  # cached: not asked again
    # Every comparison was judged by the first run or the resumed one, none left out.
    assert len(judged_before | judged_after) == len(log.samples), report
    assert same_metrics(metrics(log), metrics(reference)), report
