from __future__ import annotations

import pytest

from research_taste_evals.core.text import (
    content_id,
    fill_template,
    first_words,
    last_words,
)


def test_word_windows_match_release_code_semantics() -> None:
    text = "a  b\nc\td e"
    assert last_words(text, 2) == "d e"
    assert first_words(text, 3) == "a b c"
    assert last_words(text, 100) == "a b c d e"
    assert first_words(text, 0) == "" and last_words(text, 0) == ""


def test_fill_template_leaves_latex_braces_and_does_not_resubstitute() -> None:
    template = "ctx: {context}\nequation: \\frac{a}{b} {candidate}"
    filled = fill_template(template, context="uses {candidate} literally", candidate="x^{2}")
    assert filled == "ctx: uses {candidate} literally\nequation: \\frac{a}{b} x^{2}"
    with pytest.raises(KeyError, match="missing"):
        fill_template("no placeholders", missing="x")


def test_content_id_is_stable_and_content_sensitive() -> None:
    assert content_id("a", [1, 2]) == content_id("a", [1, 2])
    assert content_id("a", [1, 2]) != content_id("a", [2, 1])
    assert len(content_id("x")) == 16
