"""Long-Form Tasks (AISI; Pencharz, Flesch and Sandbrink 2024): rubric-graded protocols."""

from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.lft_grader_check import lft_grader_check

__all__ = ["lft", "lft_grader_check"]
