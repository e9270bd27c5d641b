"""NLTK 3.6.7's word tokenizer and Treebank detokenizer, the version AAAR-1.0 pinned.

AAAR-1.0 cuts ExpDesign contexts and PaperWeakness pieces with ``nltk.word_tokenize`` and
re-joins them with ``TreebankWordDetokenizer`` (``cut_word`` in
scripts/subtask2_experiment_model_prediction.close_source.v2.py and
scripts/subtask3_review_model_prediction.close_source.py), under ``nltk==3.6.7`` (its env
requirements files). Later NLTK releases changed both: 3.8 splits em/en dashes off words and
re-reads leading quotes, 3.9 routes every pattern through the ``regex`` engine, and the
detokenizer pads the text and re-attaches mid-text periods and closing quotes. ``nltk==3.6.7``
installs on Python 3.11 but cannot share an environment with a current NLTK, so this module
keeps NLTK's own classes and swaps in 3.6.7's rule tables (NLTK 3.6.7,
``nltk/tokenize/destructive.py`` and ``nltk/tokenize/treebank.py``, Apache-2.0, compiled with
the standard ``re`` as 3.6.7 did), plus 3.6.7's detokenizer body, which does not pad.
``tests/aaar/test_nltk367.py`` checks tokens and rendered prompts against real NLTK 3.6.7
output (``tests/aaar/fixtures/nltk367/``). Sentence splitting is the installed NLTK's Punkt.
"""

from __future__ import annotations

import re

from nltk.tokenize.destructive import MacIntyreContractions, NLTKWordTokenizer
from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer
from nltk.tokenize.treebank import TreebankWordDetokenizer

NLTK_RULES_VERSION = "3.6.7"

_CONTRACTIONS = MacIntyreContractions()


