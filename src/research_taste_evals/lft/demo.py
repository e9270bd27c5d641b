"""Long-Form Task demo data: the offline runs of ``research-taste demo`` (role file).

The demo entries for ``lft`` and ``lft_grader_check`` are moved here from ``cli/demo.py``
by the core reorganisation; this family writes no demo data of its own (its rubrics and
references ship in ``rubrics/`` and ``grader_references/``).
"""

from __future__ import annotations

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.lft_grader_check import lft_grader_check

# What ``research-taste demo`` runs for this family (collected by cli/demo.py).
DEMO_RUNS: tuple[DemoRun, ...] = (
    # The shipped rubrics; a generic plan graded by the keyword-overlap baseline panel.
    DemoRun(
        name="lft",
        build=lambda data_dir: lft(),
        model="baseline/lft-generic-protocol",
        model_roles={"grader": "baseline/lft-grader"},
    ),
    # The shipped reference solutions with known levels, graded by the keyword-overlap baseline.
    DemoRun(
        name="lft_grader_check",
        build=lambda data_dir: lft_grader_check(),
        model="baseline/lft-grader",
    ),
)
