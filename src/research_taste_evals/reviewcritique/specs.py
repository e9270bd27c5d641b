"""The declaration of ``review_critique`` (``core/spec.py``): undated, so no recall twins."""

from __future__ import annotations

from research_taste_evals.core.spec import TaskSpec

# Why this task has no post-cutoff twin (logged once at build, in the task's metadata).
REVIEWCRITIQUE_UNDATED = (
    "ReviewCritique's records carry a title, decision, paper text and reviews, but no date or venue"
)

REVIEW_CRITIQUE = TaskSpec(
    task="review_critique",
    # The paper's comparable figures are the Either-No and Select-Deficient F1s.
    first_group=(
        "labeling_all_f1",
        "labeling_all_f1_ci_low",
        "labeling_all_f1_ci_high",
        "labeling_all_precision",
        "labeling_all_recall",
        "select_deficient_f1",
        "select_deficient_f1_ci_low",
        "select_deficient_f1_ci_high",
        "select_deficient_precision",
        "select_deficient_recall",
        "both_no_f1",
        "both_no_precision",
        "both_no_recall",
        "either_no_f1",
        "either_no_precision",
        "either_no_recall",
        # The paper's explanation figures (ROUGE-L, BERTScore) of the two direct strategies.
        "labeling_all_explanation_rougeL",
        "labeling_all_explanation_bertscore",
        "select_deficient_explanation_rougeL",
        "select_deficient_explanation_bertscore",
        "unparsed_rate",
        "reasked_rate",
        "labeling_all_unparsed_rate",
        "select_deficient_unparsed_rate",
        "labeling_all_unscored_segments",
        "select_deficient_unscored_segments",
        "both_no_unscored_segments",
        "either_no_unscored_segments",
        "parsed_only_segments",
    ),
    columns=("select_deficient_f1", "both_no_f1", "either_no_f1"),
    undated_reason=REVIEWCRITIQUE_UNDATED,
)

SPECS = (REVIEW_CRITIQUE,)
