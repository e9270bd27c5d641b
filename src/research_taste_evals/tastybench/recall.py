"""TastyBench's recall items and the Bradley-Terry statistic its twins use.

A judge that remembers which papers became famous can rank them without judging the ideas.
The mechanism is ``core/recall_control.py``; ``specs.py`` declares the task once
(``TASTYBENCH``), with the items of :func:`shown_papers` (a comparison shows ``paper_1`` and
``paper_2``, dated by ``pub_date_1``/``pub_date_2``; the probe reads exactly the judge's text,
:func:`recall_catalogue`). This module gives the headline's statistic
on a subset of comparisons (:func:`subset_bt_spearman`): Bradley-Terry fitted on those
comparisons alone (a comparison with a known paper would leak through the fit), Spearman
against velocity over the papers they connect, with the headline's seeded bootstrap CI.

So ``bt_spearman_clean`` fits the comparisons between two clean papers (after the run's clean
cutoff, probed and not recognised) and correlates over the clean papers they connect
(``clean_items``); ``bt_spearman_post_cutoff`` and ``bt_spearman_unrecognized`` likewise
(``post_cutoff_papers``, ``unrecognized_papers``; ``*_comparisons`` count the fits' input).
Fewer than three connected papers: NaN, with the reason logged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai.scorer import SampleScore

from research_taste_evals.core.dates import parse_item_date
from research_taste_evals.core.leaks import title_names
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recognition import RecallItem
from research_taste_evals.core.resampling import rank_correlation_with_ci
from research_taste_evals.core.stats import MIN_CORRELATION_POINTS, NAN
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.matched import pairwise_accuracy_summary
from research_taste_evals.tastybench.pairwise import bradley_terry
from research_taste_evals.tastybench.ratings import collect

HEADLINE = "bt_spearman"


def shown_papers(metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The two papers a comparison shows, with their dates (texts: :func:`recall_item`)."""
    return [
        ShownItem(
            item_id=str(metadata[f"paper_{i}"]),
            date=parse_item_date(metadata.get(f"pub_date_{i}")),
            title=str(metadata.get(f"title_{i}", "")),
        )
        for i in (1, 2)
    ]


def pairwise_statistic(
    resamples: int, seed: int
) -> Callable[[list[SampleScore]], dict[str, float]]:
    """``pairwise_accuracy`` with its CI on a subset of a matched run (``n``: its pairs)."""

    def statistic(scores: list[SampleScore]) -> dict[str, float]:
        values = pairwise_accuracy_summary(scores, resamples, seed)
        return values | {"n": values["matched_pairs"]}

    return statistic


def recall_catalogue(papers: Sequence[Paper]) -> dict[str, RecallItem]:
    """Each paper as the probe sees it: exactly the judge's text, its title and method names."""
    return {
        paper.paper_id: RecallItem(
            item_id=paper.paper_id,
            text=paper.text,
            title=paper.title,
            method_names=title_names(paper.title)[1:],
        )
        for paper in papers
    }


def subset_bt_spearman(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Bradley-Terry on these comparisons alone, Spearman over the papers they connect.

    Returns ``bt_spearman`` with its CI, ``n`` (connected papers) and ``comparisons``.
    """
    run = collect(scores)
    connected = list(dict.fromkeys(paper for decision in run.decisions for paper in decision[:2]))
    counts = {"n": float(len(connected)), "comparisons": float(len(run.decisions))}
    if len(connected) < MIN_CORRELATION_POINTS:
        return {HEADLINE: NAN, f"{HEADLINE}_ci_low": NAN, f"{HEADLINE}_ci_high": NAN} | counts
    ratings = bradley_terry(run.comparisons, paper_ids=connected)
    truth = {paper: run.truth[paper] for paper in connected}
    corr = rank_correlation_with_ci(ratings, truth, "spearman", seed=seed, resamples=resamples)
    return {
        HEADLINE: corr["rho"],
        f"{HEADLINE}_ci_low": corr["ci_low"],
        f"{HEADLINE}_ci_high": corr["ci_high"],
    } | counts


def bt_statistic(resamples: int, seed: int) -> Callable[[list[SampleScore]], dict[str, float]]:
    """:func:`subset_bt_spearman` with the run's bootstrap settings (the twins' statistic)."""
    return lambda scores: subset_bt_spearman(scores, resamples, seed)
