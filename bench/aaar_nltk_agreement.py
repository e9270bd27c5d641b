"""How closely the AAAR word counting follows NLTK 3.6.7, the version upstream pinned.

    python bench/aaar_nltk_agreement.py [--write]

On the fixture texts (``tests/aaar/fixtures/nltk367/texts.json``) compares with real NLTK 3.6.7's
output (``expected.json``, written by ``make_expected.py`` under ``nltk==3.6.7`` with upstream's
``cut_word`` logic): the tokens and the detokenized text of ``core/nltk367.py``'s rules
(``word_counting=nltk``) and of the installed NLTK's (``nltk_installed``). Prints the AAAR
README's ``nltk-agreement`` block; ``tests/test_readme_figures.py`` fails when they differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from readme_logs import show_block
from research_taste_evals.core.text import (
    WordCounting,
    join_words,
    nltk_words,
    word_counting_provenance,
)

REPO = Path(__file__).resolve().parents[1]
README = REPO / "src" / "research_taste_evals" / "aaar" / "README.md"
FIXTURES = REPO / "tests" / "aaar" / "fixtures" / "nltk367"
BLOCK = "nltk-agreement"


def installed_nltk() -> str:
    return str(word_counting_provenance("nltk_installed")["nltk_version"])


def agreement() -> str:
    """The README block: per rule set, the fixture texts whose tokens / re-joined text match."""
    texts = json.loads((FIXTURES / "texts.json").read_text(encoding="utf-8"))["texts"]
    expected = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
    cases = list(zip(texts, expected["cases"], strict=True))
    rows = []
    rule_sets: list[tuple[str, str, WordCounting]] = [
        ("`nltk` (`core/nltk367.py`)", "3.6.7", "nltk"),
        (f"`nltk_installed` (NLTK {installed_nltk()})", "installed", "nltk_installed"),
    ]
    for label, rules, counting in rule_sets:
        tokens = [nltk_words(text, rules) for text, _ in cases]
        same_tokens = sum(t == case["tokens"] for t, (_, case) in zip(tokens, cases, strict=True))
        same_text = sum(
            join_words(t, counting) == case["detokenized"]
            for t, (_, case) in zip(tokens, cases, strict=True)
        )
        rows.append(f"| {label} | {same_tokens} of {len(cases)} | {same_text} of {len(cases)} |")
    size = sum(len(text.encode("utf-8")) for text in texts)
    return "\n".join(
        [
            f"Equal to real NLTK {expected['nltk']}'s output on the {len(cases)} fixture texts "
            f"(`tests/aaar/fixtures/nltk367/`, {size:,} bytes; `bench/aaar_nltk_agreement.py`):",
            "",
            "| word counting | tokens | detokenized text |",
            "|---|---|---|",
            *rows,
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="replace the block in the README")
    show_block(README, BLOCK, agreement(), parser.parse_args().write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
