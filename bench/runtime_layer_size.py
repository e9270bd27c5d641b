"""Count the runtime layer's lines (CONTRIBUTING.md, "The runtime layer"): the modules the
package keeps only where a promise to users has no Inspect-native path.

Prints each module's lines and its code lines (without docstrings, comments and blank lines,
read with ``tokenize``), then the totals CONTRIBUTING quotes.

Run: ``python bench/runtime_layer_size.py``
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "src" / "research_taste_evals" / "core"
RUNTIME_LAYER = ("roles", "errors", "task_args", "cache_scope", "redaction")
SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def code_lines(source: str) -> int:
    """Lines holding a token other than a comment or a docstring (a statement-level string)."""
    lines: set[int] = set()
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        docstring = token.type == tokenize.STRING and previous in {
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.NL,
        }
        if token.type not in SKIPPED and token.type != tokenize.ENDMARKER and not docstring:
            lines.update(range(token.start[0], token.end[0] + 1))
        if token.type not in {tokenize.COMMENT, tokenize.NL}:
            previous = token.type
    return len(lines)


def main() -> None:
    total = code = 0
    for name in RUNTIME_LAYER:
        source = (CORE / f"{name}.py").read_text()
        lines, kept = len(source.splitlines()), code_lines(source)
        total, code = total + lines, code + kept
        print(f"core/{name}.py: {lines} lines, {kept} code lines")
    print(f"runtime layer: {total} lines in {len(RUNTIME_LAYER)} modules, {code} code lines")


if __name__ == "__main__":
    main()
