"""The declaration of ``scijudge`` (``core/spec.py``).

Recall control (``recall.py``): a row shows two papers, each dated by its arXiv date; the probe
shows the model one abstract at a time, and a pair counts in a twin only when both papers do.
"""

from __future__ import annotations

from research_taste_evals.core.spec import RECOGNITION_FIGURES, Controlled, TaskSpec
from research_taste_evals.scijudge.recall import pair_papers

SCIJUDGE = TaskSpec(
    task="scijudge",
    # accuracy is the paper's metric (both orders right); on today's main split it is
    # comparable with the later paper version's 1,000-pair table, not with v1's 728-pair one.
    first_group=(
        "accuracy",
        "accuracy_ci_low",
        "accuracy_ci_high",
        "pairs",
        "incomplete_pairs",
        "accuracy_single_order",
        "answers",
        "accuracy_order/given",
        "accuracy_order/swapped",
        "position_a_share",
        "accuracy_variation_spread",
        "accuracy_clean",
        "clean_pairs",
        "clean_items",
        "accuracy_post_cutoff",
        "post_cutoff_pairs",
        *RECOGNITION_FIGURES,
        "unparsed_rate",
        "reasked_rate",
    ),
    columns=("accuracy_clean", "accuracy_single_order", "position_a_share"),
    controlled=Controlled(floor=100, n="clean_pairs"),
    items=pair_papers,
    probes=True,
    post_cutoff_count="post_cutoff_pairs",
    unrecognized_count="unrecognized_pairs",
    clean_count="clean_pairs",
)

SPECS = (SCIJUDGE,)
