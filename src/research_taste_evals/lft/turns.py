"""What every LFT follow-up turn shares: the last answer, the critic role's model, a follow-up
message that asks for a revision, and where a nudge run records its trajectory.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessageUser,
    Model,
)
from inspect_ai.solver import TaskState

from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.lft.dataset import FollowUp

CRITIC_ROLE = "critic"
NUDGE_METADATA_KEY = "nudges"  # state.metadata[...]: the nudge trajectory, read by a metric


def last_answer(state: TaskState) -> str:
    """The model's latest answer (what the grader would see)."""
    return state.output.completion


def critic_model() -> Model:
    """The ``critic`` role's model, or the evaluated model itself when no role is given."""
    return role_models(RoleSpec(CRITIC_ROLE, default=EVALUATED_MODEL))[0]


def followup_message(text: str, mode: FollowUp, round_number: int, **extra: Any) -> ChatMessageUser:
    return ChatMessageUser(
        content=text, metadata={"followup": mode, "round": round_number, **extra}
    )
