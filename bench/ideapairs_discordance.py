"""How does idea-pair discordance removal scale? Synthetic leaderboards, no model calls.

Builds seeded leaderboards of 400, 800, 1,600 and 3,200 rows with two metrics (Accuracy, the
rank column, and a noisy F1, so that many entries are discordant and Algorithm 1 removes many),
then times :func:`score_board` (cleaning, direction, unified score, rank, discordance removal)
in CPU seconds. Prints the CPU time per size, the fitted exponent (slope of log time on log
rows) and the 1,600-row time.

Targets (issue #24): exponent <= 2.1; a 1,600-row board under 1 s of CPU.

Run: ``python bench/ideapairs_discordance.py`` (``--sizes 400 800`` for a quick look;
``--json bench/results/ideapairs_discordance.json`` also writes the figures for
``bench/performance_readme.py``)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from research_taste.builders.ideapairs.boards import Entry, Leaderboard
from research_taste.builders.ideapairs.scoring import score_board

SIZES = (400, 800, 1600, 3200)
TARGET_EXPONENT = 2.1
TARGET_1600_SECONDS = 1.0


def synthetic_board(rows: int, seed: int) -> Leaderboard:
    """A board whose F1 disagrees with its Accuracy often enough to drop many entries."""
    rng = random.Random(seed)
    entries = []
    for i in range(rows):
        accuracy = 100.0 - 60.0 * i / rows + rng.gauss(0, 1.0)
        f1 = accuracy + rng.gauss(0, 15.0)
        entries.append(
            Entry(
                position=i,
                method=f"method {i}",
                paper_title=f"paper {i}",
                paper_url=f"https://arxiv.org/abs/2001.{i:05d}",
                year=2015 + i % 8,
                year_source="paper_date",
                cells={"Accuracy": round(accuracy, 2), "F1": round(f1, 2)},
            )
        )
    return Leaderboard(
        f"synthetic-{rows}", "Task on Data", "Task", "Data", "", "bench", tuple(entries)
    )


def cpu_seconds(rows: int, repeats: int) -> tuple[float, int]:
    """Best-of-``repeats`` CPU seconds of scoring one board, and how many entries it dropped."""
    board = synthetic_board(rows, seed=rows)
    best, dropped = float("inf"), 0
    for _ in range(repeats):
        start = time.process_time()
        _, drops = score_board(board)
        best = min(best, time.process_time() - start)
        dropped = len(drops)
    return best, dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    times = {}
    for rows in args.sizes:
        seconds, dropped = cpu_seconds(rows, args.repeats)
        times[rows] = seconds
        print(f"{rows:>6} rows: {seconds:8.3f} s CPU ({dropped} entries removed as discordant)")
    exponent = float("nan")
    if len(times) >= 2:
        sizes = np.log(np.array(list(times)))
        exponent = float(np.polyfit(sizes, np.log(np.array(list(times.values()))), 1)[0])
        verdict = "ok" if exponent <= TARGET_EXPONENT else "ABOVE TARGET"
        print(f"exponent: {exponent:.2f} (target <= {TARGET_EXPONENT}: {verdict})")
    if 1600 in times:
        verdict = "ok" if times[1600] < TARGET_1600_SECONDS else "ABOVE TARGET"
        print(
            f"1,600-row board: {times[1600]:.3f} s CPU "
            f"(target < {TARGET_1600_SECONDS} s: {verdict})"
        )
    if args.json:
        figures = {"cpu_seconds": {str(rows): round(s, 4) for rows, s in times.items()}}
        figures["exponent"] = round(exponent, 3)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
