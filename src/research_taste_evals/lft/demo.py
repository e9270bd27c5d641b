"""The LFT demo runs: the shipped rubrics and reference solutions, graded by offline baselines.

LFT needs no demo data of its own: the rubrics (``lft/rubrics/``) and the reference solutions
with known levels (``lft/grader_references/``) ship with the package and are written by the
project, so the demo runs the tasks on them as they are.
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
