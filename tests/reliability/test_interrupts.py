"""Ctrl-C during ``research-taste sweep``: exit 130, and a summary naming what is unfinished.

The sweep (two tasks, one at a time) runs in a subprocess against the fault server, which
holds every call once some answers were sent; SIGINT then arrives mid-way through the first
task, before the second one starts. Inspect's ``eval_set`` prints "Completed all tasks ...
successfully" in that case, so the sweep's own summary is what must tell the truth.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from as_from_a_terminal import as_from_a_terminal
from fault_runs import EVALUATED, TASKS, model_name, write_demo
from fault_server import HELD, Faults, FaultServer

from research_taste.cli.sweep_status import INTERRUPTED_EXIT

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

ANSWERS_BEFORE_INTERRUPT = 6
SETTLE_SECONDS = 2.0
PHASE_TIMEOUT = 240.0
LATENCY = 0.05
CLI = "import sys; from research_taste.cli import main; sys.exit(main())"


@pytest.mark.heavy
def test_interrupted_sweep_exits_130_and_names_the_unfinished_tasks(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    eqinfer = write_demo("eqinfer", tmp_path / "eqinfer")
    tastybench = write_demo("tastybench", tmp_path / "tastybench")
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\n"
        f"models: [{model_name(EVALUATED)}]\n"
        "max_tasks: 1\n"
        "tasks:\n"
        f"  - task: eqinfer\n    args: {{data_path: {eqinfer}}}\n"
        f"  - task: tastybench\n    args: {{data_path: {tastybench}}}\n"
    )
    env = {
        **os.environ,
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    fault_server.set_rule(TASKS["eqinfer"].rule)
    fault_server.set_faults(Faults(latency=LATENCY), seed=0)
    fault_server.reset_stats()
    process = subprocess.Popen(
        as_from_a_terminal([sys.executable, "-c", CLI, "sweep", str(sweep)]),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    fault_server.hold_after(ANSWERS_BEFORE_INTERRUPT)
    deadline = time.monotonic() + PHASE_TIMEOUT
    try:
        while fault_server.stats.faults[HELD] == 0 and process.poll() is None:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("the sweep never reached the interrupt point")
            time.sleep(0.05)
        time.sleep(SETTLE_SECONDS)
        assert process.poll() is None, "the sweep ended before the interrupt"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=PHASE_TIMEOUT)
    finally:
        fault_server.release()
        fault_server.hold_after(None)
        if process.poll() is None:
            process.kill()
    shown = out + err
    assert process.returncode == INTERRUPTED_EXIT, shown
    assert "sweep interrupted: 2 of 2 runs unfinished" in err, shown
    lines = err.splitlines()
    assert any("eqinfer" in line and "cancelled" in line for line in lines), shown
    assert any("tastybench" in line and "not started" in line for line in lines), shown
    assert f"Resume with: research-taste sweep {sweep}" in err, shown
