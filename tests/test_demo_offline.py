"""Issue 37: ``inspect eval research_taste_evals/<task> --model <baseline> -T data_path=demo``
exits 0 for every task with the Hub switched off (``HF_HUB_OFFLINE=1``) and a fresh cache, as
the README's "Demo data" paragraph says; the embedding-based tasks then score with the packaged
MiniLM, and the log's provenance says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from research_taste.cli.demo import demo_runs

pytestmark = pytest.mark.slow  # nine CLI runs, each a fresh interpreter (minutes on 2 cores)

RUNS = {run.name: run for run in demo_runs()}


def _offline_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        RESEARCH_TASTE_CACHE_DIR=str(tmp_path / "cache"),
        RESEARCH_TASTE_CONNECT_TIMEOUT="1",
    )
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize("task", sorted(RUNS))
def test_every_task_runs_offline_on_demo_data(task: str, tmp_path: Path) -> None:
    run = RUNS[task]
    roles = [a for role, m in run.model_roles.items() for a in ("--model-role", f"{role}={m}")]
    command = [
        *(sys.executable, "-m", "inspect_ai", "eval", f"research_taste_evals/{task}"),
        *("--model", run.model, *roles, "-T", "data_path=demo"),
        *("--display", "none", "--log-dir", str(tmp_path / "logs")),
    ]
    done = subprocess.run(
        command, env=_offline_env(tmp_path), capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    [log] = list_eval_logs(str(tmp_path / "logs"))
    header = read_eval_log(log, header_only=True)
    assert header.status == "success"
    if task in ("expdesign", "paper_weakness"):
        embeddings = json.dumps(header.eval.metadata["provenance"]["embeddings"])
        assert '"embedding_model": "offline-minilm"' in embeddings
        assert "all-mpnet-base-v2" not in embeddings
