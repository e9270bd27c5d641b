"""A folder of round logs alone makes a report with the default options (viewer bundle
included), its header counts the round judgments as the Rounds section's rows (none excluded),
the paired items are counted one way in the judging warning, ``round resolve``, the scored log
and the report, and a key given as ``-M api_key=...`` reaches neither the scored log nor
anything the report publishes."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openreview import serving
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from openreview_round import JUDGE_DAYS, T0, T1, venue_with_pdfs

from research_taste.reporting.report import write_report
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.core.rounds import load_round, newest_labels, paired_counts
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
CLI = [sys.executable, "-c", "import sys; from research_taste.cli import main; sys.exit(main())"]

# No credential shape: only its being a model argument's value names it. Inspect drops an
# ``api_key`` argument from the log (not every version does), never a ``*_token`` one.
KEY = "not-a-real-key-7f3a9c21"


def _files_text(folder: Path) -> str:
    return "\n".join(
        path.read_bytes().decode("utf-8", "replace") for path in folder.rglob("*") if path.is_file()
    )


def _eval_text(path: str) -> str:
    log = read_eval_log(path)
    return log.model_dump_json()


def test_round_logs_alone_make_a_default_report(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = [T0]
    venue = venue_with_pdfs(lambda: now[0])
    folder, logs = tmp_path / "rounds" / "r1", tmp_path / "logs" / "rounds"  # as in README.md
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        with caplog.at_level(logging.WARNING):
            [judged] = inspect_eval(
                tastybench_round(round=str(folder)),
                model="baseline/random",
                model_args={"api_key": KEY, "provider_token": KEY},
                log_dir=str(logs),
                display="none",
            )
        now[0] = T1 + dt.timedelta(days=1)
        entry = resolve_openreview(folder, now=lambda: now[0])
    round_ = load_round(folder)
    before = paired_counts(round_, None)
    assert f"{before.pending} of its {before.paired} paired items pending" in caplog.text
    assert KEY in _eval_text(str(judged.location))  # Inspect logs the argument as given

    [scored] = score_round(folder, logs)
    metrics = {
        name: metric.value
        for group in read_eval_log(scored.scored).results.scores  # type: ignore[union-attr]
        for name, metric in group.metrics.items()
    }
    counts = paired_counts(round_, newest_labels(round_))
    # one definition (the paired items) in resolve, the scorer and the counts the warning uses
    assert entry["labelled_share"] == pytest.approx(metrics["labelled_share"])
    assert entry["labelled_share"] == pytest.approx(counts.labelled_share)
    assert entry["pending_items"] == metrics["pending_items"] == counts.pending
    paired = {item for pair in round_.pairs for item in (pair.item_1, pair.item_2)}
    assert entry["paired_items"] == counts.paired == len(paired)
    assert KEY not in _eval_text(scored.scored)

    out = tmp_path / "site"
    files = write_report(str(logs), out)  # the defaults: viewer bundle included
    assert files.tasks == ["rounds"] and files.excluded == []
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "1 Rounds rows from 1 round judgments (1 scored logs); 0 logs excluded" in page
    # No runs: no "0 rows from 0 runs", no empty metrics.csv, no plots, and none listed.
    assert "0 rows from 0 runs" not in page and not (out / "metrics.csv").exists()
    assert not list(out.glob("*.png")) and "metrics.csv" not in files.files
    assert "plots" not in " ".join(files.files)
    assert {"index.html", "report.md", "rounds.csv", "rounds_leaderboard.csv"} <= set(files.files)
    report = (out / "report.md").read_text(encoding="utf-8")
    header = next(line for line in report.splitlines() if line.startswith("| model | round"))
    assert "| pairs | labelled share | pending items |" in header
    row = next(line for line in report.splitlines() if line.startswith("| baseline/random"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[5:7] == [f"{counts.labelled_share:.3g}", str(counts.pending)]
    bundled = sorted(path.name for path in (out / "viewer").rglob("*.eval"))
    assert bundled == sorted([Path(judged.location).name, Path(scored.scored).name])
    assert KEY not in _files_text(out)
    listing = json.loads((out / "viewer" / "logs" / "listing.json").read_text("utf-8"))
    assert len(listing) == 2

    # the README's command, as printed, from the folder that holds logs/rounds
    [command] = re.findall(r"`(research-taste report logs/rounds[^`]*)`", README)
    done = subprocess.run(
        [*CLI, *shlex.split(command)[1:]], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "reports" / "rounds" / "viewer" / "index.html").is_file()
