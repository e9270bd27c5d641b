"""Recognition probe: does the evaluated model know which paper a text describes?

A judge that recognises a paper can answer from memory of its fame instead of judging the
idea. The probe shows the evaluated model exactly the text the judge is shown and asks it to
name the paper (title and year) or to say it does not recognise it. It is asked ONCE per item
(paper or idea) per run, however many samples show the item: :class:`RecallProbe` memoises the
answer in-process (an asyncio lock per item, so concurrent samples wait for the first call);
with the run's ``--cache`` on, the call is cached under the probe's own scope, so a re-run
repeats none (without it, nothing is written to Inspect's cache).
A probe whose call fails after Inspect's retries raises: the sample fails and is retried
(``--retry-on-error``), so no item's recognition turns silently into "unknown".

Recognised (:func:`names_item`) = the answer names the real title (casefolded, punctuation
stripped, ``difflib`` ratio >= 0.8 against the title, or against a title-length window of a
longer answer) or contains the tokens of one of the item's method names (in order). A labelled
``Title:`` line or a JSON ``title`` is read first; the reply's reasoning blocks are dropped
(``core/answers.py``). An answer that says it does not recognise the paper and labels no title
is recognised only by a quoted or italicised title (``it might be "<title>"``), never by prose
that echoes the description. The year is recorded, not used.

An item whose text names itself (``identity_leak``, ``core/leaks.py``) is not probed: the
probe is moot, and the item is left out of ``recognized_rate``.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from inspect_ai.model import CachePolicy, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.answers import last_json_object, strip_reasoning
from research_taste_evals.core.cache_scope import scoped_cache
from research_taste_evals.core.leaks import name_leaks, normalise_hyphens
from research_taste_evals.core.text import fill_template

RECALL_KEY = "recall_probe"  # state.metadata: {item_id: Recognition as a dict}
TITLE_MATCH_RATIO = 0.8
PROBE_VERSION = "1"  # in the cache scope: a new prompt never reuses old answers
PROBE_SCOPE_KEY = "recall_probe"
# Ours (no paper has such a probe); {text} is exactly what the judge reads.
PROBE_PROMPT = """\
The text below describes a research {kind}.

<text>
{text}
</text>

Do you recognise the published paper this describes? If you do, answer with its exact title \
and its year on two lines:
Title: <the paper's title>
Year: <the year it appeared>
If you do not recognise it, answer: I do not recognise this paper."""
NOT_RECOGNISED = "I do not recognise this paper."
# A phrase only the probe prompt has (offline baselines answer the probe by it).
PROBE_MARKER = "Do you recognise the published paper this describes?"
DECLINED = re.compile(
    r"\b(?:(?:do not|don't|dont|cannot|can't|can not|could not|couldn't|unable to|not able to)"
    r"\s+(?:confidently\s+|reliably\s+)?(?:recogni[sz]e|identify|place|name|determine)"
    r"|(?:not|un)\s*(?:familiar|recogni[sz]ed|known to me)|no idea which)",
    re.IGNORECASE,
)
# "Title: ...", "**Title**: ...", "1. Title: ..." (a numbered list), "- Paper title: ...".
_LABELLED = re.compile(
    r"^\W*(?:\d+\W+)?(?:paper\s+)?title\W*[:\-]\s*(.+)$", re.IGNORECASE | re.MULTILINE
)
_LABELLED_YEAR = re.compile(
    r"^\W*(?:\d+\W+)?year\W*[:\-]\s*\D*((?:19|20)\d\d)\b", re.IGNORECASE | re.MULTILINE
)
_ANY_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_NOT_WORD = re.compile(r"[^\w]+")
# A quoted or italicised span: in an answer that declines, only these can name the paper.
_QUOTED = re.compile(
    r"[\"\u201c\u201d\u00ab\u00bb]([^\"\u201c\u201d\u00ab\u00bb]{8,})[\"\u201c\u201d\u00ab\u00bb]|\*([^*]{8,})\*"
)
# A labelled title that says there is none ("Title: Unknown", "Title: N/A").
_NO_TITLE = re.compile(r"^(?:unknown|n/?a|none|null|-+|not (?:known|recogni[sz]ed|sure))\W*$", re.I)
ItemKind = Literal["paper", "idea"]


@dataclass(frozen=True)
class RecallItem:
    """One item a judge is shown: its id, exactly the text shown, and what names it."""

    item_id: str
    text: str
    title: str
    method_names: tuple[str, ...] = ()
    kind: ItemKind = "paper"

    @property
    def identity_leak(self) -> list[str]:
        """The item's own names found in its text (empty when the text is anonymous)."""
        return name_leaks(self.text, (self.title, *self.method_names))


@dataclass(frozen=True)
class Recognition:
    """The probe's result for one item: ``recognized`` is None when moot or failed."""

    item_id: str
    recognized: bool | None
    identity_leak: bool = False
    answer: str = ""
    named_title: str | None = None
    year: int | None = None
    declined: bool = False
    error: str | None = None
    leaks: list[str] = field(default_factory=list)


def normalise(text: str) -> str:
    """Casefolded, punctuation stripped, whitespace collapsed (``"DAPO: An"`` -> ``"dapo an"``)."""
    return " ".join(_NOT_WORD.sub(" ", normalise_hyphens(text).casefold()).split())


def title_ratio(candidate: str, title: str) -> float:
    """Best difflib ratio of ``title`` against ``candidate`` or a title-length window of it."""
    wanted, words = normalise(title), normalise(candidate).split()
    if not wanted or not words:
        return 0.0
    size = len(wanted.split())
    windows = {" ".join(words)} | {
        " ".join(words[start : start + length])
        for length in (size - 1, size, size + 1)
        if length > 0
        for start in range(max(1, len(words) - length + 1))
    }
    return max(difflib.SequenceMatcher(None, w, wanted).ratio() for w in windows)


