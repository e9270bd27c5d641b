"""The declarations of EqInfer, ExpDesign and PaperWeakness (``core/spec.py``), one per task.

Recall control: ExpDesign's papers are dated by their arXiv id's month, PaperWeakness's by the
venue year; neither probes recognition (the texts are whole papers), so clean = after the
stated cutoff (``recall.py``). EqInfer's items are equations without their paper: undated.
"""

from __future__ import annotations

from research_taste_evals.aaar.recall import EQINFER_UNDATED, shown_paper
from research_taste_evals.aaar.scorer.expdesign_judge import judge_spec
from research_taste_evals.core.spec import RECOGNITION_FIGURES, Controlled, RoundSupport, TaskSpec

EQINFER = TaskSpec(
    task="eqinfer",
    # One group per variant: each reports at most eleven figures, so there is no second.
    first_group={
        "binary": (
            "decision_f1",
            "decision_precision",
            "decision_recall",
            "decision_accuracy",
            "unparsed_rate",
            "reasked_rate",
            "faithful_f1",
            "faithful_precision",
            "faithful_recall",
            "faithful_accuracy",
            "faithful_forced_rate",
        ),
        "multiple_choice": (
            "choice_accuracy",
            "choice_unparsed_rate",
            "faithful_choice_accuracy",
            "unparsed_rate",
            "reasked_rate",
        ),
    },
    configuration="variant",
    # Strict reading first (the headline); the release code's reading (faithful_*) beside it:
    # the paper's numbers are in the faithful reading (the two agree on bare 0/1 answers).
    columns=(
        "decision_precision",
        "decision_recall",
        "faithful_f1",
        "faithful_precision",
        "faithful_recall",
    ),
    undated_reason=EQINFER_UNDATED,
)

EXPDESIGN = TaskSpec(
    task="expdesign",
    first_group=(
        "en_f1",
        "en_f1_clean",
        "clean_items",
        "en_f1_post_cutoff",
        "post_cutoff_samples",
        *RECOGNITION_FIGURES,
        "en_precision",
        "en_recall",
        "faithful_en_f1",
        "faithful_en_precision",
        "faithful_en_recall",
        "s_match_mean",  # the paper's Table 4 figures
        "rouge_l",
        "rouge_1",
        "judge_failure_rate",
        "judge_unparsed_rate",
        "judge_error_rate",
        "explanation_failure_rate",
        "empty_prediction_rate",
        "unparsed_rate",
        "reasked_rate",
    ),
    # Strict en_* (failed judge calls left out) first; faithful_en_* (no 0/1 scored 0) beside.
    columns=(
        "en_precision",
        "en_recall",
        "faithful_en_f1",
        "faithful_en_precision",
        "faithful_en_recall",
        "s_match_mean",
        "rouge_l",
    ),
    controlled=Controlled(floor=10),
    roles=(judge_spec(None),),
    items=shown_paper,
)

PAPER_WEAKNESS = TaskSpec(
    task="paper_weakness",
    first_group=(
        "s_f1",
        "s_f1_clean",
        "clean_items",
        "s_f1_post_cutoff",
        "post_cutoff_samples",
        *RECOGNITION_FIGURES,
        "s_precision",  # the paper's Table 5 figures
        "s_recall",
        "itf_idf_score",
        "itf_idf_papers",
        "empty_prediction_rate",
        "unparsed_rate",
        "reasked_rate",
    ),
    columns=("s_precision", "s_recall", "itf_idf_score"),
    controlled=Controlled(floor=10),
    items=shown_paper,
)

# PaperWeakness on a round (paper_weakness_round.py): pending until `research-taste round score`
# scores it against a labels version's reviewers; logs of `paper_weakness -T data_path=<round>`
# (before this task existed) are scored and reported the same way.
PAPER_WEAKNESS_ROUND = TaskSpec(
    task="paper_weakness_round",
    first_group=(
        "s_f1",
        "s_precision",
        "s_recall",
        "pending_items",
        "prospective_share",
        "itf_idf_score",
        "itf_idf_papers",
    ),
    data_arg="round",
    undated_reason="a round is judged before its reviews exist: every answer is prospective",
    rounds=RoundSupport(
        scorer="research_taste_evals.aaar.scorer.weakness_round:round_weakness_scorer",
        registered_scorer="research_taste_evals/round_weakness_scorer",
        caption="PaperWeakness on rounds: S-F1 against the reviewers' weaknesses",
        columns=(
            ("prospective share", "prospective_share"),
            ("pending papers", "pending_items"),
            ("s_f1", "s_f1"),
            ("s_precision", "s_precision"),
            ("s_recall", "s_recall"),
            ("itf_idf", "itf_idf_score"),  # label-free: the judgment's own
        ),
        judged_by=("paper_weakness",),
        requires="weakness_sha256",  # opened with PDFs: the papers' texts are frozen
        hint=" -T embedding_model=<embedding model> -T itf_idf_model=<embedding model>",
    ),
)

SPECS = (EQINFER, EXPDESIGN, PAPER_WEAKNESS, PAPER_WEAKNESS_ROUND)
