"""NLTK word counting as the AAAR-1.0 release does it, with no download at run time.

Upstream cuts ExpDesign contexts and PaperWeakness pieces by ``nltk.word_tokenize`` tokens and
re-joins them with ``TreebankWordDetokenizer`` (scripts/subtask2_experiment_model_prediction
.close_source.v2.py ``cut_word``; scripts/subtask3_review_model_prediction.close_source.py
``cut_word_by_piece``: ``num_pieces = n // max_word_len + 1``, ``n // num_pieces + 1`` each).
"""

from __future__ import annotations

import socket
from typing import Any

import pytest

from research_taste_evals.aaar.dataset.paper_weakness import split_pieces
from research_taste_evals.core import text
from research_taste_evals.core.text import first_counted_words, nltk_words, words_of

# 4 NLTK tokens ("Hello", ",", "world", ".") but 2 whitespace words per repeat.
UNIT = "Hello, world. "
WINDOW = 3000


def test_tokens_are_word_tokenize_tokens() -> None:
    sentence = "We don't re-run it (see Fig. 2); accuracy is 3.5% higher, e.g. on SQuAD."
    assert nltk_words(sentence) == [
        "We", "do", "n't", "re-run", "it", "(", "see", "Fig", ".", "2", ")", ";", "accuracy",
        "is", "3.5", "%", "higher", ",", "e.g", ".", "on", "SQuAD", ".",
    ]  # fmt: skip
    assert len(words_of(sentence, "whitespace")) == 14


@pytest.mark.parametrize(
    ("repeats", "counting", "expected_pieces"),
    [
        (1600, "nltk", 6400 // WINDOW + 1),  # 6,400 tokens: 3 pieces
        (1600, "whitespace", 3200 // WINDOW + 1),  # 3,200 words: 2 pieces
        (749, "nltk", 2996 // WINDOW + 1),  # 2,996 tokens: 1 piece
        (750, "nltk", 3000 // WINDOW + 1),  # 3,000 tokens: 2 pieces (the last one empty)
    ],
)
def test_piece_counts_follow_upstream_arithmetic(
    repeats: int, counting: Any, expected_pieces: int
) -> None:
    paper = UNIT * repeats
    n = len(words_of(paper, counting))
    pieces = split_pieces(paper, "split_combine", WINDOW, counting)
    assert len(pieces) == expected_pieces == n // WINDOW + 1
    per_piece = n // expected_pieces + 1
    sizes = [len(words_of(piece, counting)) for piece in pieces]
    assert sizes == [min(per_piece, n - i * per_piece) for i in range(expected_pieces)]


def test_truncation_keeps_the_first_n_tokens_detokenized() -> None:
    paper = UNIT * 2000  # 8,000 tokens, 4,000 whitespace words
    cut = first_counted_words(paper, WINDOW, "nltk")
    assert nltk_words(cut) == nltk_words(paper)[:WINDOW]
    # NLTK 3.6.7's Treebank detokenizer (upstream's): commas re-joined, mid-text periods left
    # padded, the final one re-joined (real nltk==3.6.7 gives this string).
    assert cut.startswith("Hello, world . Hello, world .") and cut.endswith("world . Hello, world.")
    assert len(first_counted_words(paper, WINDOW, "whitespace").split()) == WINDOW
    assert split_pieces(paper, "none", WINDOW, "nltk") == [cut]


def test_tokenizer_loads_offline_without_any_download(monkeypatch: pytest.MonkeyPatch) -> None:
    import nltk

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no download or network access allowed")

    monkeypatch.setattr(nltk, "download", refuse)
    monkeypatch.setattr(nltk.data, "load", refuse)
    monkeypatch.setattr(nltk.data, "find", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    text._nltk_tools.cache_clear()  # build the tokenizer again inside the guard
    try:
        assert nltk_words("Offline. Fine!") == ["Offline", ".", "Fine", "!"]
    finally:
        text._nltk_tools.cache_clear()
