"""Idea pairs' recall controls: the both-papers rule, the probe, the twins end to end."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from inspect_ai.scorer import SampleScore, Score
from log_metrics import every_figure_of
from mock_models import scripted_model

from research_taste_evals.core.cutoff import KnowledgeCutoff, cutoff_fields
from research_taste_evals.core.data import DataError
from research_taste_evals.core.recall_metrics import recall_summary as core_summary
from research_taste_evals.core.recognition import is_probe_prompt
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.ideapairs.pairs_schema import (
    SCHEMA_VERSION,
    IdeaRecord,
    PairRecord,
    write_pairs,
)
from research_taste_evals.ideapairs.recall import accuracy_statistic, method_names, pair_ideas
from research_taste_evals.ideapairs.specs import IDEA_PAIRS

CUTOFF = dt.date(2024, 6, 30)
FAST = {"display": "none", "log_realtime": False, "max_samples": 200, "max_connections": 200}


def _idea(number: int, date: str, score: float, source: str = "extracted") -> IdeaRecord:
    method = f"Zorblax{number:02d}"
    title = f"Paper number {number:02d} on quux"
    text = (
        f"Method: {method}\nPaper: {title}"
        if source == "method_and_title"
        else f"An approach that tries recipe {number:02d} with frobnication."
    )
    return IdeaRecord(
        idea_id=f"idea{number:02d}",
        text=text,
        text_source=source,  # type: ignore[arg-type]
        method=f"{method} (Someone et al., {date[:4]})",
        paper_title=title,
        paper_url="",
        year=int(date[:4]),
        paper_date=date if len(date) > 4 else None,
        unified_score=score,
    )


def _pair(index: int, first: IdeaRecord, second: IdeaRecord) -> list[PairRecord]:
    better, worse = sorted((first, second), key=lambda idea: -idea.unified_score)
    shared: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "pair_id": f"pair{index:03d}",
        "benchmark_id": "b0",
        "benchmark": "Board",
        "goal": "Do well on the board.",
        "goal_source": "template",
        "delta_sigma": 1.0,
        "tier": 1,
        "split": "test",
        "bucket": "2020-2025",
    }
    return [
        PairRecord.model_validate(
            shared
            | {"record_id": f"p{index}-o", "order": "original", "label": "A", "y": 0}
            | {"idea_a": better, "idea_b": worse}
        ),
        PairRecord.model_validate(
            shared
            | {"record_id": f"p{index}-s", "order": "swapped", "label": "B", "y": 1}
            | {"idea_a": worse, "idea_b": better}
        ),
    ]


def _all_pairs(ideas: list[IdeaRecord], path: Path) -> Path:
    records = []
    for i, first in enumerate(ideas):
        for second in ideas[i + 1 :]:
            records += _pair(len(records) // 2, first, second)
    write_pairs(records, path)
    return path


# --- hand-worked: the both-papers rule ------------------------------------------------------
# Cutoff 2024-06-30. Dates are compared at the item's precision (core/dates.py):
#   2025 / 2025-01-10      both after              -> post-cutoff
#   2024-07 / 2025         both after (month 7 > 6) -> post-cutoff
#   2024-06 / 2025         June is the cutoff's own month: not after -> not post-cutoff
#   2023-03-01 / 2025      one known paper          -> not post-cutoff
#   2024 / 2026            a year-only 2024 is not after 2024 -> not post-cutoff
RULE = [
    (("2025", "2025-01-10"), True, 1.0),
    (("2024-07", "2025"), True, 0.0),
    (("2024-06", "2025"), False, 1.0),
    (("2023-03-01", "2025"), False, 1.0),
    (("2024", "2026"), False, 1.0),
]


def recall_summary(scores: list[SampleScore]) -> dict[str, float]:
    return core_summary(IDEA_PAIRS, accuracy_statistic)(scores)


def _score(
    dates: tuple[str, str],
    correct: float,
    cutoff: dt.date | None,
    recognized: tuple[bool | None, bool | None] = (None, None),
    ids: tuple[str, str] = ("a", "b"),
) -> SampleScore:
    metadata = {"ideas": {ids[0]: {"date": dates[0]}, ids[1]: {"date": dates[1]}}}
    known = KnowledgeCutoff("m", cutoff, "task_arg" if cutoff else "none")
    shown = pair_ideas(metadata)
    recall = {
        item.item_id: {"date": str(item.date), "recognized": found, "identity_leak": False}
        for item, found in zip(shown, recognized, strict=True)
    }
    fields = cutoff_fields(known, [item.date for item in shown]) | {"recall": recall}
    value = {"correct": correct, "consistent": 1.0, "unparsed": 0.0, "reasked": 0.0}
    value |= {"original_correct": correct, "swapped_correct": correct}
    return SampleScore(score=Score(value=value, metadata=fields), sample_metadata=metadata)


def test_both_papers_rule_hand_worked() -> None:
    scores = [
        _score(dates, correct, CUTOFF, ids=(f"a{i}", f"b{i}"))
        for i, (dates, _, correct) in enumerate(RULE)
    ]
    flags = [(s.score.metadata or {})["post_cutoff"] for s in scores]
    assert flags == [expected for _, expected, _ in RULE]
    values = recall_summary(scores)
    # Two post-cutoff pairs, one right: 1/2 (the raw accuracy is 4/5).
    assert values["post_cutoff_pairs"] == 2
    assert values["accuracy_post_cutoff"] == pytest.approx(0.5)
    assert values["accuracy_post_cutoff_ci_low"] <= 0.5 <= values["accuracy_post_cutoff_ci_high"]
    # The probe did not run: the recognition figures are NaN, not 0.
    assert math.isnan(values["recognized_rate"]) and math.isnan(values["unrecognized_pairs"])
    unknown = recall_summary(
        [_score(d, c, None, ids=(f"a{i}", f"b{i}")) for i, (d, _, c) in enumerate(RULE)]
    )
    assert math.isnan(unknown["accuracy_post_cutoff"]) and math.isnan(unknown["post_cutoff_pairs"])


# --- hand-worked: the both-clean rule ---------------------------------------------------------
# Stated cutoff 2024-06-30. Probe: i1 2024-01, i2 2024-05, i3 2024-08 recognised; i4 2024-10,
# i5 2025-01, i6 2025-03 and i7 (dated only 2025) not. Step fit over the six month-dated ideas:
# m = 2024-08 and 2024-09 get all six right; ties go to the latest: estimated 2024-09 (i7 is
# left out of the fit). Clean cutoff = later of 2024-06-30 and the end of 2024-09 = 2024-09-30.
# Clean ideas (after it, not recognised): i4, i5, i6, i7. post_cutoff_recognized: i3 (1).
CLEAN_RULE = [
    (("i4", "i5"), ("2024-10", "2025-01"), (False, False), 1.0),  # both clean
    (("i5", "i6"), ("2025-01", "2025-03"), (False, False), 0.0),  # both clean
    (("i6", "i7"), ("2025-03", "2025"), (False, False), 1.0),  # both clean
    (("i3", "i4"), ("2024-08", "2024-10"), (True, False), 1.0),  # post-cutoff, i3 recognised
    (("i1", "i5"), ("2024-01", "2025-01"), (True, False), 1.0),  # i1 before the cutoff
    (("i2", "i3"), ("2024-05", "2024-08"), (True, True), 0.0),
]


def test_both_clean_rule_hand_worked(caplog: pytest.LogCaptureFixture) -> None:
    scores = [
        _score(dates, correct, CUTOFF, recognized, ids)
        for ids, dates, recognized, correct in CLEAN_RULE
    ]
    summary = core_summary(IDEA_PAIRS, accuracy_statistic)
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.recall_metrics"):
        values = summary(scores)
        assert summary(scores) == pytest.approx(values, nan_ok=True)  # recomputed: same, one log
    assert values["estimated_cutoff"] == 202409
    assert values["estimated_cutoff_agreement"] == 1.0 and values["estimated_cutoff_items"] == 6
    assert values["clean_cutoff"] == 202409 and values["post_cutoff_recognized"] == 1
    assert values["clean_items"] == 3 and values["accuracy_clean"] == pytest.approx(2 / 3)
    assert values["accuracy_clean_ci_low"] <= 2 / 3 <= values["accuracy_clean_ci_high"]
    assert values["post_cutoff_pairs"] == 4 and values["accuracy_post_cutoff"] == 0.75
    assert values["unrecognized_pairs"] == 3
    assert values["recognized_rate"] == pytest.approx(3 / 7)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "idea_pairs: the stated knowledge cutoff 2024-06-30 is contradicted: the model "
        "recognised 1 of the 5 items published after it scored so far (its answers show recall "
        "through 2024-09; post_cutoff_recognized counts the run's)"
    ]
    used = [
        r.getMessage() for r in caplog.records if "clean items are dated after" in r.getMessage()
    ]
    assert len(used) == 1 and "2024-09-30" in used[0]


def test_method_names_drop_the_citation() -> None:
    assert method_names("CRF Tagger (Demo et al., 2018)") == (
        "CRF Tagger",
        "CRF Tagger (Demo et al., 2018)",
    )
    assert method_names("BERT (large)") == ("BERT (large)",)


def test_bad_paper_date_names_file_record_and_field(tmp_path: Path) -> None:
    ideas = [_idea(1, "2023-02-30", 1.0), _idea(2, "2022", 0.5)]
    path = _all_pairs(ideas, tmp_path / "pairs.jsonl")
    with pytest.raises(DataError, match=r"pairs\.jsonl: record p0-o: field 'idea_a\.paper_date'"):
        idea_pairs(pairs_file=str(path))


# --- end to end: a held-out model that knows exactly the papers before its cutoff -----------
def held_out(ideas: list[IdeaRecord], calls: list[str]) -> Any:
    """Names a pre-cutoff idea's paper when probed and picks the better of two known ideas;
    otherwise does not recognise it and answers by a coin seeded by the prompt."""
    known = {i.text: i for i in ideas if i.year <= CUTOFF.year}
    by_text = {i.text: i for i in ideas}

    def respond(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        shown = sorted((t for t in by_text if t in prompt), key=prompt.index)
        if is_probe_prompt(prompt):
            calls.append(by_text[shown[0]].idea_id)
            idea = known.get(shown[0])
            return f"Title: {idea.paper_title}\nYear: {idea.year}" if idea else "I don't know it."
        first, second = shown
        if first in known and second in known:
            return "0" if known[first].unified_score > known[second].unified_score else "1"
        return str(hashlib.sha256(prompt.encode()).digest()[0] % 2)

    return respond


def test_held_out_model_post_cutoff_accuracy_is_its_chance_figure(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Six ideas from 2021-2023 (known), six from 2025 (after the cutoff), scores unrelated
    # to dates; every pair of the twelve: 66 pairs, 15 with both papers after the cutoff.
    ideas = [_idea(n, f"{2021 + n % 3}-0{1 + n % 9}", (n * 7) % 12 + 0.5) for n in range(6)]
    ideas += [_idea(n, f"2025-0{1 + n % 9}-1{n % 10}", (n * 5) % 12 + 0.25) for n in range(6, 12)]
    path = _all_pairs(ideas, tmp_path / "pairs.jsonl")
    calls: list[str] = []
    task = idea_pairs(pairs_file=str(path), knowledge_cutoff=CUTOFF.isoformat(), logprobs=False)
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.cutoff"):
        log = inspect_eval(
            task, model=scripted_model(held_out(ideas, calls)), log_dir=str(tmp_path), **FAST
        )[0]
    metrics = every_figure_of(log)
    # The cutoff used and its source, logged once for the run.
    used = [r.getMessage() for r in caplog.records if "knowledge cutoff of" in r.getMessage()]
    assert len(used) == 1  # (Inspect prefixes the sample id)
    assert used[0].endswith(
        f"idea_pairs: knowledge cutoff of mockllm/model: {CUTOFF} from task_arg"
    )
    assert sorted(calls) == sorted(i.idea_id for i in ideas)  # once per idea, not per pair
    # The chance figure from its own answers on the pairs of two post-cutoff papers.
    late = {i.idea_id for i in ideas if i.year > CUTOFF.year}
    post = [s for s in log.samples or [] if set(s.metadata["ideas"]) <= late]
    assert len(post) == 15
    right = 0
    for sample in post:
        answers = sample.metadata["answers"]
        picks = {
            order: sample.metadata["orders"][order][
                "idea_a" if answers[order]["completion"] == "0" else "idea_b"
            ]
            for order in ("original", "swapped")
        }
        right += picks["original"] == picks["swapped"] == sample.metadata["better_id"]
    assert metrics["post_cutoff_pairs"] == 15
    assert metrics["accuracy_post_cutoff"] == pytest.approx(right / 15)
    # Unrecognised = post-cutoff here: the same pairs and figure; it knew half the ideas.
    assert metrics["unrecognized_pairs"] == 15
    assert metrics["accuracy_unrecognized"] == pytest.approx(right / 15)
    assert metrics["recognized_rate"] == pytest.approx(0.5) and metrics["probed_items"] == 12
    # Recall inflates the raw headline: the 15 known-known pairs are all right.
    assert metrics["accuracy"] >= 15 / 66 + metrics["accuracy_post_cutoff"] * 15 / 66
    score = (log.samples or [])[0].scores["idea_pairs_scorer"]  # type: ignore[index]
    assert score.metadata is not None
    assert (score.metadata["knowledge_cutoff"], score.metadata["cutoff_source"]) == (
        CUTOFF.isoformat(),
        "task_arg",
    )


def test_unknown_model_without_cutoff_nan_twins_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ideas = [_idea(n, "2025", float(n), "method_and_title") for n in range(4)]
    path = _all_pairs(ideas, tmp_path / "pairs.jsonl")
    calls: list[str] = []
    with caplog.at_level(logging.INFO):
        log = inspect_eval(
            idea_pairs(pairs_file=str(path), logprobs=False),
            model=scripted_model(held_out(ideas, calls)),
            log_dir=str(tmp_path),
            **FAST,
        )[0]
    metrics = every_figure_of(log)
    assert math.isnan(metrics["accuracy_post_cutoff"]) and math.isnan(metrics["post_cutoff_pairs"])
    cutoff_lines = [r for r in caplog.records if "no knowledge cutoff" in r.getMessage()]
    assert len(cutoff_lines) == 1 and "-T knowledge_cutoff" in cutoff_lines[0].getMessage()
    # Method and title in every text: the probe is moot for all; NaN, and the log says why.
    assert calls == []
    assert math.isnan(metrics["recognized_rate"]) and metrics["leaked_items"] == 4
    assert any("name their own paper" in r.getMessage() for r in caplog.records)


def test_probe_off_asks_only_the_judge(tmp_path: Path) -> None:
    ideas = [_idea(n, "2022", float(n)) for n in range(3)]
    path = _all_pairs(ideas, tmp_path / "pairs.jsonl")
    calls: list[str] = []
    task = idea_pairs(pairs_file=str(path), logprobs=False, recall_probe=False)
    log = inspect_eval(
        task, model=scripted_model(held_out(ideas, calls)), log_dir=str(tmp_path), **FAST
    )[0]
    metrics = every_figure_of(log)
    assert calls == [] and math.isnan(metrics["recognized_rate"])
    assert math.isnan(metrics["accuracy_unrecognized"])
