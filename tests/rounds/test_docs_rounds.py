"""docs/rounds.md: its real-venue commands run as written against the local fakes."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from arxiv_round_fakes import arxiv_listing
from fake_openreview import serving
from fake_tmlr import fake_tmlr
from inspect_ai.log import read_eval_log
from log_metrics import metrics_of
from openreview_round import T0, T1, venue_with_pdfs
from tmlr_round import T0 as TMLR_T0
from tmlr_round import papers as tmlr_papers

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rounds.md"
BIN = Path(sys.executable).parent
# The walk runs a dozen commands against one fake (each a new process): on a loaded machine that
# passes the fakes' default lifetime. The fake still stops when the walk leaves it.
LONG_WALK = 1800.0


REAL_VENUES = "## On a real venue (network)"


def blocks() -> list[list[str]]:
    """Each ```bash block of the doc from its real-venue section on, as its commands (comments
    dropped); the first section's, on the simulated venue: test_docs_rounds_simulated.py."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"```bash\n(.*?)```", text[text.index(REAL_VENUES) :], re.DOTALL)
    return [
        [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        for block in found
    ]


def run(command: str, cwd: Path, env: dict[str, str]) -> str:
    argv = shlex.split(command)
    argv[0] = str(BIN / argv[0])
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_rounds_doc_commands_run_as_written(tmp_path: Path) -> None:
    now = [T0]
    venue = venue_with_pdfs(lambda: now[0], venue="ICLR.cc/2027/Conference")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "INSPECT_LOG_DIR": str(tmp_path / "logs"),
        "RESEARCH_TASTE_CACHE_DIR": str(tmp_path / "cache"),
    }
    opening, judging, resolving, inspect_score, tmlr_round, arxiv_round = blocks()
    with serving(venue, lifetime=LONG_WALK):
        env["OPENREVIEW_API_BASE"] = venue.base_url
        for command in opening + judging:
            run(command, tmp_path, env)
        # The reviews appear once the judgments are made. A resolve (at the wall clock) leaves
        # out a review dated after it, so they are dated now rather than at T1.
        posted = dt.datetime.now(dt.UTC)
        for paper in venue.papers:
            if any(review.posted >= T1 for review in paper.reviews):
                paper.reviews = [replace(review, posted=posted) for review in paper.reviews]
        now[0] = posted + dt.timedelta(seconds=1)
        for command in resolving:
            run(command, tmp_path, env)
    # the report, with the default options (viewer bundle included), counts the judgments
    reports = tmp_path / "reports" / "rounds"
    page = (reports / "index.html").read_text(encoding="utf-8")
    assert re.search(r"\b\d+ Rounds rows from 3 round judgments", page), page[:2000]
    assert (reports / "rounds_leaderboard.csv").is_file()
    assert (reports / "viewer" / "index.html").is_file()
    folder = tmp_path / "rounds" / "iclr2027-a"
    version = json.loads((folder / "round.json").read_text())["label_versions"][-1]["version"]
    scored = sorted((tmp_path / "logs" / "rounds").glob(f"*-scored-{version}.eval"))
    assert len(scored) == 3  # two TastyBench judgments and one PaperWeakness
    assert metrics_of(read_eval_log(str(scored[2])))["pending_items"] == 0
    scored = [
        p
        for p in scored
        if read_eval_log(str(p), header_only=True).eval.task.endswith("tastybench_round")
    ]
    judgment = scored[0].with_name(scored[0].name.replace(f"-scored-{version}", ""))
    [command] = inspect_score
    command = command.replace("<judgment log>", judgment.stem).replace("<version>", version)
    in_process = metrics_of(read_eval_log(str(scored[0])))
    scored[0].unlink()  # the documented form writes a new file: the same name, made again
    run(command, tmp_path, env)
    by_cli = read_eval_log(str(scored[0]))
    assert by_cli.eval.model == read_eval_log(str(judgment)).eval.model
    values = metrics_of(by_cli)
    assert values["prospective_share"] == 1.0 and values["pending_items"] == 0
    assert values["pairs"] > 0
    assert values == in_process

    now[0] = TMLR_T0
    journal = fake_tmlr(lambda: now[0], tmlr_papers())
    with serving(journal, lifetime=LONG_WALK):
        env["OPENREVIEW_API_BASE"] = journal.base_url
        open_tmlr, judge_tmlr, *resolve_tmlr = tmlr_round
        for command in (open_tmlr, judge_tmlr):
            run(command, tmp_path, env)
        # As above: the reviews are public once the judgments are made, dated now (not in
        # 2100) for the resolve at the wall clock; the decisions a second later.
        posted = dt.datetime.now(dt.UTC)
        second = dt.timedelta(seconds=1)
        journal.papers = tmlr_papers(posted, posted + second, posted + 2 * second)
        now[0] = posted + 1.5 * second  # reviews and seven of eight decisions public
        for command in resolve_tmlr:
            run(command, tmp_path, env)
    tmlr = json.loads((tmp_path / "rounds" / "tmlr-2027-w02" / "round.json").read_text())
    assert tmlr["label_plan"]["kind"] == "decision"
    assert tmlr["label_versions"][-1]["labelled_share"] == 7 / 8
    [tmlr_scored] = (tmp_path / "logs" / "tmlr").glob("*-scored-*.eval")
    tmlr_values = metrics_of(read_eval_log(str(tmlr_scored)))
    assert tmlr_values["prospective_share"] == 1.0 and tmlr_values["pending_items"] == 1

    with arxiv_listing(dt.datetime.now(dt.UTC).date()) as base:
        env["ARXIV_API_BASE"] = base
        env["S2_API_BASE"] = "http://127.0.0.1:9/graph/v1"  # not asked: no label is due yet
        for command in arxiv_round:
            run(command, tmp_path, env)
    arxiv = json.loads((tmp_path / "rounds" / "cslg-2027-w02" / "round.json").read_text())
    assert arxiv["items"] == 6 and arxiv["label_versions"][-1]["labelled_share"] == 0.0
