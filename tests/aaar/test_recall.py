"""AAAR-1.0 recall control: papers dated (arXiv id, venue year), headlines on post-cutoff papers."""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from log_metrics import metrics_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.demo import (
    write_demo_eqinfer,
    write_demo_expdesign,
    write_demo_weakness,
)
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.recall import arxiv_dates, venue_year
from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import ItemDate
from research_taste_evals.core.embeddings import OFFLINE_MODEL

# demo.0001 -> January 2022, demo.0002 -> June 2024, demo.0003 -> January 2025.
ARXIV_IDS = {"demo.0001": "2201.00001", "demo.0002": "2406.00002", "demo.0003": "2501.00003v2"}
CUTOFF = "2024-06-30"  # only 2501.00003 is after it: 2406's month is the cutoff's own month


def test_arxiv_dates_hand_worked() -> None:
    dates = arxiv_dates(["2104.08821", "2211.01910v2", "arXiv:2501.00003"], "root")
    assert dates == {
        "2104.08821": ItemDate(2021, 4),
        "2211.01910v2": ItemDate(2022, 11),
        "arXiv:2501.00003": ItemDate(2025, 1),
    }
    assert arxiv_dates(["demo.0001", "fixture.1"], "root") is None  # an undated source
    with pytest.raises(DataError, match=r"root: record 'demo\.1' .*field 'id' is not an arXiv"):
        arxiv_dates(["2104.08821", "demo.1"], "root")
    assert venue_year("Paper_Weakness/ICLR_2023") == ItemDate(2023)


def _arxiv_demo(root: Path, renamed: dict[str, str]) -> Path:
    write_demo_expdesign(root)
    for old, new in renamed.items():
        folder = root / "Experiment_Design" / old
        record = json.loads((folder / "data_text.json").read_text(encoding="utf-8"))
        record["id"] = new
        (folder / "data_text.json").write_text(json.dumps(record), encoding="utf-8")
        folder.rename(folder.with_name(new))
    return root


def _expdesign(root: Path, **kwargs: object) -> EvalLog:
    task = expdesign(data_path=str(root), embedding_model=OFFLINE_MODEL, **kwargs)  # type: ignore[arg-type]
    roles = {"grader": "baseline/word-overlap-judge"}
    return inspect_eval(task, model="baseline/copy-input", model_roles=roles, display="none")[0]  # type: ignore[arg-type,dict-item]


def test_expdesign_headline_on_post_cutoff_papers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.cutoff"):
        log = _expdesign(_arxiv_demo(tmp_path, ARXIV_IDS), knowledge_cutoff=CUTOFF)
    metrics = metrics_of(log)
    used = [r.getMessage() for r in caplog.records if "knowledge cutoff of" in r.getMessage()]
    assert len(used) == 1 and used[0].endswith(f"{CUTOFF} from task_arg")
    by_id = {str(s.id): s.scores["expdesign_scorer"] for s in log.samples or []}  # type: ignore[index]
    assert metrics["post_cutoff_samples"] == 1
    assert metrics["en_f1_post_cutoff"] == pytest.approx(by_id["2501.00003v2"].value["en_f1"])  # type: ignore[index]
    late = by_id["2501.00003v2"].metadata or {}
    assert (late["post_cutoff"], late["knowledge_cutoff"], late["cutoff_source"]) == (
        True,
        CUTOFF,
        "task_arg",
    )
    assert (by_id["2406.00002"].metadata or {})["post_cutoff"] is False
    assert (log.eval.metadata or {})["item_dates"] == "2022-01 to 2025-01"


def test_expdesign_one_undated_record_is_named(tmp_path: Path) -> None:
    renamed = {k: v for k, v in ARXIV_IDS.items() if k != "demo.0003"}
    with pytest.raises(DataError, match=r"record 'demo\.0003' .*field 'id'"):
        expdesign(data_path=str(_arxiv_demo(tmp_path, renamed)), embedding_model=OFFLINE_MODEL)


def test_unknown_model_without_cutoff_nan_twin_and_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="research_taste_evals.core.cutoff"):
        metrics = metrics_of(_expdesign(_arxiv_demo(tmp_path, ARXIV_IDS)))
    assert math.isnan(metrics["en_f1_post_cutoff"]) and math.isnan(metrics["post_cutoff_samples"])
    assert not math.isnan(metrics["en_f1"])
    lines = [r.getMessage() for r in caplog.records if "no knowledge cutoff" in r.getMessage()]
    assert len(lines) == 1 and "-T knowledge_cutoff=YYYY-MM " in lines[0]


def test_undated_sources_say_so_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # The demo's ids are not arXiv ids: undated, the twin NaN even with a cutoff.
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.dates"):
        log = _expdesign(write_demo_expdesign(tmp_path / "demo"), knowledge_cutoff=CUTOFF)
        task = eqinfer(data_path=str(write_demo_eqinfer(tmp_path / "eq")))
    assert math.isnan(metrics_of(log)["en_f1_post_cutoff"])
    assert (log.eval.metadata or {})["item_dates"].startswith("none: ")
    assert (task.metadata or {})["item_dates"].startswith("none: EqInfer")
    lines = [r.getMessage() for r in caplog.records if "carry no dates" in r.getMessage()]
    assert [line.split(":")[0] for line in lines] == ["expdesign", "eqinfer"]


def test_paper_weakness_dated_by_venue_year(tmp_path: Path) -> None:
    data = write_demo_weakness(tmp_path)
    task = paper_weakness(
        data_path=str(data),
        embedding_model=OFFLINE_MODEL,
        itf_idf_model=OFFLINE_MODEL,
        knowledge_cutoff="2022-12-31",
    )
    metrics = metrics_of(inspect_eval(task, model="baseline/generic-weaknesses", display="none")[0])
    # Every paper is an ICLR 2023 submission, dated 2023: all after a 2022 cutoff.
    assert metrics["post_cutoff_samples"] == len(task.dataset)
    assert metrics["s_f1_post_cutoff"] == pytest.approx(metrics["s_f1"])
    assert (task.metadata or {})["item_dates"] == "2023 to 2023"
