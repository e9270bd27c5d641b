"""Issue "Rounds", done-when: an arXiv round whose citations arrive month by month."""

from __future__ import annotations

import csv
import datetime as dt
import math
from pathlib import Path

import pytest
from arxiv_round_fakes import OPENED, PAPERS, MonthlyCitations, arxiv_listing
from fake_graph_api import serving
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log
from log_metrics import metrics_of
from openreview_round import quality_judge

from research_taste.rounds.arxiv import open_arxiv, resolve_arxiv
from research_taste.rounds.score import score_round
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow


def test_arxiv_round_citations_arrive_month_by_month(tmp_path: Path) -> None:
    now = [OPENED]
    folder, logs = tmp_path / "rounds" / "cslg", tmp_path / "logs"
    with arxiv_listing() as base:
        manifest = open_arxiv(
            "cs.LG", 7, folder, window_months=3, base_url=base, now=lambda: now[0]
        )
    assert manifest["items"] == 6 and manifest["label_plan"]["prompt"] == "goodhart"
    assert manifest["label_plan"]["labels_due"] == "2099-04-01"
    [log] = inspect_eval(
        tastybench_round(round=str(folder)),
        model=quality_judge(),
        log_dir=str(logs),
        display="none",
    )
    assert math.isnan(metrics_of(log)["pairwise_accuracy"])

    api = MonthlyCitations(now=lambda: now[0])
    with serving(api):
        now[0] = dt.datetime(2099, 3, 10, tzinfo=dt.UTC)  # two months in: not due yet
        early = resolve_arxiv(folder, base_url=api.base_url, now=lambda: now[0], min_interval=0)
        now[0] = dt.datetime(2099, 4, 2, tzinfo=dt.UTC)
        due = resolve_arxiv(folder, base_url=api.base_url, now=lambda: now[0], min_interval=0)
    assert early["labelled_share"] == 0.0 and due["labelled_share"] == 1.0
    with (folder / "labels" / f"{due['version']}.csv").open(encoding="utf-8") as handle:
        labels = {row["item_id"]: float(row["label"]) for row in csv.DictReader(handle)}
    assert labels == {arxiv_id: float(k) for arxiv_id, (_, k, _) in PAPERS.items()}

    with (folder / "pairs.csv").open(encoding="utf-8") as handle:
        pairs = [(row["item_1"], row["item_2"]) for row in csv.DictReader(handle)]
    right = sum((PAPERS[a][2] > PAPERS[b][2]) == (labels[a] > labels[b]) for a, b in pairs)
    [scored] = score_round(folder, logs)
    values = metrics_of(read_eval_log(str(scored.scored)))
    assert values["pairwise_accuracy"] == pytest.approx(right / len(pairs))
    assert values["prospective_share"] == 1.0 and values["labelled_share"] == 1.0

    # Any log folder and format Inspect lists: a JSON log (Inspect lists a .json file by its log
    # name), and a remote folder (fsspec's in-memory filesystem standing for s3://); the scored
    # log is written beside each.
    stem = Path(log.location).stem
    json_dir, remote = tmp_path / "json-logs", f"memory://round-logs/{tmp_path.name}"
    write_eval_log(log, str(json_dir / f"{stem}.json"))
    write_eval_log(log, f"{remote}/{stem}.eval")
    for log_dir, judgment in (
        (str(json_dir), str(json_dir / f"{stem}.json")),
        (remote, f"memory:///round-logs/{tmp_path.name}/{stem}.eval"),
    ):
        [copy] = score_round(folder, log_dir)
        assert (copy.judgment, copy.model) == (judgment, log.eval.model)
        assert copy.scored == f"{judgment.rsplit('.', 1)[0]}-scored-{due['version']}.eval"
        assert metrics_of(read_eval_log(copy.scored)) == values
