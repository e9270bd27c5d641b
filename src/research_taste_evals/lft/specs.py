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
    # Per-task breakdowns and nudges are in the report (every figure), not the first group.
    first_group=(
        "end_to_end",
        "end_to_end_stderr",
        "end_to_end_pct",
        "feasible_share",
        "partial_credit",
        "grader_alpha",
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
        *_FAILURES,
        *_ANSWER_SHAPE,
    ),
    columns=("within_one", "abs_error", "bias"),
    data_arg="references_dir",
    roles=(grader_spec(True),),
    undated_reason="a check of the grader on the benchmark's reference answers",
)

SPECS = (LFT, LFT_GRADER_CHECK)
