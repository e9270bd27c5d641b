"""Time importing the task registry beside a bare `import inspect_ai`.

``research_taste_evals._registry`` is the module Inspect imports through the package's entry
point (``[project.entry-points.inspect_ai]``): every ``inspect eval``, ``inspect list`` and
sweep pays for it once. Each import runs in a fresh interpreter, alternating the two cases;
the script prints the median and best of ``--repeat`` runs, the ratio of the medians (issue
#24's budget: at most :data:`BUDGET_RATIO` x ``import inspect_ai``) and which heavy libraries
the registry import loaded (none should: they are imported where used; the same list is
checked, without timing, by tests/test_registry_import.py).

Not measured here: what ``inspect eval`` adds beyond the import (it also loads every other
installed package's Inspect entry point; in a development venv with ``inspect_evals``
installed that alone has cost ~17 s under load, a cost of that venv, not of this package).

Prints figures; asserts nothing (tests never assert wall-clock times).

``--json FILE`` also writes the figures (``bench/performance_readme.py`` puts them in the README).

Run: ``python bench/registry_import.py [--repeat 9] [--json bench/results/registry_import.json]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BUDGET_RATIO = 1.2
REGISTRY = "research_taste_evals._registry"
HEAVY = (
    "numpy",
    "scipy",
    "sklearn",
    "pandas",
    "pyarrow",
    "torch",
    "sentence_transformers",
    "transformers",
    "matplotlib",
    "nltk",
    "rouge_score",
    "bert_score",
)
CASES = {"import inspect_ai": "import inspect_ai", f"import {REGISTRY}": f"import {REGISTRY}"}


def seconds(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - start


def heavy_imports(code: str) -> list[str]:
    """The libraries of :data:`HEAVY` present in ``sys.modules`` after running ``code``."""
    probe = f"import sys\n{code}\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return [name for name in (done.stdout.splitlines() or [""])[-1].split(",") if name]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    repeat = args.repeat
    for code in CASES.values():  # warm the file cache once, untimed
        seconds(code)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(repeat):
        for name, code in CASES.items():
            times[name].append(seconds(code))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:<45} median {medians[name]:5.2f} s  best {min(values):5.2f} s")
    baseline, registry = medians.values()
    ratio = registry / baseline
    loaded = heavy_imports(CASES[f"import {REGISTRY}"])
    print(f"ratio (medians of {repeat} fresh interpreters): {ratio:.2f} (budget {BUDGET_RATIO})")
    print(f"heavy libraries loaded by the registry: {', '.join(loaded) or 'none'}")
    if args.json:
        figures = {
            "inspect_ai_s": round(baseline, 3),
            "registry_s": round(registry, 3),
            "ratio": round(ratio, 3),
            "repeat": repeat,
            "heavy_loaded": loaded,
            "cpus": os.cpu_count(),
            "load_average_1min": round(os.getloadavg()[0], 2),
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
