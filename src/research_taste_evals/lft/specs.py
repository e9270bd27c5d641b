"""The declarations of ``lft`` and ``lft_grader_check`` (``core/spec.py``).

Neither is dated: the research questions were written for the benchmark, and the grader check
judges the benchmark's own reference answers. The ``grader`` role is required by ``lft``
unless self-grading is allowed; the grader check's grader defaults to the evaluated model.
"""

from __future__ import annotations

from research_taste_evals.core.roles import EVALUATED_MODEL
from research_taste_evals.core.spec import RoleSpec, TaskSpec
from research_taste_evals.lft.grader import grader_spec
from research_taste_evals.lft.turns import CRITIC_ROLE

# Grader failures and answers the task could not read: every group ends with them.
_FAILURES = ("grader_failure_rate", "unscored", "grade_contradiction_rate")
_ANSWER_SHAPE = ("unparsed_rate", "reasked_rate")

LFT = TaskSpec(
    task="lft",
    first_group=(
        "end_to_end",
        "end_to_end_stderr",
        "end_to_end_pct",
        "feasible_share",
        "partial_credit",
        "feasible_share_stderr",
        "partial_credit_stderr",
        "grader_alpha",
        "grader_alpha_partial_credit",
        "nudges_to_top",
        "reached_top",
        "end_to_end/*",  # one per research task of the rubric folder (4 in the package's)
        "partial_credit/*",
        *_FAILURES,
        *_ANSWER_SHAPE,
    ),
    columns=("feasible_share", "partial_credit"),
    data_arg="rubric_dir",
    roles=(grader_spec(False), RoleSpec(CRITIC_ROLE, default=EVALUATED_MODEL)),
    undated_reason="research questions written for the benchmark, with no publication date",
)

LFT_GRADER_CHECK = TaskSpec(
    task="lft_grader_check",
    first_group=(
        "exact",
        "exact_stderr",
        "within_one",
        "abs_error",
        "bias",
        "member_exact",
        "within_one_stderr",
        "abs_error_stderr",
        "overscored",
        "partial_credit_abs_error",
        "exact/*",  # one per kind of reference answer (six in the package's references)
        *_FAILURES,
        *_ANSWER_SHAPE,
    ),
    columns=("within_one", "abs_error", "bias"),
    data_arg="references_dir",
    roles=(grader_spec(True),),
    undated_reason="a check of the grader on the benchmark's reference answers",
)

SPECS = (LFT, LFT_GRADER_CHECK)
