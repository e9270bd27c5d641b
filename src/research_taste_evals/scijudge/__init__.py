"""SciJudgeBench (Tong et al. 2026, arXiv 2603.14473): which of two arXiv papers is cited more."""

from research_taste_evals.scijudge.scijudge import scijudge

__all__ = ["scijudge"]
