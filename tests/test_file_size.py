"""One role per module, with a size guard: no Python file of src/, tests/ or bench/ over
:data:`MAX_LINES` lines (CONTRIBUTING.md, "The family template").

The role decides where code goes; the guard only catches a module that has grown several roles.
A file is not split to meet it (two halves of one role make an import cycle or a module that
cannot be read alone); it is regrouped by role.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHECKED = ("src", "tests", "bench")
MAX_LINES = 400


def _line_counts(root: Path) -> dict[Path, int]:
    return {
        path: len(path.read_text(encoding="utf-8").splitlines())
        for folder in CHECKED
        for path in sorted((root / folder).rglob("*.py"))
    }


def test_no_python_file_over_the_guard() -> None:
    counts = _line_counts(REPO)
    assert len(counts) > 100 and any("tastybench" in path.parts for path in counts)
    over = [
        f"{path.relative_to(REPO)}: {lines} lines"
        for path, lines in counts.items()
        if lines > MAX_LINES
    ]
    assert not over, f"over {MAX_LINES} lines (regroup by role):\n" + "\n".join(over)


def test_the_guard_sees_a_long_file(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert _line_counts(tmp_path) == {tmp_path / "src" / "long.py": MAX_LINES + 1}
