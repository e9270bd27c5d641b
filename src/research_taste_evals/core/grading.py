"""A grader panel: grader models x repeats, run concurrently, each member a typed grade or failure.

The one judge/grader mechanism of the package: every call that asks a model to grade, judge or
extract goes through :func:`run_panel` (or :func:`grade_member` for a single call), so provider
errors, refusals and unparseable answers are typed and counted the same way everywhere. A panel
may repeat each grader (a benchmark that reports the median of several gradings) and mix model
families (to avoid one family's bias). It is generic over what a grade is: a benchmark gives a
prompt and a ``parse`` function (model text -> typed grade, raising ``ValueError`` when the text
is not a grade) and gets back one :class:`MemberGrade` per member, each either a grade or a
typed failure (``unparseable``, ``refusal``, ``model_error`` for a prompt longer than the
grader's context) -- never a silent 0; a reply without choices is an empty completion, so
unparseable. A call that fails after Inspect's own retries raises once its siblings have ended
(so what finished is cached): the sample fails and ``--retry-on-error`` runs it again, never a
missing grade.

Members are every (grader model, repeat) pair. Each member has its own cache scope, so with
caching on (the run's ``--cache`` through ``core.cache_scope``, or the task's own grader cache),
ten identical calls are ten distinct generations (one cache entry each, reused on a re-run), not
one cached answer counted ten times.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelRefusalError,
)
from inspect_ai.util import span

from research_taste_evals.core.cache_scope import scoped_cache
from research_taste_evals.core.reasons import OVERFLOW_STOP_REASON
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.core.stats import NAN

GradeT = TypeVar("GradeT")

GRADER_ROLE = "grader"
# One call per grader unless the benchmark asks for more: a benchmark's repeat count is its own
# (a family constant it passes), not a core default.
SINGLE_CALL = 1
DEFAULT_QUORUM_SHARE = 0.5  # a panel result needs valid grades from at least half its members
CACHE_SCOPE_KEY = "panel_member"
REFUSAL_STOP_REASON = "content_filter"

FailureKind = Literal["unparseable", "refusal", "model_error"]
FAILURE_KINDS: tuple[FailureKind, ...] = ("unparseable", "refusal", "model_error")


@dataclass(frozen=True)
class MemberGrade(Generic[GradeT]):
    """One panel member's outcome: a parsed grade, or a typed failure with its detail."""

    index: int
    model: str
    repeat: int
    grade: GradeT | None
    failure: FailureKind | None = None
    detail: str = ""
    completion: str = ""

    @property
    def ok(self) -> bool:
        return self.failure is None


@dataclass(frozen=True)
class Spread:
    """Median and inter-quartile range of a panel's values (NaN when there are none)."""

    median: float
    q1: float
    q3: float
    n: int

    @property
    def iqr(self) -> float:
        return self.q3 - self.q1


def spread(values: Sequence[float]) -> Spread:
    """Median, first and third quartile (numpy's default linear interpolation) of ``values``."""
    import numpy as np

    finite = [float(v) for v in values if not math.isnan(float(v))]
    if not finite:
        return Spread(NAN, NAN, NAN, 0)
    q1, median, q3 = np.percentile(finite, [25, 50, 75])
    return Spread(float(median), float(q1), float(q3), len(finite))


@dataclass(frozen=True)
class PanelResult(Generic[GradeT]):
    """Every member's outcome and the quorum the panel needed."""

    members: tuple[MemberGrade[GradeT], ...]
    quorum: int

    @property
    def valid(self) -> list[GradeT]:
        """The parsed grades, in member order."""
        return [m.grade for m in self.members if m.ok and m.grade is not None]

    @property
    def failures(self) -> list[MemberGrade[GradeT]]:
        return [m for m in self.members if not m.ok]

    def failure_counts(self) -> dict[FailureKind, int]:
        """Failures per kind (every kind present, zeros included)."""
        return {kind: sum(m.failure == kind for m in self.members) for kind in FAILURE_KINDS}

    @property
    def has_quorum(self) -> bool:
        return len(self.valid) >= self.quorum


def default_quorum(size: int) -> int:
    """Valid grades needed by default: at least half the panel, and at least one."""
    return max(1, math.ceil(DEFAULT_QUORUM_SHARE * size))


def check_quorum(quorum: int | None, size: int) -> int:
    """The effective quorum for a panel of ``size`` members; raises on an impossible one."""
    if size < 1:
        raise ValueError(f"a grader panel needs at least one member, got {size}")
    if quorum is None:
        return default_quorum(size)
    if not 1 <= quorum <= size:
        raise ValueError(f"quorum must be in 1..{size} (the panel size), got {quorum}")
    return quorum


