"""Importing the task registry (what Inspect's entry point does) loads no heavy library.

numpy, scipy, sklearn (with pandas and pyarrow), torch, sentence-transformers, matplotlib and the
text-metric libraries are imported inside the functions that use them, so every
``inspect eval`` and sweep does not pay for them at start-up. Times are not asserted
(``bench/registry_import.py`` prints the ratio to ``import inspect_ai``); what the import
loads is deterministic, and a module-level heavy import added anywhere on the registry's
path fails here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from registry_import import HEAVY, REGISTRY  # noqa: E402

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it


def _heavy_loaded_by(module: str) -> str:
    probe = f"import sys, {module}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_registry_import_loads_no_heavy_library() -> None:
    assert _heavy_loaded_by(REGISTRY) == "[]"


def test_the_probe_sees_a_heavy_import() -> None:
    # The check above can fail: a module-level scipy import is seen (with numpy under it).
    assert _heavy_loaded_by("scipy.stats") == "['numpy', 'scipy']"


def test_the_lazily_imported_functions_still_compute() -> None:
    from research_taste_evals.core.stats import kendall_tau, spearman
    from research_taste_evals.ideapairs.calibration import brier_score
    from research_taste_evals.tastybench.pairwise import bradley_terry

    # Hand-worked: one swapped neighbour in four ranks: rho = 1 - 6*2/(4*15), tau = (5-1)/6.
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    assert brier_score([0.8, 0.4], [1, 0]) == pytest.approx((0.2**2 + 0.4**2) / 2)
    ratings = bradley_terry([("a", "b"), ("a", "b"), ("b", "a")])
    assert ratings["a"] > ratings["b"]
