"""Idea pairs' recall controls: item dates, the recognition probe, and the twins of ``accuracy``.

A judge that has read the leaderboard can answer a pair from memory of which paper won. Two
controls, both from the same answers as the headline (README, "Recall and contamination"):

- post-cutoff: an idea is dated by its paper (``paper_date`` where the pairs file has it, else
  ``year``); a pair is post-cutoff when BOTH papers were published after the evaluated model's
  knowledge cutoff (``core/dates.py``: one known paper is enough to answer from memory).
  ``accuracy_post_cutoff`` is the headline's consistency-aware accuracy, with the same seeded
  bootstrap CI, on those pairs (``post_cutoff_pairs``);
- recognition: the probe (``core/recognition.py``) shows the model exactly one idea's text, as
  the judge sees it, once per idea per run, and asks which paper it describes. Recognised = the
  answer names the paper's title or contains the method name's tokens. ``recognized_rate`` is
  over ideas whose text does not name its own paper (``method_and_title`` texts all do: then
  it is NaN and the log says why); ``accuracy_unrecognized`` is over pairs whose two ideas were
  not recognised (``unrecognized_pairs``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric
from inspect_ai.solver import TaskState

from research_taste_evals.core.dates import ItemDate, parse_item_date, require_item_date
from research_taste_evals.core.recall_metrics import (
    item_recognitions,
    post_cutoff_values,
    recognition_values,
    unrecognized_values,
)
from research_taste_evals.core.recognition import RecallItem
from research_taste_evals.core.stats import NAN
from research_taste_evals.ideapairs.metrics import accuracy_with_ci

logger = logging.getLogger(__name__)

TASK = "idea_pairs"
HEADLINE = "accuracy"
# A method name's trailing citation ("CRF Tagger (Demo et al., 2018)") is not part of its name.
_CITATION = re.compile(r"\s*\([^()]*\b(?:et al\.?|\d{4})[^()]*\)\s*$")
RECALL_KEYS = [
    "accuracy_post_cutoff",
    "accuracy_post_cutoff/ci_low",
    "accuracy_post_cutoff/ci_high",
    "post_cutoff_pairs",
    "accuracy_unrecognized",
    "accuracy_unrecognized/ci_low",
    "accuracy_unrecognized/ci_high",
    "unrecognized_pairs",
    "recognized_rate",
    "recognized_items",
    "probed_items",
    "leaked_items",
]


def idea_date(paper_date: str | None, year: int, where: str) -> ItemDate:
    """An idea's paper date: ``paper_date`` when given (a bad one is a ``DataError``), else year."""
    if paper_date is None or not str(paper_date).strip():
        return ItemDate(year)
    return require_item_date(paper_date, where)


def method_names(method: str) -> tuple[str, ...]:
    """The method's names the probe and the leak check look for: as written and uncited."""
    bare = _CITATION.sub("", method).strip()
    return tuple(dict.fromkeys(name for name in (bare, method.strip()) if name))


def pair_ideas(state: TaskState) -> list[RecallItem]:
    """The two ideas a pair shows, each exactly as the judge reads it."""
    ideas: Mapping[str, Mapping[str, Any]] = state.metadata.get("ideas") or {}
    return [
        RecallItem(
            item_id=idea_id,
            text=str(facts["text"]),
            title=str(facts.get("paper_title", "")),
            method_names=method_names(str(facts.get("method", ""))),
            kind="idea",
        )
        for idea_id, facts in sorted(ideas.items())
    ]


def pair_dates(metadata: Mapping[str, Any]) -> list[ItemDate | None]:
    """Both papers' dates of a pair (as the loader wrote them into the metadata)."""
    ideas: Mapping[str, Mapping[str, Any]] = metadata.get("ideas") or {}
    return [parse_item_date(facts.get("date")) for facts in ideas.values()]


def recall_summary(scores: list[SampleScore]) -> dict[str, float]:
    """Every recall figure of the module docstring (NaN where undefined)."""
    values = post_cutoff_values(scores, HEADLINE, accuracy_with_ci, count_key="post_cutoff_pairs")
    values |= unrecognized_values(
        scores, HEADLINE, accuracy_with_ci, count_key="unrecognized_pairs"
    )
    values |= recognition_values(scores)
    items = item_recognitions(scores)
    if items and values["probed_items"] == 0 and values["leaked_items"] > 0:
        # Info, as TastyBench's: it is said in the log, and the metric is recomputed live.
        logger.info(
            "%s: recognized_rate is NaN: all %d probed ideas name their own paper in the text "
            "the judge reads (identity_leak, e.g. text_source method_and_title), so the probe "
            "is moot; build extracted idea texts to measure recognition",
            TASK,
            int(values["leaked_items"]),
        )
    return {key: values.get(key, NAN) for key in RECALL_KEYS}


@metric
def recall_controls() -> Metric:
    """The headline on post-cutoff pairs and on unrecognised pairs, and the recognition rate."""

    def compute(scores: list[SampleScore]) -> Value:
        try:
            return recall_summary(scores)
        except Exception:  # a metric must never fail the log; the NaNs say it could not
            logger.exception("%s metric recall_controls failed", TASK)
            return dict.fromkeys(RECALL_KEYS, NAN)

    return compute
