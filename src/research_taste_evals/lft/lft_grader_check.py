"""``lft_grader_check``: does the LFT grader panel recover the known level of a solution?

Reference solutions written to meet exactly level k of a rubric (and gap / adversarial ones:
a missing step in an otherwise complete answer, a generic vector where the rubric wants a
specific one, confident but wrong, rubric-keyword stuffing, correct but in other words; see
:mod:`research_taste_evals.lft.references`) are graded by the same panel as ``lft``. The
evaluated model is the grader under test (or the ``grader`` role). The self-grading rule of
``lft`` does not apply: no model wrote these solutions, so there is no self-preference.
Reported per reference kind: how often the panel median equals k (exact), is within one level,
the mean absolute and signed error (positive = lenient), the share of over-scored references,
and how often a single grader call equals k.
"""

from __future__ import annotations

import math

from inspect_ai import Task, task
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.grading import check_quorum, resolve_graders
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.stats import NAN
from research_taste_evals.lft.dataset import parse_task_ids
from research_taste_evals.lft.grader import LFT_GRADER_REPEATS, grade_solution
from research_taste_evals.lft.metrics import (
    grouped_mean,
    lft_grader_failures,
    number,
)
from research_taste_evals.lft.references import (
    grader_check_dataset,
    load_references,
)
from research_taste_evals.lft.rubric import load_rubrics, rubric_from_metadata
from research_taste_evals.lft.scorer import panel_score

GRADER_CHECK_VERSION = "2-A"  # "N-X", see the README changelog
WITHIN = 1  # "within one level"
REFERENCE_MODEL = "reference"


@solver
def reference_answer() -> Solver:
    """Put the sample's reference solution in place of a model answer (no model call)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = str(state.metadata["reference_text"])
        state.messages.append(ChatMessageAssistant(content=text, model=REFERENCE_MODEL))
        state.output = ModelOutput.from_content(model=REFERENCE_MODEL, content=text)
        return state

    return solve


def _kind(sample_score: SampleScore) -> str:
    return str((sample_score.sample_metadata or {}).get("reference_kind", "unknown"))


def _by_kind(scores: list[SampleScore], name: str, key: str) -> dict[str, float]:
    return grouped_mean(scores, name, lambda v: number(v, key), group=_kind)


@metric
def grader_recovery() -> Metric:
    """Exact and within-one recovery of the known level, by reference kind."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **_by_kind(scores, "exact", "exact"),
            **_by_kind(scores, "within_one", "within_one"),
            **_by_kind(scores, "member_exact", "member_exact"),
        }

    return compute


@metric
def grader_error() -> Metric:
    """Mean absolute and signed level error (positive: lenient), over-scored share, by kind."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **_by_kind(scores, "abs_error", "abs_error"),
            **_by_kind(scores, "bias", "error"),
            **_by_kind(scores, "overscored", "overscored"),
            **_by_kind(scores, "partial_credit_abs_error", "partial_credit_abs_error"),
        }

    return compute


def check_value(
    panel_value: dict[str, float], levels: list[int], known: int, known_credit: float | None
) -> dict[str, float]:
    """Compare a panel's median with the known level (NaN fields when the panel is unscored)."""
    median = panel_value["end_to_end"]
    credit = panel_value["partial_credit"]
    scored = not math.isnan(median)
    error = median - known if scored else NAN
    return {
        "end_to_end": median,
        "known_level": float(known),
        "error": error,
        "abs_error": abs(error),
        "exact": float(median == known) if scored else NAN,
        "within_one": float(abs(error) <= WITHIN) if scored else NAN,
        "overscored": float(error > 0) if scored else NAN,
        "member_exact": sum(lv == known for lv in levels) / len(levels) if levels else NAN,
        "partial_credit_abs_error": (
            abs(credit - known_credit) if known_credit is not None and scored else NAN
        ),
        "valid_grades": panel_value["valid_grades"],
        "failed_grades": panel_value["failed_grades"],
        "unscored": panel_value.get("unscored", float(not scored)),
        "contradictions": panel_value.get("contradictions", NAN),
    }


@scorer(metrics=[grader_recovery(), grader_error(), lft_grader_failures()])
def grader_check_scorer(
    grader_repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    cache: bool = False,
) -> Scorer:
    """Grade the reference with the panel and compare its median level with the known level."""

    async def score(state: TaskState, target: Target) -> Score:
        rubric = rubric_from_metadata(state.metadata)
        models = resolve_graders(None)
        check_quorum(quorum, len(models) * grader_repeats)
        graded = await grade_solution(
            rubric, state.output.completion, models, grader_repeats, quorum, partial_credit, cache
        )
        panel = panel_score(graded, partial_credit)
        assert isinstance(panel.value, dict)
        known = int(state.metadata["known_level"])
        credit = state.metadata.get("known_partial_credit") if partial_credit else None
        panel.value = check_value(panel.value, graded.levels, known, credit)
        panel.explanation = f"Known level {known}. {panel.explanation}"
        return panel

    return score


@task
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

    The evaluated model grades (or the ``grader`` role: one model or a list).

    Args:
        references_dir: A folder of reference files (or one file); default the shipped ones.
        rubric_dir: The rubrics the references belong to; default the shipped ones.
        task_ids: Keep only references of these task ids (a list, or comma-separated).
        grader_repeats: Calls per grader model (AISI: 10, median reported).
        quorum: Valid grades a reference needs to be scored (default half the panel).
        partial_credit: Also grade and check partial credit (known for constructed references).
        grader_cache: Cache grader calls (each panel member has its own cache scope).
    """
    if grader_repeats < 1:
        raise ValueError(f"grader_repeats must be >= 1, got {grader_repeats}")
    if quorum is not None and quorum < 1:
        raise ValueError(f"quorum must be >= 1, got {quorum}")  # its upper bound: at score time
    rubrics = load_rubrics(rubric_dir)
    references = load_references(references_dir, rubrics)
    wanted = parse_task_ids(task_ids)
    if wanted is not None:
        known_ids = sorted({r.task_id for r in references})
        unknown = [t for t in wanted if t not in known_ids]
        if unknown:
            raise ValueError(f"no references for task id(s) {unknown}; known: {known_ids}")
        references = [r for r in references if r.task_id in wanted]
    return Task(
        dataset=grader_check_dataset(references, rubrics),
        solver=reference_answer(),
        scorer=grader_check_scorer(grader_repeats, quorum, partial_credit, grader_cache),
        version=GRADER_CHECK_VERSION,
        metadata={
            **provenance(
                source="package:grader_references" if references_dir is None else references_dir,
                prompt_variant="lft-ours",
                paper_faithful={"grader_repeats": grader_repeats == LFT_GRADER_REPEATS},
                rubric_hashes={r.task_id: r.content_hash() for r in rubrics},
            ),
            "benchmark": "AISI Long-Form Tasks: grader meta-evaluation",
            "task_ids": sorted({r.task_id for r in references}),
            "references": len(references),
            "grader_repeats": grader_repeats,
            "quorum": quorum,
            "partial_credit": partial_credit,
        },
    )
