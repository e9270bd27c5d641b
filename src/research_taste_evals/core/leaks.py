"""What in a text shown to a judge could reveal the item's identity or its result.

One check for every family (extraction steps, loaders of texts shown to a judge):

- :func:`name_leaks`: the names of the item (its method's name, its paper's title, its
  authors' surnames) found in the text as whole words, case-insensitively, hyphens of every
  kind read as ``-``;
- :func:`find_leaks`: those, plus the result numbers a leaderboard reports, any percentage and
  (optionally) any year;
- :func:`title_names`: the names a paper's title gives away: the title itself, the method
  name before its colon (``DAPO: An Open-Source ...``), a name in parentheses
  (``Reinforced Self-Training (ReST) ...``) and coined mixed-case words (``ReMax``, ``ArCHer``).

A text with a name leak has an ``identity_leak``: a model can recognise the paper from it, so a
recognition probe on it is moot (``core/recognition.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_PERCENT = re.compile(r"\d+(?:\.\d+)?\s*(?:%|percent\b)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")
# Names shorter than this ("d1", "RL") match too many unrelated words to be evidence.
MIN_NAME_CHARACTERS = 3
# Hyphen, non-breaking hyphen, figure dash, en dash, minus (extractors write them all).
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2212", "-"))
_METHOD_PREFIX_WORDS = 4
_PARENTHESISED = re.compile(r"\(([^()]{3,30})\)")
_TOKEN = re.compile(r"[\w][\w\-.]*[\w]|\w")
# A plural acronym (LLMs, VLMs) is a common noun, not a coined name.
_PLURAL_ACRONYM = re.compile(r"^[A-Z]+s$")


def normalise_hyphens(text: str) -> str:
    """``text`` with every hyphen-like dash as ``-``."""
    return text.translate(_HYPHENS)


def name_leaks(text: str, names: Iterable[str]) -> list[str]:
    """``name '<name>'`` for each of ``names`` (3+ characters) in ``text`` as a whole word."""
    lowered = normalise_hyphens(text).lower()
    leaks = []
    for name in dict.fromkeys(n.strip() for n in names if n):
        key = normalise_hyphens(name).lower()
        if len(key) >= MIN_NAME_CHARACTERS and re.search(
            rf"(?<!\w){re.escape(key)}(?!\w)", lowered
        ):
            leaks.append(f"name '{name}'")
    return leaks


def find_leaks(
    text: str, numbers: tuple[str, ...], names: Iterable[str], years: bool = True
) -> list[str]:
    """What in ``text`` could reveal a result or an identity (empty when it is clean)."""
    leaks = [f"number {n}" for n in sorted(set(_NUMBER.findall(text)) & set(numbers))]
    leaks += [f"percentage '{m}'" for m in _PERCENT.findall(text)]
    if years:
        leaks += [f"year {m}" for m in sorted(set(_YEAR.findall(text)))]
    return leaks + name_leaks(text, names)


def _coined(token: str) -> bool:
    """A part of the token (split at hyphens) mixes case inside: ``ReMax``, ``FederatedScope``.

    Title-case compounds (``Self-Correct``, ``Fine-Tuning``) and acronyms (``LLM``, ``LLMs``)
    are ordinary words of a title, not names.
    """
    parts = [p for p in token.split("-") if not _PLURAL_ACRONYM.match(p)]
    mixed = any(
        any(c.isupper() for c in part[1:]) and any(c.islower() for c in part) for part in parts
    )
    return mixed and len(token) >= MIN_NAME_CHARACTERS


def title_names(title: str) -> tuple[str, ...]:
    """The names a paper title gives away (module docstring), the full title first."""
    title = normalise_hyphens(title.strip())
    names = [title] if title else []
    head, colon, _ = title.partition(":")
    if colon and 0 < len(head.split()) <= _METHOD_PREFIX_WORDS:
        names.append(head.strip())
    names += [m.strip() for m in _PARENTHESISED.findall(title)]
    names += [token for token in _TOKEN.findall(title) if _coined(token)]
    return tuple(dict.fromkeys(n for n in names if len(n) >= MIN_NAME_CHARACTERS))