class NLTK367WordTokenizer(NLTKWordTokenizer):
    """``NLTKWordTokenizer`` (what ``word_tokenize`` runs per sentence) with 3.6.7's rules."""

    STARTING_QUOTES = [
        (re.compile("([«“‘„]|[`]+)"), r" \1 "),
        (re.compile(r"^\""), r"``"),
        (re.compile(r"(``)"), r" \1 "),
        (re.compile(r"([ \(\[{<])(\"|\'{2})"), r"\1 `` "),
        (re.compile(r"(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b"), r"\1 \2"),
    ]
    ENDING_QUOTES = [
        (re.compile("([»”’])"), r" \1 "),
        (re.compile(r"''"), " '' "),
        (re.compile(r'"'), " '' "),
        (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
        (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
    ]
    # No em/en-dash rule: 3.6.7 keeps "method—unlike" one token.
    PUNCTUATION = [
        (re.compile(r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*)\s*$"), r"\1 \2 \3 "),
        (re.compile(r"([:,])([^\d])"), r" \1 \2"),
        (re.compile(r"([:,])$"), r" \1 "),
        (re.compile(r"\.{2,}"), r" \g<0> "),
        (re.compile(r"[;@#$%&]"), r" \g<0> "),
        (re.compile(r'([^\.])(\.)([\]\)}>"\']*)\s*$'), r"\1 \2\3 "),
        (re.compile(r"[?!]"), r" \g<0> "),
        (re.compile(r"([^'])' "), r"\1 ' "),
        (re.compile(r"[*]"), r" \g<0> "),
    ]
    PARENS_BRACKETS = (re.compile(r"[\]\[\(\)\{\}\<\>]"), r" \g<0> ")
    CONVERT_PARENTHESES = [
        (re.compile(r"\("), "-LRB-"),
        (re.compile(r"\)"), "-RRB-"),
        (re.compile(r"\["), "-LSB-"),
        (re.compile(r"\]"), "-RSB-"),
        (re.compile(r"\{"), "-LCB-"),
        (re.compile(r"\}"), "-RCB-"),
    ]
    DOUBLE_DASHES = (re.compile(r"--"), r" -- ")
    CONTRACTIONS2 = [re.compile(pattern) for pattern in _CONTRACTIONS.CONTRACTIONS2]
    CONTRACTIONS3 = [re.compile(pattern) for pattern in _CONTRACTIONS.CONTRACTIONS3]


class Treebank367Detokenizer(TreebankWordDetokenizer):
    """``TreebankWordDetokenizer`` with 3.6.7's rules and its unpadded ``tokenize``."""

    CONTRACTIONS2 = [
        re.compile(pattern.replace("(?#X)", r"\s")) for pattern in _CONTRACTIONS.CONTRACTIONS2
    ]
    CONTRACTIONS3 = [
        re.compile(pattern.replace("(?#X)", r"\s")) for pattern in _CONTRACTIONS.CONTRACTIONS3
    ]
    ENDING_QUOTES = [
        (re.compile(r"([^' ])\s('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1\2 "),
        (re.compile(r"([^' ])\s('[sS]|'[mM]|'[dD]|') "), r"\1\2 "),
        (re.compile(r"(\S)\s(\'\')"), r"\1\2"),
        (re.compile(r"(\'\')\s([.,:)\]>};%])"), r"\1\2"),
        (re.compile(r"''"), '"'),
    ]
    DOUBLE_DASHES = (re.compile(r" -- "), r"--")
    CONVERT_PARENTHESES = [
        (re.compile("-LRB-"), "("),
        (re.compile("-RRB-"), ")"),
        (re.compile("-LSB-"), "["),
        (re.compile("-RSB-"), "]"),
        (re.compile("-LCB-"), "{"),
        (re.compile("-RCB-"), "}"),
    ]
    PARENS_BRACKETS = [
        (re.compile(r"([\[\(\{\<])\s"), r"\g<1>"),
        (re.compile(r"\s([\]\)\}\>])"), r"\g<1>"),
        (re.compile(r"([\]\)\}\>])\s([:;,.])"), r"\1\2"),
    ]
    # The period rule is anchored at the end (``\s*$``): mid-text " . " stays padded in 3.6.7.
    PUNCTUATION = [
        (re.compile(r"([^'])\s'\s"), r"\1' "),
        (re.compile(r"\s([?!])"), r"\g<1>"),
        (re.compile(r'([^\.])\s(\.)([\]\)}>"\']*)\s*$'), r"\1\2\3"),
        (re.compile(r"([#$])\s"), r"\g<1>"),
        (re.compile(r"\s([;%])"), r"\g<1>"),
        (re.compile(r"\s\.\.\.\s"), r"..."),
        (re.compile(r"\s([:,])"), r"\1"),
    ]
    STARTING_QUOTES = [
        (re.compile(r"([ (\[{<])\s``"), r"\1``"),
        (re.compile(r"(``)\s"), r"\1"),
        (re.compile(r"``"), r'"'),
    ]

    def tokenize(self, tokens: list[str], convert_parentheses: bool = False) -> str:
        """3.6.7's ``TreebankWordDetokenizer.tokenize``: the same steps, the text not padded."""
        text = " ".join(tokens)
        for regexp in self.CONTRACTIONS3:
            text = regexp.sub(r"\1\2", text)
        for regexp in self.CONTRACTIONS2:
            text = regexp.sub(r"\1\2", text)
        for regexp, substitution in self.ENDING_QUOTES:
            text = regexp.sub(substitution, text)
        text = text.strip()
        regexp, substitution = self.DOUBLE_DASHES
        text = regexp.sub(substitution, text)
        if convert_parentheses:
            for regexp, substitution in self.CONVERT_PARENTHESES:
                text = regexp.sub(substitution, text)
        for steps in (self.PARENS_BRACKETS, self.PUNCTUATION, self.STARTING_QUOTES):
            for regexp, substitution in steps:
                text = regexp.sub(substitution, text)
        return str(text.strip())


class Punkt367LanguageVars(PunktLanguageVars):
    """English Punkt language variables as 3.6.7 had them: curly quotes and guillemets are
    neither closing punctuation (realigned onto the sentence) nor word-ending characters."""

    re_boundary_realignment = re.compile(r'["\')\]}]+?(?:\s+|(?=--)|$)', re.MULTILINE)

    @property
    def _re_non_word_chars(self) -> str:
        others = re.escape("".join(set(self.sent_end_chars) - {"."}))
        return r"(?:[)\";}\]\*:@\'\({\[" + others + "])"


class Punkt367SentenceTokenizer(PunktSentenceTokenizer):
    """``PunktSentenceTokenizer`` with 3.6.7's language variables and its right-to-left search
    for potential sentence ends (a period directly followed by ``!`` or ``?`` is one context,
    not two, so "tasks.![" stays one sentence)."""

    def __init__(self, params: PunktParameters) -> None:
        super().__init__(params, lang_vars=Punkt367LanguageVars())

    def _match_potential_end_contexts(self, text: str) -> list[tuple[re.Match[str], str]]:
        before_words: dict[re.Match[str], str] = {}
        matches: list[re.Match[str]] = []
        before_start = 0
        for match in reversed(list(self._lang_vars.period_context_re().finditer(text))):
            if matches and match.end() > before_start:
                continue
            split = text[: match.start()].rsplit(maxsplit=1)
            before_start = len(split[0]) if len(split) == 2 else 0
            before_words[match] = split[-1] if split else ""
            matches.append(match)
        return [
            (match, before_words[match] + match.group() + match.group("after_tok"))
            for match in matches[::-1]
        ]
