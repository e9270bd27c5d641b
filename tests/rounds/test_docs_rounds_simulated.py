"""docs/rounds.md's first section ("Commands"), on the simulated venue: its code blocks run
verbatim, each in a new process, in an empty folder with every network service pointed at a
closed port, from open to the leaderboard."""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rounds.md"
BIN = Path(sys.executable).parent
CLOSED = "http://127.0.0.1:9"  # nothing listens on the discard port: a request would fail


def first_section_commands() -> list[str]:
    """The commands of the ```bash blocks of the doc's "## Commands" section, as written."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Commands")
    section = text[start : text.index("\n## ", start + 1)]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.DOTALL)
    return [
        line
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_the_first_section_runs_offline_from_open_to_the_leaderboard(tmp_path: Path) -> None:
    commands = first_section_commands()
    assert commands[0].startswith("research-taste round open --source simulated")
    assert commands[-1].startswith("research-taste leaderboard")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "RESEARCH_TASTE_CACHE_DIR": str(tmp_path / "cache"),
        "HF_HUB_OFFLINE": "1",
        "OPENREVIEW_API_BASE": CLOSED,
        "ARXIV_API_BASE": CLOSED,
        "S2_API_BASE": CLOSED,
        "HTTP_PROXY": CLOSED,
        "HTTPS_PROXY": CLOSED,
    }
    env.pop("INSPECT_LOG_DIR", None)
    printed = []
    for command in commands:
        argv = shlex.split(command)
        argv[0] = str(BIN / argv[0])
        done = subprocess.run(
            argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        printed.append(done.stdout)
    folder = tmp_path / "rounds" / "sim-a"
    versions = json.loads((folder / "round.json").read_text())["label_versions"]
    # before the clock moves no review is out; 28 days on, every paired item has its label
    assert [v["labelled_share"] for v in versions] == [0.0, 1.0]
    with (tmp_path / "reports" / "rounds" / "rounds_leaderboard.csv").open() as handle:
        board = list(csv.DictReader(handle))
    ranked = {row["model"] for row in board if row.get("ranked") == "yes"}
    assert ranked == {"baseline/tastybench-longer", "baseline/random"}, board
    assert "baseline/tastybench-longer" in printed[-1] and "baseline/random" in printed[-1]
