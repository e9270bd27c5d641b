"""One SciJudgeBench row: its two papers, its chat, its label, or why it is left out.

The Hub files (``OpenMOSS-Team/SciJudgeBench``) give every row ``messages`` (system + user
chat) and ``correct_answer`` ("A"/"B"), and for both papers ``paper_{a,b}_title`` and
``_abstract``. The citation splits (``test``, ``test_ood_year``) add ``_citations``, ``_date``,
``_arxiv_id``, ``_category`` and ``_subcategory``; the ICLR split (``test_ood_iclr``, arXiv
2603.14473 section 4) has no dates but a row ``year`` and the two review ratings
``paper_{a,b}_rating``, and its label is the higher-rated paper.

A paper of the ICLR split is dated by its venue year: ICLR year Y is dated 1 September of Y-1,
when the venue's submissions become public (an item counts as after a cutoff only if it could
not have been read before it; ``iclr_date``).

A row that is not a valid pair is left out and counted (``LEFT_OUT_REASONS``); any other broken
field is a ``DataError`` naming the file, the row and the field, before any model call.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import require_item_date
from research_taste_evals.core.text import content_id

SIDES = ("a", "b")
# same_paper: both sides are one paper (one arXiv id, or one title without an id).
# unswappable_prompt: the user turn does not hold one "Paper A" and one "Paper B" block, so
# the swapped order cannot be built from it (prompts.swap_paper_blocks).
# answer_not_higher: ``correct_answer`` is not the paper with more citations (ICLR: the higher
# rating). The card defines the label by them ("predict which paper has a higher citation
# count"; the paper's pairs are high- vs. low-citation papers), so such a row contradicts its
# own label and scoring it would reward the wrong answer.
# duplicate_row: the row repeats an earlier row verbatim (the same JSON object): asked again it
# would count as another couple of its pair and weigh that pair twice in the pair's mean.
LEFT_OUT_REASONS = (
    "unknown_answer",
    "missing_abstract",
    "equal_citations",
    "equal_ratings",
    "answer_not_higher",
    "unswappable_prompt",
    "same_paper",
    "duplicate_row",
)
_ROLES: dict[str, type[ChatMessage]] = {
    "system": ChatMessageSystem,
    "user": ChatMessageUser,
    "assistant": ChatMessageAssistant,
}


@dataclass(frozen=True)
class Paper:
    """One side of a row (``rating`` and ``year`` on the ICLR split, ``citations`` elsewhere)."""

    arxiv_id: str
    title: str
    abstract: str
    date: str
    citations: float | None
    category: str
    subcategory: str
    rating: float | None = None
    year: int | None = None

    def as_metadata(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @property
    def value(self) -> float | None:
        """What the label compares: the citations, else (ICLR) the review rating."""
        return self.citations if self.citations is not None else self.rating


def _text(row: Mapping[str, Any], field: str, where: str, required: bool = True) -> str:
    value = row.get(field)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise DataError(f"{where}: field '{field}' is missing or empty")
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: field '{field}' must be text, got {type(value).__name__}")
    return value.strip()


def _number(row: Mapping[str, Any], field: str, where: str, count: bool = False) -> float | None:
    """A finite number (``count``: 0 or more, a citation count); None when absent."""
    value = row.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{where}: field '{field}' must be a number, got {value!r}")
    if not math.isfinite(value) or (count and value < 0):
        kind = "a citation count (0 or more)" if count else "a finite number"
        raise DataError(f"{where}: field '{field}' must be {kind}, got {value!r}")
    return float(value)


def iclr_date(year: int) -> str:
    """ICLR year Y's papers are dated 1 September of Y-1 (submissions public by then)."""
    return f"{year - 1:04d}-09-01"


def _year(row: Mapping[str, Any], where: str) -> int:
    value = row.get("year")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1900 < value < 2200:
        raise DataError(
            f"{where}: field 'year' must be the ICLR year (a row without paper dates is an "
            f"ICLR row), got {value!r}"
        )
    return value


def read_paper(row: Mapping[str, Any], side: str, where: str) -> Paper:
    """Paper ``side`` of a row; the abstract may be empty (the row is then left out).

    A row with no ``paper_{a,b}_date`` is read as an ICLR row: dated by its ``year``.
    """
    title = _text(row, f"paper_{side}_title", where)
    field = f"paper_{side}_date"
    year: int | None = None
    if row.get(field) is None and "year" in row:
        year = _year(row, where)
        date = iclr_date(year)
    else:
        date = _text(row, field, where)
        parsed = require_item_date(date, f"{where}: field '{field}'")
        earliest = dt.date(parsed.year, parsed.month or 1, parsed.day or 1)
        if earliest > dt.date.today():  # a typo or a clock error: no citations exist yet
            raise DataError(f"{where}: field '{field}' is {date!r}, after today: not a date")
    arxiv_id = _text(row, f"paper_{side}_arxiv_id", where, required=False)
    return Paper(
        arxiv_id=arxiv_id or f"title:{content_id(title)}",
        title=title,
        abstract=_text(row, f"paper_{side}_abstract", where, required=False),
        date=date[:10],
        citations=_number(row, f"paper_{side}_citations", where, count=True),
        category=_text(row, f"paper_{side}_category", where, required=False) or "unknown",
        subcategory=_text(row, f"paper_{side}_subcategory", where, required=False),
        rating=_number(row, f"paper_{side}_rating", where),
        year=year,
    )


def read_messages(row: Mapping[str, Any], where: str) -> list[ChatMessage]:
    """The row's chat (``messages``: system and user turns)."""
    messages = row.get("messages")
    if not isinstance(messages, list) or not messages:
        raise DataError(f"{where}: field 'messages' must be a non-empty list of chat turns")
    chat: list[ChatMessage] = []
    for index, turn in enumerate(messages):
        field = f"messages[{index}]"
        if not isinstance(turn, Mapping) or turn.get("role") not in _ROLES:
            raise DataError(f"{where}: field '{field}.role' must be one of {', '.join(_ROLES)}")
        content = turn.get("content")
        if not isinstance(content, str) or not content.strip():
            raise DataError(f"{where}: field '{field}.content' must be non-empty text")
        chat.append(_ROLES[turn["role"]](content=content))
    if not isinstance(chat[-1], ChatMessageUser):
        raise DataError(f"{where}: field 'messages' must end with the user turn")
    return chat


def left_out_reason(answer: object, a: Paper, b: Paper) -> str | None:
    """Why a row is not a valid pair (the first of :data:`LEFT_OUT_REASONS` that applies)."""
    if str(answer).strip().upper() not in ("A", "B"):
        return "unknown_answer"
    if not a.abstract or not b.abstract:
        return "missing_abstract"
    if a.arxiv_id == b.arxiv_id:  # one paper against itself: no preference to find
        return "same_paper"
    if a.citations is not None and a.citations == b.citations:
        return "equal_citations"
    if a.citations is None and a.rating is not None and a.rating == b.rating:
        return "equal_ratings"
    if a.value is not None and b.value is not None:
        higher = "A" if a.value > b.value else "B"
        if str(answer).strip().upper() != higher:
            return "answer_not_higher"
    return None


def pair_key(a: Paper, b: Paper) -> str:
    """The unordered pair of paper ids: an A/B swap is the same pair."""
    return "|".join(sorted((a.arxiv_id, b.arxiv_id)))