def resolve_graders(
    graders: str | Sequence[str] | None = None, role: str = GRADER_ROLE
) -> list[Model]:
    """The panel's grader models (:func:`research_taste_evals.core.roles.role_models`).

    Precedence: explicit ``graders`` > the ``role`` (which may be bound to a list of models,
    e.g. ``--model-role grader=openai/gpt-4o,google/gemini-2.0-flash``) > the evaluated model.
    Call inside ``solve()``/``score()`` (roles are bound per task).
    """
    if graders is not None and not isinstance(graders, str) and not list(graders):
        raise ValueError("graders must name at least one model")
    return role_models(RoleSpec(role, explicit=graders, default=EVALUATED_MODEL))


def member_cache(cache: bool | CachePolicy, index: int) -> bool | CachePolicy:
    """``cache`` with this member's own scope added (False stays False)."""
    if cache is False:
        return False
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, CACHE_SCOPE_KEY: str(index)}})


def _refusal_detail(output: ModelOutput) -> str | None:
    """Why ``output`` is a refusal, or None (a reply without choices is none: unparseable)."""
    if not output.choices:
        return None
    if output.stop_reason == REFUSAL_STOP_REASON:
        return output.error or "stop_reason content_filter"
    content = output.message.content
    if not isinstance(content, str) and any(getattr(c, "refusal", None) for c in content):
        return "refusal content"
    return None


async def grade_member(
    model: Model,
    index: int,
    repeat: int,
    input: str | list[ChatMessage],
    parse: Callable[[str], GradeT],
    cache: bool | CachePolicy = False,
    config: GenerateConfig | None = None,
) -> MemberGrade[GradeT]:
    """One member's call: generate with its own cache scope, then parse or classify the failure.

    ``cache``: the task's own grader cache; False follows the run's ``--cache``. A provider
    error after Inspect's retries raises (module docstring).
    No span of its own (a span is two more transcript events per call, the per-call cost of a
    panel): the model event names the model, and :func:`run_panel` spans the whole panel.
    """
    name = str(model)
    try:
        policy = member_cache(cache, index) if cache else scoped_cache(CACHE_SCOPE_KEY, str(index))
        output = await model.generate(input, config=config or GenerateConfig(), cache=policy)
    except ModelRefusalError as error:  # raised instead of returned under fail_on_refusal
        return MemberGrade(index, name, repeat, None, "refusal", str(error))
    text = output.completion
    refusal = _refusal_detail(output)
    if refusal is not None:
        return MemberGrade(index, name, repeat, None, "refusal", refusal, text)
    if output.choices and output.stop_reason == OVERFLOW_STOP_REASON and not text.strip():
        # The prompt did not fit the grader's context: a failed call, with its reason.
        detail = output.error or "stop_reason model_length (prompt longer than the context)"
        return MemberGrade(index, name, repeat, None, "model_error", detail, text)
    try:
        grade = parse(text)
    except ValueError as error:
        return MemberGrade(index, name, repeat, None, "unparseable", str(error), text)
    return MemberGrade(index, name, repeat, grade, None, "", text)


async def run_panel(
    input: str | list[ChatMessage],
    parse: Callable[[str], GradeT],
    graders: Sequence[Model],
    repeats: int = SINGLE_CALL,
    quorum: int | None = None,
    cache: bool | CachePolicy = False,
    config: GenerateConfig | None = None,
) -> PanelResult[GradeT]:
    """Grade ``input`` with every (grader, repeat) member concurrently.

    Args:
        input: The grading prompt (the same for every member).
        parse: Model text -> grade; raises ``ValueError`` (with a reason) when it is not one.
        graders: Grader models (see :func:`resolve_graders`); each runs ``repeats`` times.
        repeats: Calls per grader model.
        quorum: Valid grades needed for the panel to count (default: half the members).
        cache: ``True`` or a policy: cache each member's call under its own scope (False: as
            the run's ``--cache`` says).
        config: Generation config for the grader calls.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    size = len(graders) * repeats
    needed = check_quorum(quorum, size)
    members = [(model, r) for model in graders for r in range(repeats)]
    names = ", ".join(str(model) for model in graders)
    async with span(f"grader panel ({size} calls: {names} x {repeats})", type="grader"):
        # Every call ends before an error is raised (``return_exceptions``): a member answered
        # while another failed is cached, so the sample's retry does not pay for it again.
        outcomes = await asyncio.gather(
            *(
                grade_member(model, index, r, input, parse, cache, config)
                for index, (model, r) in enumerate(members)
            ),
            return_exceptions=True,
        )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return PanelResult(
        members=tuple(o for o in outcomes if isinstance(o, MemberGrade)), quorum=needed
    )
