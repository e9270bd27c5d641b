"""TastyBench's recall controls: the cutoff and probe steps, and the twins of ``bt_spearman``.

A judge that remembers which papers became famous can rank them without judging the ideas.
Two controls, both from the same answers as the headline (README, "Recall and contamination"):

- post-cutoff: a paper is post-cutoff when published after the evaluated model's knowledge
  cutoff (``core/cutoff.py``, ``core/dates.py``). ``bt_spearman_post_cutoff`` fits
  Bradley-Terry on the comparisons between two post-cutoff papers only (a comparison with a
  known paper leaks through the fit) and correlates over the post-cutoff papers those
  comparisons connect (``post_cutoff_papers``);
- recognition: the recognition probe (``core/recognition.py``) asks the judge model to name
  each paper from exactly the text it judges; ``recognized_rate`` is over papers whose text
  does not name them; ``bt_spearman_unrecognized`` is the same fit on the comparisons between
  two papers the model did not recognise (``unrecognized_papers``).

Each twin is NaN, with the reason logged, when fewer than three papers are connected; both the
post-cutoff figures are NaN when no cutoff is known. The fit and the CI are the headline's own
(``ratings.collect``, ``pairwise.bradley_terry``, ``core.stats.rank_correlation_with_ci``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from inspect_ai.scorer import SampleScore
from inspect_ai.solver import Solver, TaskState

from research_taste_evals.core.cutoff import CutoffReader, parse_cutoff_arg, record_cutoff
from research_taste_evals.core.dates import parse_item_date
from research_taste_evals.core.leaks import title_names
from research_taste_evals.core.recall_metrics import (
    cutoff_known,
    post_cutoff_scores,
    recall_score_metadata,
    recognition_values,
    unrecognized_items,
    unrecognized_scores,
)
from research_taste_evals.core.recognition import RecallItem, RecallProbe, recall_probe
from research_taste_evals.core.stats import MIN_CORRELATION_POINTS, NAN, rank_correlation_with_ci
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.pairwise import bradley_terry
from research_taste_evals.tastybench.ratings import collect

logger = logging.getLogger(__name__)

TASK = "tastybench"
RECALL_KEYS = [
    f"bt_spearman_{subset}{suffix}"
    for subset in ("post_cutoff", "unrecognized")
    for suffix in ("", "_ci_low", "_ci_high")
] + [
    "post_cutoff_papers",
    "post_cutoff_comparisons",
    "unrecognized_papers",
    "unrecognized_comparisons",
    "recognized_rate",
    "recognized_items",
    "probed_items",
    "leaked_items",
]


def recall_item(paper: Paper) -> RecallItem:
    """The paper as the probe sees it: exactly the judge's text, its title and method names."""
    return RecallItem(
        item_id=paper.paper_id,
        text=paper.text,
        title=paper.title,
        method_names=title_names(paper.title)[1:],
    )


def recall_steps(papers: Sequence[Paper], knowledge_cutoff: object, probe: bool) -> list[Solver]:
    """The solver steps before the judge: record the cutoff, then (if on) probe both papers.

    Raises:
        ConfigError: ``knowledge_cutoff`` (the ``-T`` argument) is not a ``YYYY-MM-DD`` date.
    """
    cutoff = parse_cutoff_arg(knowledge_cutoff, TASK)
    steps = [record_cutoff(CutoffReader(TASK, cutoff))]
    if probe:
        items = {paper.paper_id: recall_item(paper) for paper in papers}

        def items_of(state: TaskState) -> list[RecallItem]:
            return [items[state.metadata["paper_1"]], items[state.metadata["paper_2"]]]

        steps.append(recall_probe(RecallProbe(), items_of))
    return steps


def sample_recall_metadata(state: TaskState) -> dict[str, Any]:
    """The scorer's recall fields: cutoff, source, entry, ``post_cutoff`` (both papers), probe."""
    dates = [parse_item_date(state.metadata.get(f"pub_date_{i}")) for i in (1, 2)]
    return recall_score_metadata(state, dates)


def subset_bt_spearman(
    scores: list[SampleScore], label: str, resamples: int, seed: int
) -> dict[str, float]:
    """Bradley-Terry on these comparisons alone, Spearman over the papers they connect.

    Returns ``bt_spearman_<label>`` with its CI, ``<label>_papers`` and ``<label>_comparisons``.
    """
    run = collect(scores)
    connected = list(dict.fromkeys(paper for decision in run.decisions for paper in decision[:2]))
    counts = {
        f"{label}_papers": float(len(connected)),
        f"{label}_comparisons": float(len(run.decisions)),
    }
    empty = {f"bt_spearman_{label}{s}": NAN for s in ("", "_ci_low", "_ci_high")}
    if len(connected) < MIN_CORRELATION_POINTS:
        logger.info(
            "%s: bt_spearman_%s is NaN: its comparisons connect %d papers (at least %d needed)",
            TASK,
            label,
            len(connected),
            MIN_CORRELATION_POINTS,
        )
        return empty | counts
    ratings = bradley_terry(run.comparisons, paper_ids=connected)
    truth = {paper: run.truth[paper] for paper in connected}
    corr = rank_correlation_with_ci(ratings, truth, "spearman", seed=seed, resamples=resamples)
    return {
        f"bt_spearman_{label}": corr["rho"],
        f"bt_spearman_{label}_ci_low": corr["ci_low"],
        f"bt_spearman_{label}_ci_high": corr["ci_high"],
    } | counts


def recall_summary(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Every figure of ``RECALL_KEYS`` (module docstring)."""
    result: dict[str, float] = dict.fromkeys(RECALL_KEYS, NAN)
    if cutoff_known(scores):
        subset = post_cutoff_scores(scores)
        result |= subset_bt_spearman(subset, "post_cutoff", resamples, seed)
    recognition = recognition_values(scores)
    result |= recognition
    if unrecognized_items(scores) is not None:
        if recognition["probed_items"] == 0:
            logger.info("%s: recognized_rate is NaN: every paper's text names it", TASK)
        subset = unrecognized_scores(scores)
        result |= subset_bt_spearman(subset, "unrecognized", resamples, seed)
    return result
