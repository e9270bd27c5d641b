"""AISI Long-Form Tasks: rubric-graded step-by-step protocols, graded by a median-of-10 panel.

Pencharz, Flesch and Sandbrink (AISI, 2024), "Long-Form Tasks: A Methodology for Evaluating
Scientific Assistants" (sections "Introducing Long-Form Tasks", "Scoring" and "A Case Study").
One Inspect task runs any number of rubric files, each ``runs`` times; follow-up scheme and
information access are parameters (described in ``lft/README.md``, "Parameters").
"""

from __future__ import annotations

from inspect_ai import Epochs, Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.access import Access
from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.lft.dataset import (
    DEFAULT_RUNS,
    FollowUp,
    LftSettings,
    check_access,
    lft_dataset,
    lft_metadata,
    load_lft_rubrics,
    web_provider_names,
)
from research_taste_evals.lft.grader import (
    DEFAULT_MEDIAN_RULE,
    LFT_GRADER_REPEATS,
    MedianRule,
)
from research_taste_evals.lft.nudges import DEFAULT_MAX_NUDGES
from research_taste_evals.lft.panel_agreement import lft_epochs_reducer
from research_taste_evals.lft.scorer import lft_scorer
from research_taste_evals.lft.solvers import DEFAULT_FOLLOWUP_ROUNDS, lft_solver
from research_taste_evals.lft.specs import LFT

BOUNDS = {
    "grader_repeats": (1, None),
    "quorum": (1, None),
    "runs": (1, None),
}


@task
@task_entry(BOUNDS)
def lft(
    rubric_dir: str | None = None,
    task_ids: str | list[str] | None = None,
    followup: FollowUp = "none",
    followup_rounds: int = DEFAULT_FOLLOWUP_ROUNDS,
    access: Access = "base",
    max_nudges: int = DEFAULT_MAX_NUDGES,
    grader_repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    grader_cache: bool = False,
    web_providers: str | list[str] | None = None,
    runs: int = DEFAULT_RUNS,
    allow_self_grading: bool = False,
    median: MedianRule = DEFAULT_MEDIAN_RULE,
) -> Task:
    """Long-Form Tasks: write a step-by-step protocol; a grader panel scores it on a rubric.

    Roles: ``grader`` (a model or a panel; required unless ``allow_self_grading``), ``critic``.

    Args:
        rubric_dir (str | None): A folder of rubric YAML files (or one file). Defaults to
            ``None``.
        task_ids (str | list[str] | None): Task ids to run (list, or ``a,b``). Defaults to
            ``None``.
        followup (Literal['none', 'static', 'critique', 'nudge']): ``none``, ``static``,
            ``critique``, ``nudge``. Defaults to ``'none'``.
        followup_rounds (int): Revision rounds for ``static`` / ``critique``. Defaults to
            ``1``.
        access (Literal['base', 'web', 'context']): ``base`` (no tools), ``web`` (web_search
            + block list), ``context`` (documents in the system message). Defaults to
            ``'base'``.
        max_nudges (int): Cap on nudges (``followup="nudge"``). Defaults to ``10``.
        grader_repeats (int): Calls per grader model; AISI: 10, median reported. Defaults to
            ``10``.
        quorum (int | None): Valid grades a sample needs; below it the sample is unscored
            (``grader_failed``), never 0; above the panel's grades (grader models x
            ``grader_repeats``) the run stops before any call. Defaults to ``None``.
        partial_credit (bool): Also grade the flattened checklist. Defaults to ``True``.
        grader_cache (bool): Cache grader calls (each panel member has its own cache scope).
            Defaults to ``False``.
        web_providers (str | list[str] | None): Search providers for ``web``; each must be
            able to exclude domains. Defaults to ``None``.
        runs (int): Independent runs per task, each its own sample (``<task_id>/run-<k>``)
            and grader cache scope; AISI: 10. Defaults to ``1``.
        allow_self_grading (bool): With no ``grader`` role, let the evaluated model grade
            itself. Defaults to ``False``.
        median (Literal['midpoint', 'lower']): Even panels: ``midpoint`` (4 and 5 give 4.5,
            which is NOT feasible) or ``lower`` (the report's integer 0-10 scale). Defaults
            to ``'midpoint'``.
    """
    settings = LftSettings(
        followup=followup,
        followup_rounds=followup_rounds,
        access=access,
        max_nudges=max_nudges,
        grader_repeats=grader_repeats,
        quorum=quorum,
        partial_credit=partial_credit,
        grader_cache=grader_cache,
        runs=runs,
        allow_self_grading=allow_self_grading,
        median=median,
    )
    providers = web_provider_names(web_providers)
    rubrics, source = load_lft_rubrics(rubric_dir, task_ids)
    check_access(access, rubrics, providers)
    return Task(
        dataset=lft_dataset(rubrics, runs),
        solver=lft_solver(settings, providers),
        scorer=[
            lft_scorer(
                grader_repeats,
                quorum,
                partial_credit,
                None,
                grader_cache,
                allow_self_grading,
                median,
            ),
        ],
        headline_metric=HeadlineMetric(metric=LFT.headline),
        # Counts are summed and every epoch's panel kept (see lft_epochs_reducer), so
        # ``--epochs`` cannot hide an unscored panel or drop grades from the agreement.
        epochs=Epochs(1, lft_epochs_reducer()),
        version=task_version(__file__, "lft"),
        metadata=lft_metadata(settings, rubrics, source, providers),
    )