def labelled_title(reply: str) -> str | None:
    """The title a reply labels (JSON ``title`` or a ``Title:`` line), or None.

    A placeholder ("Unknown", "N/A", "none") or a declining sentence is no title.
    """
    found = last_json_object(reply)
    if found and isinstance(found.get("title"), str) and found["title"].strip():
        titles = [str(found["title"]).strip()]
    else:
        lines = _LABELLED.findall(strip_reasoning(reply))
        titles = [line.strip(" *_`\"'") for line in lines if line.strip(" *_`\"'")]
    if not titles or _NO_TITLE.match(titles[-1]) or DECLINED.search(titles[-1]):
        return None
    return titles[-1]


def declines(reply: str) -> bool:
    """Does the reply say it does not recognise the paper (prose, or JSON ``recognized: false``)?"""
    found = last_json_object(reply) or {}
    flag = found.get("recognized", found.get("recognised"))
    return flag is False or bool(DECLINED.search(strip_reasoning(reply)))


def answer_year(reply: str) -> int | None:
    """The year a reply gives (JSON ``year``, a ``Year:`` line, else the first year named)."""
    found = last_json_object(reply)
    if found and str(found.get("year", "")).strip()[:4].isdigit():
        return int(str(found["year"]).strip()[:4])
    text = strip_reasoning(reply)
    match = _LABELLED_YEAR.search(text) or _ANY_YEAR.search(text)
    return int(match.group(1)) if match else None


def has_tokens(text: str, name: str) -> bool:
    """The tokens of ``name`` occur in ``text``, in order and adjacent (after :func:`normalise`):
    ``SWE-RL`` is in "that is SWE RL", not in "RL for SWE tasks"."""
    wanted = normalise(name)
    return bool(wanted) and f" {wanted} " in f" {normalise(text)} "


def names_item(reply: str, title: str, method_names: Sequence[str] = ()) -> bool:
    """Does the reply name the item (its title, or one of its method names' tokens)?"""
    labelled = labelled_title(reply)
    text = strip_reasoning(reply)
    if labelled is not None:
        candidates = [labelled]
    elif declines(reply):
        # "I don't recognise it; it might be \"<title>\"" names it; prose echoing the
        # description's words while declining does not.
        candidates = [a or b for a, b in _QUOTED.findall(text)]
    else:
        candidates = [text]
    for candidate in candidates:
        if title_ratio(candidate, title) >= TITLE_MATCH_RATIO:
            return True
        if any(has_tokens(candidate, name) for name in method_names if len(name) >= 3):
            return True
    return False


def read_recognition(item: RecallItem, reply: str) -> Recognition:
    """A :class:`Recognition` from the probe's reply to ``item``."""
    return Recognition(
        item_id=item.item_id,
        recognized=names_item(reply, item.title, item.method_names),
        answer=reply,
        named_title=labelled_title(reply),
        year=answer_year(reply),
        declined=declines(reply) and labelled_title(reply) is None,
    )


def is_probe_prompt(text: str) -> bool:
    """Is ``text`` a recognition probe (for models that answer it by rule)?"""
    return PROBE_MARKER in text


class RecallProbe:
    """One probe per task: memoised per (model, item), cached by Inspect (module docstring)."""

    def __init__(self, prompt: str = PROBE_PROMPT, cache: bool | CachePolicy | None = None) -> None:
        """``prompt`` has ``{kind}`` and ``{text}`` and keeps ``PROBE_MARKER`` (for baselines);
        ``cache``: None follows the run's ``--cache`` under the probe's scope."""
        if PROBE_MARKER not in prompt or "{text}" not in prompt:
            raise ValueError("a recall probe prompt needs {text} and PROBE_MARKER")
        self.prompt = prompt
        self.cache = cache
        self._results: dict[tuple[str, str], Recognition] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    async def recognise(self, item: RecallItem, model: Model | None = None) -> Recognition:
        """The item's recognition by ``model`` (default: the active model), asked at most once."""
        leaks = item.identity_leak
        if leaks:
            return Recognition(item.item_id, None, identity_leak=True, leaks=leaks)
        model = model or get_model()
        key = (str(model), item.item_id)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self._results:
                self._results[key] = await self._ask(item, model)
            return self._results[key]

    async def _ask(self, item: RecallItem, model: Model) -> Recognition:
        prompt = fill_template(self.prompt, kind=item.kind, text=item.text)
        cache = scoped_cache(PROBE_SCOPE_KEY, PROBE_VERSION) if self.cache is None else self.cache
        output = await model.generate(prompt, cache=cache)
        if output.error:  # a refusal's reason: the model's answer, recorded
            return Recognition(item.item_id, None, error=f"model_error: {output.error}")
        return read_recognition(item, output.completion)


@solver
def recall_probe(
    probe: RecallProbe, items_of: Callable[[TaskState], Sequence[RecallItem]]
) -> Solver:
    """Probe the items a sample shows; store ``{item_id: result}`` in ``state.metadata``."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        results = [await probe.recognise(item) for item in items_of(state)]
        state.metadata[RECALL_KEY] = {r.item_id: asdict(r) for r in results}
        return state

    return solve


def state_recognitions(state: TaskState) -> dict[str, dict[str, Any]]:
    """The probe results :func:`recall_probe` stored for this sample (empty when off)."""
    stored: dict[str, dict[str, Any]] = state.metadata.get(RECALL_KEY) or {}
    return stored
