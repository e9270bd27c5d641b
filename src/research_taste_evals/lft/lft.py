"""AISI Long-Form Tasks: rubric-graded step-by-step protocols, graded by a median-of-10 panel.

Pencharz, Flesch and Sandbrink (AISI, 2024), "Long-Form Tasks: A Methodology for Evaluating
Scientific Assistants" (sections "Introducing Long-Form Tasks", "Scoring" and "A Case Study").
One Inspect task runs any number of rubric files, each ``runs`` times; follow-up scheme and
information access are parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Epochs, Task, task
from inspect_ai.model import CachePolicy
from inspect_ai.model._model import (
    active_model,
)  # not exported; set while inspect eval builds tasks
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, system_message

from research_taste_evals.core.access import (
    ACCESS_MODES,
    DEFAULT_WEB_PROVIDERS,
    Access,
    Document,
    information_access,
    web_search_providers,
)
from research_taste_evals.core.provenance import provenance
from research_taste_evals.lft.dataset import (
    DEFAULT_RUNS,
    lft_dataset,
    load_lft_rubrics,
    split_names,
)
from research_taste_evals.lft.grader import (
    DEFAULT_MEDIAN_RULE,
    LFT_GRADER_REPEATS,
    MEDIAN_RULES,
    MedianRule,
    require_grader_role,
    require_reachable_quorum,
)
from research_taste_evals.lft.metrics import lft_epochs_reducer
from research_taste_evals.lft.prompts import LFT_SYSTEM
from research_taste_evals.lft.rubric import MAX_LEVEL, rubric_from_metadata
from research_taste_evals.lft.scorer import lft_scorer
from research_taste_evals.lft.solvers import (
    DEFAULT_FOLLOWUP_ROUNDS,
    DEFAULT_MAX_NUDGES,
    FOLLOWUP_MODES,
    FollowUp,
    followup_solver,
    next_level_requirements,
    panel_level_of,
)

# "N-X": N moves when numbers move (see the README changelog), X for compatible changes.
LFT_VERSION = "2-A"


def rubric_documents(state: TaskState) -> list[Document]:
    """The sample's context documents as plain text (``access="context"``)."""
    rubric = rubric_from_metadata(state.metadata)
    return [Document(title=d.title, text=d.content()) for d in rubric.context_documents]


def rubric_block_list(state: TaskState) -> list[str]:
    """The sample's web-search block list (``access="web"``)."""
    return list(rubric_from_metadata(state.metadata).web_block_list)


