"""Issue 52 (items 4, 5, 7): ``round resolve`` and ``round score`` on bad inputs: a hand-edited
round.json, a labels file where a folder is expected, a paper Semantic Scholar does not know,
reviews undated, future-dated or rated off the scale, an edited labels file, unreadable logs."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from arxiv_round_fakes import OPENED, PAPERS, MonthlyCitations, arxiv_listing
from fake_graph_api import serving
from inspect_ai import eval as inspect_eval
from openreview_round import quality_judge

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste.rounds.arxiv import open_arxiv, resolve_arxiv
from research_taste.rounds.checks import ReviewCheck
from research_taste.rounds.openreview import _label_row
from research_taste.rounds.plan import rating_scale_of
from research_taste.rounds.score import labels_file
from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.tastybench.tastybench import tastybench_round

DUE = dt.datetime(2099, 4, 2, tzinfo=dt.UTC)  # every paper's 3-month window has passed
UNKNOWN = "9901.00003"


def _opened(folder: Path) -> Path:
    with arxiv_listing() as base:
        open_arxiv("cs.LG", 7, folder, window_months=3, base_url=base, now=lambda: OPENED)
    return folder


class OneUnknown(MonthlyCitations):
    """Semantic Scholar as it answers a paper it does not know: 404 Paper not found."""

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        if UNKNOWN in path:
            return 404, {"error": "Paper not found"}
        return super().answer(path, params)


def _resolved(folder: Path) -> dict[str, Any]:
    api = OneUnknown(now=lambda: DUE)
    with serving(api):
        return resolve_arxiv(folder, base_url=api.base_url, now=lambda: DUE, min_interval=0)


def _one_error_line(capsys: pytest.CaptureFixture[str], *fragments: str) -> str:
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert all(fragment in lines[0] for fragment in fragments), lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda m: m.pop("query"), "field 'query' must be an object (got None)"),
        (lambda m: m.pop("label_plan"), "field 'label_plan' must be an object (got None)"),
        (
            lambda m: m.update(source="demo"),
            "field 'source' is 'demo': `round resolve` fetches the",
        ),
        (lambda m: m.update(source="openreview"), "field 'query.venue' must be a text (got None)"),
        (
            lambda m: m["label_plan"].update(window_months="six"),
            "field 'label_plan.window_months' must be a whole number (got 'six')",
        ),
    ],
)
def test_a_hand_edited_round_json_is_one_sentence_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, named: str
) -> None:
    folder = _opened(tmp_path / "r")
    manifest = json.loads((folder / "round.json").read_text())
    edit(manifest)
    (folder / "round.json").write_text(json.dumps(manifest))
    assert main(["round", "resolve", str(folder)]) == USAGE_ERROR_EXIT
    _one_error_line(capsys, f"{folder / 'round.json'}: {named}")
    assert not (folder / "labels").exists()


def test_a_labels_file_where_the_folder_is_expected_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _opened(tmp_path / "r")
    (folder / "labels").write_text("not a folder")
    assert main(["round", "resolve", str(folder)]) == USAGE_ERROR_EXIT
    _one_error_line(capsys, f"{folder / 'labels'}: a file where the round's labels folder")


def test_a_paper_unknown_to_semantic_scholar_is_dropped_and_the_rest_resolve(
    tmp_path: Path,
) -> None:
    entry = _resolved(_opened(tmp_path / "r"))
    assert entry["dropped"] == {"not_found": 1} and entry["fetch_failed"] == 0
    assert entry["labelled_share"] == (len(PAPERS) - 1) / len(PAPERS)
    assert entry["resolved"] is True


def test_an_edited_labels_file_or_one_without_its_label_column_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _opened(tmp_path / "r")
    entry = _resolved(folder)
    path = folder / entry["file"]
    assert labels_file(folder, None) == path  # as resolve wrote it
    original = path.read_text()
    path.write_text(original.replace("\n9901.00001,5,", "\n9901.00001,50,"))
    (tmp_path / "logs").mkdir()
    assert main(["round", "score", str(folder), "--log-dir", str(tmp_path / "logs")]) == 2
    _one_error_line(capsys, f"{path}: changed since `round resolve` wrote it")

    # its sha256 deleted from round.json: refused, not trusted (issue 61)
    manifest = json.loads((folder / "round.json").read_text())
    del manifest["label_versions"][-1]["labels_sha256"]
    (folder / "round.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match=r"has no 'labels_sha256'"):
        labels_file(folder, None)
    # a file of the recorded sha256 without a label column: the header is still checked
    path.write_text(original.replace("item_id,label,", "item_id,score,", 1))
    manifest["label_versions"][-1]["labels_sha256"] = sha256_of(path)
    (folder / "round.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match=r"column 'label' is missing"):
        labels_file(folder, None)


def test_unreadable_logs_are_named_counted_and_the_others_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, logs = _opened(tmp_path / "r"), tmp_path / "logs"
    [log] = inspect_eval(
        tastybench_round(round=str(folder)),
        model=quality_judge(),
        log_dir=str(logs),
        display="none",
    )
    capsys.readouterr()  # the judging's own warning (printed once an earlier test set up logging)
    _resolved(folder)
    whole = Path(log.location).read_bytes()
    (logs / "truncated.eval").write_bytes(whole[: len(whole) // 2])
    (logs / "empty.eval").write_bytes(b"")
    (logs / "text.eval").write_text("not a log\n")

    assert main(["round", "score", str(folder), "--log-dir", str(logs)]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.strip().splitlines()) == 1  # the whole log, scored
    err = captured.err.strip().splitlines()
    for name in ("empty.eval", "text.eval", "truncated.eval"):
        [line] = [line for line in err if name in line]
        assert "not a readable Inspect log" in line
    assert err[-1].endswith("error: 3 logs skipped (named above), 1 scored")


def test_reviews_undated_future_dated_or_off_the_scale_are_left_out_and_counted() -> None:
    class NoEdits:
        def get_json_or_none(self, *args: object, **kwargs: object) -> None:
            return None

    resolved = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    stamp = int(dt.datetime(2026, 11, 1, tzinfo=dt.UTC).timestamp() * 1000)
    future = int(dt.datetime(2031, 1, 1, tzinfo=dt.UTC).timestamp() * 1000)

    def review(n: int, rating: object, cdate: int | None) -> dict[str, Any]:
        invitation = "V/Submission1/-/Official_Review"
        note = {"id": f"r{n}", "invitations": [invitation], "content": {"rating": rating}}
        return {**note, **({"cdate": cdate} if cdate is not None else {})}

    replies = [
        review(1, {"value": 6}, stamp),
        review(2, {"value": 99}, stamp),
        review(3, {"value": -3}, stamp),
        review(4, {"value": 8}, None),
        review(5, {"value": 8}, future),
    ]
    note = {"id": "p1", "content": {}, "details": {"replies": replies}}
    check = ReviewCheck(resolved, (1.0, 10.0))
    row, _ = _label_row(NoEdits(), "p1", note, check)  # type: ignore[arg-type]
    assert row["label"] == "6" and row["ratings"] == "6"
    assert row["label_time"] == "2026-11-01T00:00:00Z"
    assert check.left_out == {
        "rating_outside_scale": 2,
        "review_undated": 1,
        "review_dated_in_future": 1,
    }


@pytest.mark.parametrize(
    ("options", "scale"),
    [
        ([1, 3, 5, 6, 8, 10], [1.0, 10.0]),
        (["1: strong reject", "4: possibly reject", "6: accept"], [1.0, 6.0]),
        (
            [{"value": 2, "description": "reject"}, {"value": 4, "description": "accept"}],
            [2.0, 4.0],
        ),
        ([], None),
    ],
)
def test_the_rating_scale_is_read_from_the_review_forms_options(
    options: list[object], scale: list[float] | None
) -> None:
    spec = {"value": {"param": {"type": "integer", "enum": options}}}
    assert rating_scale_of(spec) == scale


class EarlyCitations(MonthlyCitations):
    """Every paper also "cited" by three papers dated before it (a bad date upstream)."""

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        status, body = super().answer(path, params)
        if int(params.get("offset", 0)) == 0 and "data" in body:
            early = [{"citingPaper": {"paperId": f"e{i}", "publicationDate": "2098-06-01"}}
                     for i in range(3)]  # fmt: skip
            body = {**body, "data": early + body["data"]}
        return status, body


def test_citing_papers_dated_before_the_paper_are_not_counted(tmp_path: Path) -> None:
    folder = _opened(tmp_path / "r")
    api = EarlyCitations(now=lambda: DUE)
    with serving(api):
        entry = resolve_arxiv(folder, base_url=api.base_url, now=lambda: DUE, min_interval=0)
    with (folder / entry["file"]).open(encoding="utf-8") as handle:
        labels = {row["item_id"]: float(row["label"]) for row in csv.DictReader(handle)}
    assert labels == {arxiv_id: float(k) for arxiv_id, (_, k, _) in PAPERS.items()}
    assert entry["citations_before_paper"] == 3 * len(PAPERS)
