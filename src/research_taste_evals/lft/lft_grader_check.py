"""``lft_grader_check``: does the LFT grader panel recover the known level of a solution?

Reference solutions written to meet exactly level k of a rubric (and gap / adversarial ones:
a missing step in an otherwise complete answer, a generic vector where the rubric wants a
specific one, confident but wrong, rubric-keyword stuffing, correct but in other words; see
:mod:`research_taste_evals.lft.references`) are graded by the same panel as ``lft``. The
evaluated model is the grader under test (or the ``grader`` role). The self-grading rule of
``lft`` does not apply: no model wrote these solutions, so there is no self-preference.
Reported per reference kind: how often the panel median equals k (exact), is within one level,
the mean absolute and signed error (positive = lenient), the share of over-scored references,
and how often a single grader call equals k. The roles: the references and their samples in
``references.py``, :func:`~research_taste_evals.lft.solvers.reference_answer`, the scorer
:func:`~research_taste_evals.lft.check_scorer.grader_check_scorer` and the metrics
``grader_recovery``/``grader_error`` in ``metrics.py``.
"""

from __future__ import annotations

from functools import partial

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.roles import roles_ready
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.lft.check_scorer import grader_check_scorer
from research_taste_evals.lft.dataset import parse_task_ids
from research_taste_evals.lft.grader import LFT_GRADER_REPEATS, require_reachable_quorum
from research_taste_evals.lft.references import (
    GraderCheckSettings,
    grader_check_dataset,
    grader_check_metadata,
    load_references,
    select_references,
)
from research_taste_evals.lft.rubric import load_rubrics
from research_taste_evals.lft.solvers import reference_answer
from research_taste_evals.lft.specs import LFT_GRADER_CHECK

__all__ = ["lft_grader_check"]


@task
@task_entry({"grader_repeats": (1, None), "quorum": (1, None)})
def lft_grader_check(
    references_dir: str | None = None,
    rubric_dir: str | None = None,
    task_ids: str | list[str] | None = None,
    grader_repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    grader_cache: bool = False,
) -> Task:
    """LFT grader check: how often the grader panel recovers the known level of a reference.

    The evaluated model grades (or the ``grader`` role: one model or a list). Parameters:
    ``lft/README.md``; ``quorum``'s upper bound (the panel size) is checked by the first
    solver step, before any grader call (roles are bound only while the task runs).

    Args:
        references_dir (str | None): A folder of reference protocols with their known
            grades; None: the shipped references. Defaults to ``None``.
        rubric_dir (str | None): A folder of rubric YAML files (or one file). Defaults to
            ``None``.
        task_ids (str | list[str] | None): Task ids to run (list, or ``a,b``). Defaults to
            ``None``.
        grader_repeats (int): Calls per grader model; AISI: 10, median reported. Defaults to
            ``10``.
        quorum (int | None): Valid grades a sample needs; below it the sample is unscored
            (``grader_failed``), never 0; above the panel's grades (grader models x
            ``grader_repeats``) the run stops before any call. Defaults to ``None``.
        partial_credit (bool): Also grade the flattened checklist. Defaults to ``True``.
        grader_cache (bool): Cache grader calls (each panel member has its own cache scope).
            Defaults to ``False``.
    """
    settings = GraderCheckSettings(
        references_dir=references_dir,
        grader_repeats=grader_repeats,
        quorum=quorum,
        partial_credit=partial_credit,
    )
    rubrics = load_rubrics(rubric_dir)
    references = select_references(
        load_references(references_dir, rubrics), parse_task_ids(task_ids)
    )
    return Task(
        dataset=grader_check_dataset(references, rubrics),
        solver=[
            roles_ready(checks=[partial(require_reachable_quorum, quorum, grader_repeats)]),
            reference_answer(),
        ],
        scorer=[
            grader_check_scorer(grader_repeats, quorum, partial_credit, grader_cache),
        ],
        headline_metric=HeadlineMetric(metric=LFT_GRADER_CHECK.headline),
        version=task_version(__file__, "lft_grader_check"),
        metadata=grader_check_metadata(settings, references, rubrics),
    )