@solver
def grader_role_required(
    allow_self_grading: bool, quorum: int | None = None, grader_repeats: int = 1
) -> Solver:
    """First in the chain: stop each sample before any model call if nobody but it would grade.

    Covers a task built outside ``inspect eval`` (``eval(lft(), ...)``), whose roles are only
    known once it runs; ``inspect eval`` stops earlier, when the task is built.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        require_grader_role(allow_self_grading)
        require_reachable_quorum(quorum, grader_repeats)
        return state

    return solve


@task
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

    Model roles: ``grader`` (one model or a list: the panel; required unless
    ``allow_self_grading``) and ``critic`` (critique and nudge follow-ups; default the
    evaluated model, as in AISI's report).

    Args:
        rubric_dir: A folder of rubric YAML files (or one file); default the shipped tasks.
        task_ids: Task ids to run (a list, or comma-separated); default all in ``rubric_dir``.
        followup: ``none``, ``static`` (fixed revision requests), ``critique`` (the critic
            critiques, the model revises) or ``nudge`` (a critic that sees the rubric hints at
            the next level until the panel grades 10 or ``max_nudges`` are used).
        followup_rounds: Revision rounds for ``static`` and ``critique``.
        access: ``base`` (no tools), ``web`` (web_search with the rubric's block list) or
            ``context`` (the rubric's documents in the system message).
        max_nudges: The cap on nudges (``followup="nudge"``).
        grader_repeats: Calls per grader model (AISI: 10, median reported).
        quorum: Valid grades a sample needs to be scored (default half the panel).
        partial_credit: Also grade the flattened checklist (points met / available).
        grader_cache: Cache grader calls (each panel member has its own cache scope).
        web_providers: Search providers for ``access="web"`` (comma-separated or a list); each
            must be able to exclude the block list. Default: anthropic, grok, tavily.
        runs: Independent runs per task, each its own sample (AISI: 10 runs, mean +- SE).
        allow_self_grading: With no ``grader`` role, let the evaluated model grade itself
            (otherwise the task stops before any model call).
        median: The median of an even number of grades: ``midpoint`` (4 and 5 give 4.5, not
            feasible) or ``lower`` (the report's integer scale).
    """
    if followup not in FOLLOWUP_MODES:
        raise ValueError(f"followup must be one of {FOLLOWUP_MODES}, got {followup!r}")
    if access not in ACCESS_MODES:
        raise ValueError(f"access must be one of {ACCESS_MODES}, got {access!r}")
    if grader_repeats < 1:
        raise ValueError(f"grader_repeats must be >= 1, got {grader_repeats}")
    if median not in MEDIAN_RULES:
        raise ValueError(f"median must be one of {MEDIAN_RULES}, got {median!r}")
    if active_model() is not None:  # built by inspect eval: the roles are known now
        require_grader_role(allow_self_grading)
        require_reachable_quorum(quorum, grader_repeats)
    providers = _providers(web_providers)
    rubrics, source = load_lft_rubrics(rubric_dir, task_ids)
    if access == "context":
        bare = [r.task_id for r in rubrics if not r.context_documents]
        if bare:
            raise ValueError(f"access='context' but these tasks have no context_documents: {bare}")
    if access == "web":
        for rubric in rubrics:  # a provider that would ignore a block list fails now, not mid-run
            web_search_providers(rubric.web_block_list, providers)
    cache: bool | CachePolicy = grader_cache
    solver = [
        grader_role_required(allow_self_grading, quorum, grader_repeats),
        system_message(LFT_SYSTEM),
        information_access(access, rubric_documents, rubric_block_list, providers),
        generate(),
        *followup_solver(
            followup,
            followup_rounds,
            level_of=panel_level_of(grader_repeats, quorum, cache, median),
            requirements_of=next_level_requirements(),
            max_nudges=max_nudges,
            top_level=MAX_LEVEL,
        ),
    ]
    return Task(
        dataset=lft_dataset(rubrics, runs),
        solver=solver,
        scorer=lft_scorer(
            grader_repeats,
            quorum,
            partial_credit,
            cache=cache,
            allow_self_grading=allow_self_grading,
            median=median,
        ),
        # Counts are summed and every epoch's panel kept (see lft_epochs_reducer), so
        # ``--epochs`` cannot hide an unscored panel or drop grades from the agreement.
        epochs=Epochs(1, lft_epochs_reducer()),
        version=LFT_VERSION,
        metadata={
            **provenance(
                source=source,
                revision=None,
                prompt_variant="lft-ours",  # AISI did not publish its prompts (see prompts.py)
                paper_faithful={
                    "grader_repeats": grader_repeats == LFT_GRADER_REPEATS,
                    "independent_grader": not allow_self_grading,
                    "integer_median": median == "lower",
                },
                rubric_hashes={r.task_id: r.content_hash() for r in rubrics},
                allow_self_grading=allow_self_grading,
            ),
            "benchmark": "AISI Long-Form Tasks",
            "task_ids": [r.task_id for r in rubrics],
            "runs": runs,
            "followup": followup,
            "followup_rounds": followup_rounds if followup in ("static", "critique") else None,
            "max_nudges": max_nudges if followup == "nudge" else None,
            "access": access,
            "web_providers": list(providers) if access == "web" else None,
            "grader_repeats": grader_repeats,
            "quorum": quorum,
            "partial_credit": partial_credit,
            "median": median,
        },
    )


def _providers(web_providers: str | Sequence[str] | None) -> tuple[str, ...]:
    if web_providers is None:
        return DEFAULT_WEB_PROVIDERS
    return tuple(split_names(web_providers, "web_providers") or ())
