"""Idea-pair forecasting: which of two ideas scores higher on a benchmark?

Mule et al., "Teaching Language Models to Forecast Research Success Through Comparative Idea
Evaluation" (2026): given a benchmark's research goal and two idea descriptions (results, names
and dates removed), predict the better idea. Pairs come from leaderboards through the builder
(``research-taste ideapairs build``); each pair is judged in both orders.
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from research_taste_evals.core.answers import DEFAULT_REASK
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.ideapairs.dataset import SPLITS, SplitChoice, load_pairs, parse_tiers
from research_taste_evals.ideapairs.metrics import (
    PAPER_BOOTSTRAP_RESAMPLES,
    bias_report,
    calibration,
    consistency_accuracy,
    leaderboard_ranking,
    tier_accuracy,
)
from research_taste_evals.ideapairs.scorer import idea_pairs_scorer
from research_taste_evals.ideapairs.solvers import TOP_LOGPROBS, judge_both_orders

IDEA_PAIRS_VERSION = "2-A"
REASONING_EFFORTS = ("minimal", "low", "medium", "high")


@task
def idea_pairs(
    pairs_file: str | None = None,
    split: SplitChoice = "test",
    tiers: str | None = None,
    logprobs: bool = True,
    reask: int = DEFAULT_REASK,
    reasoning_effort: str | None = None,
    bootstrap_resamples: int = PAPER_BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Task:
    """Idea pairs: predict which of two ideas scores higher on a benchmark (both orders judged).

    Args:
        pairs_file: A pairs JSONL written by ``research-taste ideapairs build`` (schema
            ``ideapairs/1``).
        split: ``test`` (default), ``train`` or ``all``.
        tiers: Sigma tiers to keep, e.g. ``"1"`` or ``"1,2"`` (default: all three).
        logprobs: Request token logprobs for the calibration probability (else only the
            verbalised confidence is used).
        reask: Times an answer that breaks the answer contract is asked again afresh
            (default 1; 0 = one call per order). Counted in ``reasked_rate``.
        reasoning_effort: Passed to models that support it (``minimal``/``low``/``medium``/
            ``high``); ``--reasoning-effort`` on the command line works too.
        bootstrap_resamples: Resamples of the bias report (paper: 10,000).
        bootstrap_seed: Seed of the bias report's bootstrap.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    if reasoning_effort is not None and reasoning_effort not in REASONING_EFFORTS:
        raise ValueError(
            f"reasoning_effort must be one of {REASONING_EFFORTS}, got {reasoning_effort!r}"
        )
    if bootstrap_resamples < 1:
        raise ValueError(f"bootstrap_resamples must be >= 1, got {bootstrap_resamples}")
    if reask < 0:
        raise ValueError(f"reask must be >= 0, got {reask}")
    selected = parse_tiers(tiers)
    loaded = load_pairs(pairs_file, split, selected)
    return Task(
        dataset=loaded.dataset,
        solver=judge_both_orders(logprobs=logprobs, reask=reask),
        scorer=idea_pairs_scorer(),
        metrics=[
            consistency_accuracy(),
            tier_accuracy(),
            leaderboard_ranking(),
            calibration(),
            bias_report(resamples=bootstrap_resamples, seed=bootstrap_seed),
        ],
        config=GenerateConfig(reasoning_effort=reasoning_effort),  # type: ignore[arg-type]
        version=IDEA_PAIRS_VERSION,
        metadata={
            "benchmark": "Idea pairs (Mule et al. 2026)",
            **provenance(
                source=f"local:{loaded.metadata['pairs_file']}",
                sha256=loaded.metadata["pairs_file_sha256"],
                prompt_variant="restated",
                # No pair data or prompt text was released (appendix C's prompts are images):
                # the pairs come from our builder and the prompt restates sections 2 and 5.2.
                paper_faithful={"data": False, "prompt": False, "metric": True},
            ),
            **loaded.metadata,
            "logprobs_requested": logprobs,
            "reask": reask,
            "top_logprobs": TOP_LOGPROBS if logprobs else None,
            "reasoning_effort": reasoning_effort,
            "bootstrap_resamples": bootstrap_resamples,
            "bootstrap_seed": bootstrap_seed,
            "chance_accuracy": 0.25,
        },
    )
