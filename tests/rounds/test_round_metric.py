"""The round's metric on hand-worked scores, and the round task's arguments."""

from __future__ import annotations

import datetime as dt
import math
import re
from pathlib import Path

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste.rounds.manifest import label_blind_pairs, write_round
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.rounds import RoundItem
from research_taste_evals.tastybench.scorer import round_summary
from research_taste_evals.tastybench.tastybench import tastybench, tastybench_round

NAN = math.nan
LABEL_TIME = 2_000.0  # seconds since the epoch: both labels of every pair appeared then


def _score(
    pair: int,
    first: str,
    second: str,
    first_won: float,
    labels: tuple[float, float],
    decided: float,
) -> SampleScore:
    value = {
        "first_won": first_won,
        "unclear": float(math.isnan(first_won)),
        "decided_at": decided,
        "label_1": labels[0],
        "label_2": labels[1],
        "label_time_1": LABEL_TIME if not math.isnan(labels[0]) else NAN,
        "label_time_2": LABEL_TIME if not math.isnan(labels[1]) else NAN,
    }
    metadata = {"pair_id": pair, "paper_1": first, "paper_2": second}
    return SampleScore(
        score=Score(value=value), sample_id=f"{pair}{first}", sample_metadata=metadata
    )


def test_round_summary_hand_worked() -> None:
    scores = [
        # pair 0: a (5) vs b (3), both orders right, decided before the labels
        _score(0, "a", "b", 1.0, (5.0, 3.0), 1_000.0),
        _score(0, "b", "a", 0.0, (3.0, 5.0), 1_000.0),
        # pair 1: c (2) vs d (4): one right, one unclear (wrong)
        _score(1, "c", "d", 0.0, (2.0, 4.0), 1_000.0),
        _score(1, "d", "c", NAN, (4.0, 2.0), 1_000.0),
        # pair 2: tied labels, left out and counted
        _score(2, "e", "f", 1.0, (6.0, 6.0), 1_000.0),
        _score(2, "f", "e", 1.0, (6.0, 6.0), 1_000.0),
        # pair 3: decided after the labels existed: reported apart (both wrong)
        _score(3, "g", "h", 0.0, (7.0, 1.0), 3_000.0),
        _score(3, "h", "g", 1.0, (1.0, 7.0), 3_000.0),
        # pair 4: one item still pending
        _score(4, "i", "j", 1.0, (NAN, 2.0), 1_000.0),
        _score(4, "j", "i", 0.0, (2.0, NAN), 1_000.0),
    ]
    result = round_summary(scores, resamples=200, seed=1)
    assert result["pairwise_accuracy"] == pytest.approx(3 / 4)  # pairs 0 and 1: 3 of 4 right
    assert result["pairs"] == 2 and result["tied_pairs"] == 1 and result["unclear"] == 1
    assert result["pairwise_accuracy_after_label"] == 0.0 and result["pairs_after_label"] == 1
    assert result["pending_items"] == 1 and result["labelled_share"] == pytest.approx(9 / 10)
    assert result["prospective_share"] == pytest.approx(8 / 10)


def test_no_labels_is_pending_not_zero() -> None:
    scores = [_score(0, "a", "b", 1.0, (NAN, NAN), 1_000.0)]
    result = round_summary(scores, resamples=50, seed=1)
    assert math.isnan(result["pairwise_accuracy"]) and result["pending_items"] == 2
    assert result["prospective_share"] == 1.0


def test_pairs_are_label_blind_disjoint_and_within_group() -> None:
    items = [
        RoundItem(f"x{i}", "t", f"2025-09-{i + 1:02d}", "abs", "g" + str(i % 2)) for i in range(8)
    ]
    pairs = label_blind_pairs(items)
    ids = [i for p in pairs for i in (p.item_1, p.item_2)]
    assert len(ids) == len(set(ids)) == 8
    group = {item.item_id: item.group for item in items}
    assert all(group[p.item_1] == group[p.item_2] for p in pairs)


def _open_round(folder: Path) -> None:
    items = [RoundItem(f"x{i}", "t", f"2025-09-0{i + 1}", "An abstract.", "") for i in range(4)]
    write_round(
        folder,
        items,
        opened_at=dt.datetime(2025, 10, 1, tzinfo=dt.UTC),
        source="openreview",
        query={},
        label_plan={"prompt": "reviews"},
        counts={},
    )


def test_the_round_task_takes_the_round_and_the_choice_method_only(tmp_path: Path) -> None:
    _open_round(tmp_path / "r")
    assert len(tastybench_round(round=str(tmp_path / "r")).dataset) == 4  # 2 pairs, both orders
    tastybench_round(round=str(tmp_path / "r"), choice_method="parser")
    # the round sets texts, pairs and prompt; a cutoff or a prompt is no argument of the task
    # (Inspect's loader warns of and drops an unknown -T name; a direct call is Python's error)
    for name, value in (("prompt", "normal"), ("knowledge_cutoff", "2025-01-01")):
        with pytest.raises(TypeError, match=f"unexpected keyword argument '{name}'"):
            tastybench_round(round=str(tmp_path / "r"), **{name: value})


def test_tastybench_given_a_round_names_the_round_task_in_one_sentence(tmp_path: Path) -> None:
    _open_round(tmp_path / "r")
    command = f"inspect eval research_taste_evals/tastybench_round -T round={tmp_path / 'r'}"
    with pytest.raises(ConfigError, match=re.escape(command)) as raised:
        tastybench(data_path=str(tmp_path / "r"))
    assert str(raised.value).count(". ") == 0 and "\n" not in str(raised.value)


def test_a_bad_round_value_is_one_sentence_naming_the_argument_and_the_file(
    tmp_path: Path,
) -> None:
    from research_taste_evals.core.data import DataError

    missing = tmp_path / "nowhere"
    with pytest.raises(ConfigError, match=re.escape(f"round={str(missing)!r}: {missing}")):
        tastybench_round(round=str(missing))
    _open_round(tmp_path / "r")
    (tmp_path / "r" / "items.csv").write_text("item_id\n", encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(f"round={str(tmp_path / 'r')!r}: ")):
        tastybench_round(round=str(tmp_path / "r"))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [('{"items": [', "invalid JSON at line 1"), ("[1, 2]", "not a JSON object")],
)
def test_a_broken_manifest_is_one_sentence_naming_the_file(
    text: str, fragment: str, tmp_path: Path
) -> None:
    from research_taste_evals.core.data import DataError
    from research_taste_evals.core.rounds import ROUND_FILE, read_manifest

    (tmp_path / ROUND_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(f"{tmp_path / ROUND_FILE}: {fragment}")):
        read_manifest(tmp_path)
