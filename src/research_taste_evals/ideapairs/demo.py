"""Demo data the project writes: a small invented leaderboard file and the pairs built from it.

:func:`write_demo_leaderboards` writes two invented leaderboards (``demo_leaderboards.json``
beside this module) in the PapersWithCode evaluation-tables format (one higher-is-better
accuracy board, one with a lower-is-better error column the direction check must invert);
:func:`write_demo_pairs` writes the pairs the real builder (``research-taste ideapairs build``,
no extraction: idea texts are method name and paper title) made from them, shipped as
``demo_pairs.jsonl`` beside this module because the builder is tooling the evals do not import;
``tests/research_taste/test_ideapairs_demo_pairs.py`` rebuilds the file and fails if it drifts
(``python -m research_taste.builders.ideapairs.demo_pairs`` writes it again).
Nothing here is real research; it only lets ``research-taste demo`` run the task offline.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.ideapairs.ideapairs import idea_pairs

DEMO_SEED = 7
# Two invented leaderboards in the PapersWithCode evaluation-tables format (rows best-first).
DEMO_LEADERBOARDS_FILE = Path(__file__).with_name("demo_leaderboards.json")


def demo_leaderboards() -> list[dict[str, object]]:
    """Two invented leaderboards in the PapersWithCode evaluation-tables format."""
    boards: list[dict[str, object]] = json.loads(DEMO_LEADERBOARDS_FILE.read_text(encoding="utf-8"))
    return boards


def write_demo_leaderboards(folder: Path) -> Path:
    """Write the demo leaderboard file and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo_leaderboards.json"
    shutil.copyfile(DEMO_LEADERBOARDS_FILE, path)
    return path


# The builder's output on demo_leaderboards() with DEMO_SEED (see the module docstring).
DEMO_PAIRS_FILE = Path(__file__).with_name("demo_pairs.jsonl")


def write_demo_pairs(folder: Path) -> Path:
    """Write the demo leaderboards and the pairs built from them; return the pairs file."""
    write_demo_leaderboards(folder)
    out = folder / "demo_pairs.jsonl"
    shutil.copyfile(DEMO_PAIRS_FILE, out)
    return out


DEMO_RUNS: tuple[DemoRun, ...] = (
    # Pairs built by the real builder from two invented leaderboards; both splits, since a
    # demo-sized board leaves few test pairs. The length prior answers.
    DemoRun(
        name="idea_pairs",
        build=lambda data_dir: idea_pairs(
            pairs_file=str(write_demo_pairs(data_dir / "idea_pairs")),
            split="all",
            bootstrap_resamples=1000,
        ),
        model="baseline/longer",
        data_arg="pairs_file",
        write_data=write_demo_pairs,
    ),
)
