"""Issue 50: both orders of every pair, scored as the paper scores them; today's main-split
format, the old both-orders format, the ICLR format; the log header's counts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from log_metrics import every_figure_of
from mock_models import scripted_model
from scijudge_rows import paper, row, write_rows

from research_taste_evals.core.data import DataError, ResolvedData
from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt
from research_taste_evals.core.text import fill_template
from research_taste_evals.scijudge import dataset, scijudge
from research_taste_evals.scijudge.dataset import load_rows
from research_taste_evals.scijudge.demo import demo_rows
from research_taste_evals.scijudge.prompts import MAIN_USER_TEMPLATE
from research_taste_evals.scijudge.rows import iclr_date

# The main split's user turn as the issue gives it, byte for byte (a third-party loader asserts
# it on all 1,000 rows); kept apart from prompts.MAIN_USER_TEMPLATE so the two can disagree.
ISSUE_TEMPLATE = (
    "Today is {today}. Based on the titles, abstracts, and publication dates of the following "
    "two papers A and B, determine which paper has a higher citation count.\nShow your "
    "reasoning process in <reason> </reason> tags. And return the final answer in <answer> "
    "</answer> tags. The final answer should contain only the letter A or B.\n\nPaper A "
    "(Published: {date_a}):\nTitle: {title_a}\nAbstract: {abstract_a}\n\nPaper B (Published: "
    "{date_b}):\nTitle: {title_b}\nAbstract: {abstract_b}"
)
TODAY = re.compile(r"^Today is (\d{4}-\d{2}-\d{2})\. ")


def _user(sample: Any) -> str:
    return str(sample.input[-1].text)


def _fill(today: str, a: dict[str, Any], b: dict[str, Any]) -> str:
    sides = {f"{key}_{side}": str(p[key]) for side, p in (("a", a), ("b", b)) for key in a}
    return fill_template(ISSUE_TEMPLATE, today=today, **sides)


def _fields(record: dict[str, Any], side: str) -> dict[str, Any]:
    return {key: record[f"paper_{side}_{key}"] for key in ("date", "title", "abstract")}


def test_the_main_template_is_the_issue_s_and_each_swap_is_it_with_the_papers_exchanged(
    tmp_path: Path,
) -> None:
    assert MAIN_USER_TEMPLATE == ISSUE_TEMPLATE
    records = [r for r in demo_rows() if r["paper_a_citations"] != r["paper_b_citations"]]
    samples = list(load_rows(str(write_rows(tmp_path / "main.jsonl", records))).dataset)
    assert len(samples) == 2 * len(records)
    for record, given, swapped in zip(records, samples[::2], samples[1::2], strict=True):
        message = record["messages"][1]["content"]
        match = TODAY.match(message)
        assert match, message
        a, b = _fields(record, "a"), _fields(record, "b")
        assert _fill(match.group(1), a, b) == message  # the row's own order, rebuilt
        assert _user(given) == message
        assert _user(swapped) == _fill(match.group(1), b, a)
        assert given.input[0].text == swapped.input[0].text == record["messages"][0]["content"]
        assert {given.target, swapped.target} == {"A", "B"}
        assert swapped.metadata and swapped.metadata["order_source"] == "built"
        assert swapped.metadata["paper_a"]["arxiv_id"] == record["paper_b_arxiv_id"]


def _answers(log: Any) -> list[str]:
    return [s.output.completion for s in log.samples or []]


def test_main_format_oracle_1_always_a_0_and_single_order_half(tmp_path: Path) -> None:
    metrics = {}
    for model in ("baseline/scijudge-oracle", "baseline/scijudge-always-a"):
        task = scijudge(data_path="demo", bootstrap_resamples=100)
        (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path / model.split("/")[1]))
        metrics[model] = every_figure_of(log)
    oracle, always_a = metrics["baseline/scijudge-oracle"], metrics["baseline/scijudge-always-a"]
    assert (oracle["accuracy"], oracle["accuracy_single_order"]) == (1.0, 1.0)
    assert (oracle["pairs"], oracle["answers"], oracle["incomplete_pairs"]) == (6.0, 12.0, 0.0)
    assert always_a["accuracy"] == 0.0
    assert (always_a["accuracy_ci_low"], always_a["accuracy_ci_high"]) == (0.0, 0.0)
    assert always_a["accuracy_single_order"] == 0.5
    assert always_a["accuracy_order/given"] == always_a["accuracy_order/swapped"] == 0.5
    assert always_a["position_a_share"] == 1.0


def test_a_pair_missing_an_order_is_left_out_and_counted(tmp_path: Path) -> None:
    task = scijudge(data_path="demo", bootstrap_resamples=50)
    (log,) = inspect_eval(task, model="baseline/scijudge-oracle", limit=3, log_dir=str(tmp_path))
    metrics = every_figure_of(log)
    assert (metrics["pairs"], metrics["incomplete_pairs"], metrics["answers"]) == (1.0, 1.0, 3.0)
    assert metrics["accuracy"] == 1.0


def _old_format_rows() -> list[dict[str, Any]]:
    """Both orders of two prompt variations of one pair, both orders of another pair, and a
    row whose twin the file lacks."""
    x, y = paper("x1", "2023-01-01", 9), paper("x2", "2023-01-02", 1)
    u, v = paper("u1", "2023-02-01", 2), paper("u2", "2023-02-03", 7)
    s, t = paper("s1", "2023-03-01", 5), paper("s2", "2023-03-04", 4)
    return [
        row(x, y), row(u, v), row(y, x), row(x, y, words=" Think first."), row(v, u),
        row(y, x, words=" Think first."), row(s, t),
    ]  # fmt: skip


def test_rows_with_both_orders_are_matched_with_their_twin_and_no_third_order_is_asked(
    tmp_path: Path,
) -> None:
    records = _old_format_rows()
    loaded = load_rows(str(write_rows(tmp_path / "old.jsonl", records)))
    header = loaded.metadata
    assert (header["couples"], header["twin_rows"], header["built_swaps"]) == (4, 3, 1)
    assert header["orders_asked"] == 8 and header["pairs"] == 3
    asked = [
        (s.metadata["row"], s.metadata["order"], s.metadata["variation"])
        for s in loaded.dataset
        if s.metadata
    ]
    assert asked == [
        (1, "given", 0), (3, "swapped", 0), (2, "given", 0), (5, "swapped", 0),
        (4, "given", 1), (6, "swapped", 1), (7, "given", 0), (7, "swapped", 0),
    ]  # fmt: skip
    in_file = {r["messages"][1]["content"] for r in records}
    users = [_user(s) for s in loaded.dataset]
    assert len(set(users)) == 8 and sum(u not in in_file for u in users) == 1

    prompts: list[str] = []

    def respond(messages: list[ChatMessage]) -> str:
        text = messages[-1].text
        if is_probe_prompt(text):
            return NOT_RECOGNISED
        prompts.append(text)
        return "<answer>A</answer>" if "Think first." in text else "<answer>B</answer>"

    task = scijudge(data_path=str(tmp_path / "old.jsonl"), bootstrap_resamples=50)
    (log,) = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path / "logs"))
    assert sorted(prompts) == sorted(users), "each order asked once, no third"
    metrics = every_figure_of(log)
    # Pair x: variation 0 answers B,B (wrong, right), variation 1 A,A: 0 of 2 couples; pair u:
    # B (right), B (wrong): 0; pair s: B, B: 0. Always one letter: never both orders right.
    assert metrics["accuracy"] == 0.0 and metrics["accuracy_single_order"] == 0.5
    assert metrics["accuracy_by_variation/1"] == 0.0


def _iclr_row(year: int, a: str, b: str, ratings: tuple[float, float]) -> dict[str, Any]:
    """A row in the ICLR split's format: year and ratings, no dates, its own prompt (the
    abstracts end in spaces, as some of the split's do)."""
    papers = {side: (f"ICLR {year} study {name}", f"We study {name}.  ") for side, name in
              (("a", a), ("b", b))}  # fmt: skip
    blocks = "".join(
        f"\n\nPaper {side.upper()}:\nTitle: {title}\nAbstract: {abstract}"
        for side, (title, abstract) in papers.items()
    )
    user = (
        "Based on the titles and abstracts of the following two ICLR submissions A and B, "
        "determine which paper is more likely to be accepted.\nShow your reasoning in <think> "
        "</think> tags and the final answer, only the letter A or B, in <answer> </answer> tags."
        + blocks
    )
    record: dict[str, Any] = {
        "messages": [{"role": "system", "content": "You judge papers."},
                     {"role": "user", "content": user}],
        "correct_answer": "A" if ratings[0] > ratings[1] else "B",
        "year": year,
    }  # fmt: skip
    for side, (title, abstract), rating in zip("ab", papers.values(), ratings, strict=True):
        record |= {f"paper_{side}_title": title, f"paper_{side}_abstract": abstract,
                   f"paper_{side}_rating": rating}  # fmt: skip
    return record


