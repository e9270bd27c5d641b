"""The declarations of ``tastybench`` and ``tastybench_extract`` (``core/spec.py``).

Recall control (``schedule.py``: ``shown_papers``, ``recall_catalogue``; the twins' statistic
in ``ratings.py``): a comparison shows two papers, each dated by its publication date; the probe
asks once per paper and run whether the model recognises it. The extraction step judges
nothing, so it is undated.
"""

from __future__ import annotations

from dataclasses import replace

from research_taste_evals.core.roles import EVALUATED_MODEL
from research_taste_evals.core.spec import (
    RECOGNITION_FIGURES,
    Controlled,
    RoleSpec,
    RoundSupport,
    TaskSpec,
    Variant,
)
from research_taste_evals.tastybench.choice import EXTRACTOR_ROLE
from research_taste_evals.tastybench.schedule import shown_papers

_EXTRACTOR = RoleSpec(EXTRACTOR_ROLE, default=EVALUATED_MODEL)
_FAILURES = ("unclear_rate", "extractor_failure_rate", "unparsed_rate", "reasked_rate")

TASTYBENCH = TaskSpec(
    task="tastybench",
    first_group={
        "ratings": (  # schedule adjacent, all_pairs or file
            "bt_spearman",
            "bt_spearman_ci_low",
            "bt_spearman_ci_high",
            "papers_correlated",
            "bt_spearman_clean",
            "clean_items",
            "bt_spearman_post_cutoff",
            "post_cutoff_papers",
            *RECOGNITION_FIGURES,
            "elo_upstream_rank_pearson",  # upstream's statistic, the paper's comparable figure
            "elo_spearman",
            "elo_spearman_ci_low",
            "elo_spearman_ci_high",
            "bt_partial_spearman",
            "bt_split_half",
            "bt_spearman_brown",
            "order_consistency",
            "position_bias",
            "comparisons_used",
            "comparisons_total",
            *_FAILURES,
        ),
        "matched": (  # schedule matched
            "pairwise_accuracy",
            "pairwise_accuracy_ci_low",
            "pairwise_accuracy_ci_high",
            "matched_pairs",
            "pairwise_accuracy_consistent",
            "pairwise_accuracy_clean",
            "clean_pairs",
            "pairwise_accuracy_post_cutoff",
            "post_cutoff_pairs",
            *RECOGNITION_FIGURES,
            "order_consistency",
            "position_bias",
            "matched_unclear",
            "matched_incomplete_pairs",
            *_FAILURES,
        ),
    },
    configuration="schedule",
    columns=("elo_upstream_rank_pearson", "order_consistency", "position_bias"),
    # Reports show it beside bt_spearman and rank by it when every row has >= 10 clean papers.
    controlled=Controlled(floor=10),
    # schedule=matched has its own headline; reports rank such runs in a table of their own.
    variants=(
        Variant(
            when=(("schedule", "matched"),),
            configuration="matched",
            columns=("pairwise_accuracy_consistent", "order_consistency", "position_bias"),
            controlled=Controlled(floor=10, n="clean_pairs"),
        ),
    ),
    roles=(_EXTRACTOR,),
    items=shown_papers,
    probes=True,
    post_cutoff_count="post_cutoff_papers",
    unrecognized_count="unrecognized_papers",
    subset_counts=("comparisons",),
)

TASTYBENCH_EXTRACT = TaskSpec(
    task="tastybench_extract",
    first_group=("extraction_rate", "unparsed_rate", "withheld_rate", "reasked_rate"),
    roles=(_EXTRACTOR,),
    undated_reason="an extraction step: it writes texts and judges nothing",
)

# A round's frozen pairs (the task in tastybench.py, its scorer in scorer.py): judged before any
# label exists, scored later by `research-taste round score`; logs of `tastybench -T
# data_path=<round>` (before this task existed) are scored and reported the same way.
TASTYBENCH_ROUND = TaskSpec(
    task="tastybench_round",
    first_group=(
        "pairwise_accuracy",
        "pairwise_accuracy_ci_low",
        "pairwise_accuracy_ci_high",
        "pairs",
        "labelled_share",
        "prospective_share",
        "pending_items",
        "dropped_items",
        "tied_pairs",
        "unclear",
        "pairwise_accuracy_after_label",
        "pairs_after_label",
    ),
    data_arg="round",
    roles=(_EXTRACTOR,),
    undated_reason="a round is judged before its labels exist: every decision is prospective",
    rounds=RoundSupport(
        scorer="research_taste_evals.tastybench.scorer:round_pairwise_scorer",
        registered_scorer="research_taste_evals/round_pairwise_scorer",
        caption="TastyBench on rounds: pairwise accuracy on the frozen pairs",
        columns=(
            ("pairs", "pairs"),
            ("labelled share", "labelled_share"),  # of the paired items (core.rounds.ItemCounts)
            ("pending items", "pending_items"),
            ("prospective share", "prospective_share"),
            ("pairwise_accuracy [95% CI]", "pairwise_accuracy"),  # the headline: last
        ),
        judged_by=("tastybench",),
    ),
)

SPECS = (TASTYBENCH, TASTYBENCH_EXTRACT, TASTYBENCH_ROUND)


def first_group_key(schedule: str | None) -> str:
    """The figure list a ``schedule`` picks: ``matched``'s own, else ``ratings``."""
    return "matched" if schedule == "matched" else "ratings"


# schedule=matched's headline (``ratings.py``) gets the same twins, over matched pairs; it is
# not a task of its own, so SPECS does not list it.
MATCHED_TWINS = replace(
    TASTYBENCH,
    first_group=TASTYBENCH.first_names("matched"),
    configuration=None,
    variants=(),
    post_cutoff_count="post_cutoff_pairs",
    unrecognized_count="unrecognized_pairs",
    clean_count="clean_pairs",
    subset_counts=(),
)
