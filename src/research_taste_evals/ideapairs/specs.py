"""The declaration of ``idea_pairs`` (``core/spec.py``).

Recall control (``recall.py``): a pair shows two ideas, each dated by its paper; the probe shows
the model one idea's text at a time, and a pair counts in a twin only when both its ideas do.
"""

from __future__ import annotations

from research_taste_evals.core.spec import RECOGNITION_FIGURES, Controlled, TaskSpec
from research_taste_evals.ideapairs.recall import pair_ideas

_PAIRS_FIRST = (
    "accuracy",
    "accuracy/ci_low",
    "accuracy/ci_high",
    "pairs",
    "accuracy_clean",
    "clean_items",
    *RECOGNITION_FIGURES,
    "consistency",
    "brier",
    "ece",
    "single_order_accuracy",
)
# The paper's accuracy by score-gap tier (Table 3) and its length and recency biases (section 5).
_TIERS = ("accuracy/1sigma", "accuracy/2sigma", "accuracy/3sigma")
_BIASES = tuple(
    f"{bias}_bias/{part}"
    for bias in ("length", "recency")
    for part in ("delta", "ci_low", "ci_high", "p_value")
)
_FAILURES = ("unparsed_rate", "reasked_rate", "calibration/pairs_without_probability")

IDEA_PAIRS = TaskSpec(
    task="idea_pairs",
    # accuracy is consistency-aware (right in both orders; chance 25%). Per mode: appendix
    # B.10's Top-1 and median rank RMSE are the paper's figures of the ranking mode.
    first_group={
        "pairs": (*_PAIRS_FIRST, *_TIERS, *_BIASES, *_FAILURES),
        "ranking": (
            *_PAIRS_FIRST,
            "top1_accuracy",
            "rank_rmse_median",
            "ranking/leaderboards",
            *_FAILURES,
        ),
    },
    configuration="mode",
    columns=("consistency", "brier", "ece"),
    controlled=Controlled(floor=100),
    data_arg="pairs_file",
    items=pair_ideas,
    probes=True,
    post_cutoff_count="post_cutoff_pairs",
    unrecognized_count="unrecognized_pairs",
)

SPECS = (IDEA_PAIRS,)