def test_iclr_rows_load_and_score_dated_by_year_ties_left_out(tmp_path: Path) -> None:
    records = [
        _iclr_row(2024, "p1", "p2", (6.5, 4.0)),
        _iclr_row(2024, "p3", "p4", (3.0, 5.25)),
        _iclr_row(2025, "q1", "q2", (8.0, 5.0)),
        _iclr_row(2025, "q3", "q4", (4.0, 6.0)),
        _iclr_row(2025, "q5", "q6", (5.0, 5.0)),  # a tie: left out
    ]
    path = write_rows(tmp_path / "iclr.jsonl", records)
    loaded = load_rows(str(path))
    header = loaded.metadata
    assert header["left_out_by_reason"]["equal_ratings"] == 1
    assert (header["pairs"], header["orders_asked"]) == (4, 8)
    assert header["label"].startswith("higher review rating")
    assert iclr_date(2025) == "2024-09-01"
    samples = list(loaded.dataset)
    dates = {s.metadata["paper_a"]["date"] for s in samples if s.metadata}
    assert dates == {"2023-09-01", "2024-09-01"}
    user, swapped = _user(samples[0]), _user(samples[1])
    original = records[0]["messages"][1]["content"]
    assert user == original
    head, rest = original.split("\n\nPaper A", 1)
    body_a, body_b = rest.split("\n\nPaper B", 1)
    assert swapped == f"{head}\n\nPaper A{body_b}\n\nPaper B{body_a}"
    assert swapped.endswith("We study p1.  ")  # the trailing spaces moved with the block
    with pytest.raises(DataError, match="prompt=tastybench"):
        load_rows(str(path), prompt="tastybench")

    task = scijudge(data_path=str(path), knowledge_cutoff="2024-06", bootstrap_resamples=50)
    (log,) = inspect_eval(task, model="baseline/scijudge-oracle", log_dir=str(tmp_path / "l"))
    metrics = every_figure_of(log)
    assert (metrics["accuracy"], metrics["pairs"]) == (1.0, 4.0)
    assert metrics["post_cutoff_pairs"] == 2.0  # only the ICLR 2025 pairs are after 2024-06
    assert metrics["accuracy_post_cutoff"] == 1.0


def test_the_header_records_the_resolved_commit_counts_and_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_rows(tmp_path / "test.jsonl", demo_rows())
    commit = "0123456789abcdef0123456789abcdef01234567"

    def resolved(hub: object, local: object = None) -> ResolvedData:
        return ResolvedData(path=path, source="hf", revision=commit)

    monkeypatch.setattr(dataset, "resolve_data", resolved)
    task = scijudge(bootstrap_resamples=50)
    assert task.metadata is not None
    header = task.metadata
    assert header["data_revision"] == header["provenance"]["data_revision"] == commit
    assert (header["rows"], header["kept_rows"], header["pairs_in_file"]) == (7, 6, 7)
    assert (header["pairs"], header["orders_asked"]) == (6, 12)
    assert header["expected_pairs"] == [1000]
    assert "7 pairs is not a count the README lists for test" in header["data_version"]
    assert "temperature 0.7" in header["generation"]["paper"]
    (log,) = inspect_eval(
        task, model="baseline/scijudge-oracle", temperature=0.3, log_dir=str(tmp_path / "l")
    )
    assert log.plan.config.temperature == 0.3
    assert json.dumps(log.eval.metadata)
