"""Follow-up turns after a model's first answer: none, static, critique or rubric nudges.

AISI's Long-Form Tasks report ("Single and multi-turn prompting") compares three prompting
schemes: a single turn; *static* follow-ups (fixed, domain-agnostic requests to revise and add
detail); and *dynamic critique* (a critic, by default the evaluated model itself and with no
external information, critiques the solution, then the model revises). Its "Next steps" add
*nudges*: a critic that sees the grading rubric gives just enough feedback to reach the next
level, in a loop until the solution reaches the top level; the number of nudges is the metric.

Every follow-up turn is a user message in ``state.messages`` (with ``metadata["followup"]``
naming the mode and round), so ``inspect view`` shows the critique and each revision. The
critic's own call runs inside a ``critique``/``nudge`` span and appears as a model event.

The grader-panel side of ``followup="nudge"``: how good is the answer now, and what is next.

:func:`research_taste_evals.lft.nudges.nudge` loops "grade, nudge, revise" and needs two
functions from the benchmark; these are the Long-Form Task ones. The level is the panel's
median end-to-end score rounded down (a median of 4.5 has not reached level 5), and a panel
below quorum ends the loop as a grading failure rather than counting as level 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import get_args

from inspect_ai.model import (
    CachePolicy,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
)
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, system_message
from inspect_ai.util import span

from research_taste_evals.core.access import Document, information_access
from research_taste_evals.core.roles import roles_ready
from research_taste_evals.core.text import fill_template
from research_taste_evals.lft.dataset import FollowUp, LftSettings
from research_taste_evals.lft.grader import (
    grader_spec,
    require_reachable_quorum,
)
from research_taste_evals.lft.nudges import (
    DEFAULT_MAX_NUDGES,
    DEFAULT_TOP_LEVEL,
    LevelOf,
    RequirementsOf,
    next_level_requirements,
    nudge,
    panel_level_of,
)
from research_taste_evals.lft.prompts import (
    CRITIC_SYSTEM,
    CRITIQUE_PROMPT,
    CRITIQUE_REVISION_REQUEST,
    LFT_SYSTEM,
    STATIC_FOLLOWUPS,
)
from research_taste_evals.lft.rubric import MAX_LEVEL, rubric_from_metadata
from research_taste_evals.lft.turns import critic_model, followup_message, last_answer

FOLLOWUP_MODES: tuple[FollowUp, ...] = get_args(FollowUp)
DEFAULT_FOLLOWUP_ROUNDS = 1


@solver
def static_followups(rounds: int = DEFAULT_FOLLOWUP_ROUNDS) -> Solver:
    """After the first answer, ``rounds`` fixed revision requests (cycling through the list)."""
    _check_rounds(rounds)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for index in range(rounds):
            request = STATIC_FOLLOWUPS[index % len(STATIC_FOLLOWUPS)]
            state.messages.append(followup_message(request, "static", index + 1))
            state = await generate(state)
        return state

    return solve


@solver
def critique_followups(rounds: int = DEFAULT_FOLLOWUP_ROUNDS) -> Solver:
    """``rounds`` of: the critic critiques the latest answer (task + answer only), model revises.

    An empty critique is recorded in the follow-up message metadata and ends the rounds; the
    answer so far is what gets graded.
    """
    _check_rounds(rounds)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        critic = critic_model()
        for index in range(rounds):
            async with span(f"critique {index + 1}", type="critique"):
                critique = await critic.generate(
                    [
                        ChatMessageSystem(content=CRITIC_SYSTEM),
                        ChatMessageUser(
                            content=fill_template(
                                CRITIQUE_PROMPT, task=state.input_text, solution=last_answer(state)
                            )
                        ),
                    ],
                )
            if not critique.completion.strip():
                state.metadata["critique_failed_round"] = index + 1
                break
            request = fill_template(CRITIQUE_REVISION_REQUEST, critique=critique.completion)
            state.messages.append(
                followup_message(request, "critique", index + 1, critic=str(critic))
            )
            state = await generate(state)
        return state

    return solve


def followup_solver(
    mode: FollowUp,
    rounds: int = DEFAULT_FOLLOWUP_ROUNDS,
    level_of: LevelOf | None = None,
    requirements_of: RequirementsOf | None = None,
    max_nudges: int = DEFAULT_MAX_NUDGES,
    top_level: int = DEFAULT_TOP_LEVEL,
) -> list[Solver]:
    """The solvers that follow the first ``generate`` for ``mode`` (empty for ``none``)."""
    if mode == "none":
        return []
    if mode == "static":
        return [static_followups(rounds)]
    if mode == "critique":
        return [critique_followups(rounds)]
    if mode == "nudge":
        if level_of is None or requirements_of is None:
            raise ValueError("followup='nudge' needs level_of and requirements_of")
        return [nudge(level_of, requirements_of, max_nudges, top_level)]
    raise ValueError(f"followup must be one of {FOLLOWUP_MODES}, got {mode!r}")


def _check_rounds(rounds: int) -> None:
    if rounds < 1:
        raise ValueError(f"followup_rounds must be >= 1, got {rounds}")


def rubric_documents(state: TaskState) -> list[Document]:
    """The sample's context documents as plain text (``access="context"``)."""
    rubric = rubric_from_metadata(state.metadata)
    return [Document(title=d.title, text=d.content()) for d in rubric.context_documents]


def rubric_block_list(state: TaskState) -> list[str]:
    """The sample's web-search block list (``access="web"``)."""
    return list(rubric_from_metadata(state.metadata).web_block_list)


def lft_solver(settings: LftSettings, providers: Sequence[str]) -> list[Solver]:
    """The ``lft`` task's chain for its (checked) arguments: the grader role is resolved first,
    so a missing one stops each sample before the evaluated model is called."""
    cache: bool | CachePolicy = settings.grader_cache
    return [
        roles_ready(
            grader_spec(settings.allow_self_grading),
            checks=[partial(require_reachable_quorum, settings.quorum, settings.grader_repeats)],
        ),
        system_message(LFT_SYSTEM),
        information_access(settings.access, rubric_documents, rubric_block_list, providers),
        generate(),
        *followup_solver(
            settings.followup,
            settings.followup_rounds,
            level_of=panel_level_of(
                settings.grader_repeats, settings.quorum, cache, settings.median
            ),
            requirements_of=next_level_requirements(),
            max_nudges=settings.max_nudges,
            top_level=MAX_LEVEL,
        ),
    ]


# ``lft_grader_check``: the reference solution stands in for a model's answer.
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
