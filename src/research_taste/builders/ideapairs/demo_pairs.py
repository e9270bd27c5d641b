"""Build the idea-pairs demo pairs file shipped with the evals (``ideapairs/demo_pairs.jsonl``).

``python -m research_taste.builders.ideapairs.demo_pairs`` rewrites it after a builder change;
``tests/research_taste/test_ideapairs_demo_pairs.py`` fails while it is stale.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from research_taste.builders.ideapairs.builder import build
from research_taste_evals.ideapairs.demo import (
    DEMO_PAIRS_FILE,
    DEMO_SEED,
    write_demo_leaderboards,
)


def build_demo_pairs(folder: Path) -> Path:
    """Run the real builder on the demo leaderboards in ``folder``; return the pairs file."""
    leaderboards = write_demo_leaderboards(folder)
    out = folder / "demo_pairs.jsonl"
    build([leaderboards], out, folder / "demo_report.json", extract=False, seed=DEMO_SEED)
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        DEMO_PAIRS_FILE.write_bytes(build_demo_pairs(Path(tmp)).read_bytes())
    print(f"wrote {DEMO_PAIRS_FILE.name}")


if __name__ == "__main__":
    main()
