"""Idea pairs' recall control: a pair shows two ideas, each dated by its paper.

A judge that has read the leaderboard can answer a pair from memory of which paper won. The
mechanism is ``core/recall_control.py``; ``specs.py`` declares the task (``IDEA_PAIRS``) with
the items of :func:`pair_ideas`; this module gives the headline's statistic
(consistency-aware accuracy with its seeded bootstrap CI):

- an idea is dated by its paper (``paper_date`` where the pairs file has it, else ``year``);
  the probe shows the model exactly one idea's text, as the judge sees it, once per idea per
  run; recognised = the answer names the paper's title or the method name's tokens;
- a pair counts in a twin only when BOTH its ideas do (one known paper is enough to answer
  from memory): ``accuracy_post_cutoff`` (both after the stated cutoff, ``post_cutoff_pairs``),
  ``accuracy_unrecognized`` (both probed and not recognised, ``unrecognized_pairs``) and
  ``accuracy_clean`` (both clean: after the run's clean cutoff and not recognised,
  ``clean_items`` = those pairs). ``method_and_title`` texts name their paper: never probed,
  never clean (``recognized_rate`` NaN, the log says why).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.dates import ItemDate, parse_item_date, require_item_date
from research_taste_evals.core.metrics import nan_on_error
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recall_metrics import recall_keys, recall_summary
from research_taste_evals.core.spec import TaskSpec
from research_taste_evals.ideapairs.metrics import accuracy_with_ci

# A method name's trailing citation ("CRF Tagger (Demo et al., 2018)") is not part of its name.
_CITATION = re.compile(r"\s*\([^()]*\b(?:et al\.?|\d{4})[^()]*\)\s*$")
HEADLINE = "accuracy"


def idea_date(paper_date: str | None, year: int, where: str) -> ItemDate:
    """An idea's paper date: ``paper_date`` when given (a bad one is a ``DataError``), else year."""
    if paper_date is None or not str(paper_date).strip():
        return ItemDate(year)
    return require_item_date(paper_date, where)


def method_names(method: str) -> tuple[str, ...]:
    """The method's names the probe and the leak check look for: as written and uncited."""
    bare = _CITATION.sub("", method).strip()
    return tuple(dict.fromkeys(name for name in (bare, method.strip()) if name))


def pair_ideas(metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The two ideas a pair shows, each exactly as the judge reads it, with its paper's date."""
    ideas: Mapping[str, Mapping[str, Any]] = metadata.get("ideas") or {}
    return [
        ShownItem(
            item_id=idea_id,
            date=parse_item_date(facts.get("date")),
            text=str(facts.get("text", "")),
            title=str(facts.get("paper_title", "")),
            method_names=method_names(str(facts.get("method", ""))),
            kind="idea",
        )
        for idea_id, facts in sorted(ideas.items())
    ]


def accuracy_statistic(scores: list[SampleScore]) -> dict[str, float]:
    """The headline's accuracy and CI on a subset of pairs (``n``: the pairs)."""
    values = accuracy_with_ci(scores)
    return {
        HEADLINE: values[HEADLINE],
        f"{HEADLINE}_ci_low": values["accuracy/ci_low"],
        f"{HEADLINE}_ci_high": values["accuracy/ci_high"],
        "n": float(len(scores)),
    }


@metric
def recall_controls(spec: TaskSpec) -> Metric:
    """The headline on clean, post-cutoff and unrecognised pairs, and the cutoff figures."""
    summary = recall_summary(spec, accuracy_statistic)
    keys = recall_keys(spec)

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(f"{spec.task} metric recall_controls", keys, lambda: summary(scores))

    return compute
