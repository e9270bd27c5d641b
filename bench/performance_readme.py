"""docs/performance.md's figures, from the bench scripts' saved outputs.

    python bench/registry_import.py --json bench/results/registry_import.json
    python bench/harness_overhead.py --json bench/results/harness_overhead.json
    python bench/ideapairs_discordance.py --json bench/results/ideapairs_discordance.json
    python bench/performance_readme.py --write

Reads ``bench/results/*.json`` (the figures as measured, with the machine) and writes the
README block ``performance``; ``harness_overhead_before.json`` is the same bench run on the code
issue #24 measured (commit 2d7e4a2, the bench file copied in), for the grader check's CPU per call
before and after. ``tests/test_readme_figures.py`` fails when the README's block differs from
this script's output on the committed files. Timings are the machine's: rerun the benches and
this script together.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from readme_logs import show_block

REPO = Path(__file__).resolve().parents[1]
README = REPO / "docs" / "performance.md"
RESULTS = REPO / "bench" / "results"
BLOCK = "performance"
RATIO_BUDGET = 1.5
GRADER_CHECK = "lft_grader_check"


def _load(name: str) -> dict[str, Any]:
    return dict(json.loads((RESULTS / name).read_text(encoding="utf-8")))


def _task_row(task: dict[str, Any]) -> str:
    return (
        f"| `{task['task']}` | {task['calls']} | {task['critical_s']:.1f} | {task['cold']:.2f} "
        f"| {task['warm']:.2f} | {task['floor']:.2f} | {task['warm'] - task['floor']:+.2f} "
        f"| {task['cpu_per_call_ms']:.1f} | {task['floor_cpu_per_call_ms']:.1f} |"
    )


def performance() -> str:
    """The README block from the committed bench outputs."""
    registry, harness = _load("registry_import.json"), _load("harness_overhead.json")
    discordance = _load("ideapairs_discordance.json")
    board = discordance["cpu_seconds"]
    heavy = ", ".join(registry["heavy_loaded"]) or "none"
    before_run = _load("harness_overhead_before.json")
    before = {t["task"]: t for t in before_run["tasks"]}
    before_date = before_run["machine"]["date"]
    after = {t["task"]: t for t in harness["tasks"]}
    m = harness["machine"]
    within = [t["task"] for t in harness["tasks"] if t["task"] != GRADER_CHECK]
    over = [f"`{name}`" for name in within if after[name]["warm"] > RATIO_BUDGET]
    check_before = before[GRADER_CHECK]["cpu_per_call_ms"]
    check_after = after[GRADER_CHECK]["cpu_per_call_ms"]
    check_floor = after[GRADER_CHECK]["floor_cpu_per_call_ms"]
    return "\n".join(
        [
            f"Measured {m['date']} on {m['cpus']} CPUs (1-minute load {m['load_average_1min']}), "
            f"Python {m['python']}, inspect_ai {m['inspect_ai']}.",
            "",
            f"- Registry import (`bench/registry_import.py`, median of {registry['repeat']} "
            f"fresh interpreters): `import research_taste_evals._registry` "
            f"{registry['registry_s']:.2f} s, `import inspect_ai` {registry['inspect_ai_s']:.2f} s:"
            f" ratio {registry['ratio']:.2f} (budget 1.2); heavy libraries loaded: {heavy}.",
            f"- Harness overhead (`bench/harness_overhead.py`, {m['latency_s']} s a call, one "
            "wave): samples' wall time over the critical path, cold (first run in the process) "
            "and warm (median of the next runs), beside Inspect alone on the same shape:",
            "",
            "| task | calls | critical s | cold | warm | Inspect alone | added | CPU/call ms "
            "| Inspect alone, CPU/call ms |",
            "|---|---|---|---|---|---|---|---|---|",
            *(_task_row(task) for task in harness["tasks"]),
            "",
            f"- Warm ratio over {RATIO_BUDGET} (grader check aside): "
            f"{', '.join(over) or 'none'}. `{GRADER_CHECK}` CPU per call: {check_before:.1f} ms "
            f"on the code the issue measured ({before_date}), {check_after:.1f} ms now "
            f"({m['date']}; runs on different days of a shared machine: compare the figure "
            f"with its floor, not with the other day); Inspect alone on the same shape "
            f"({after[GRADER_CHECK]['calls']} calls, no package code) spends "
            f"{check_floor:.1f} ms a call.",
            f"- Idea-pair discordance removal (`bench/ideapairs_discordance.py`, synthetic boards "
            f"of {', '.join(f'{int(rows):,}' for rows in board)} rows): exponent "
            f"{discordance['exponent']:.2f} (budget 2.1); a 1,600-row board "
            f"{board['1600']:.2f} s of CPU (budget 1 s).",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="replace the block in its doc page")
    show_block(README, BLOCK, performance(), parser.parse_args().write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
