"""TastyBench (Hao, Huang and Mahajan, 2025): research-taste judgments vs citation velocity."""

from research_taste_evals.tastybench.tastybench import tastybench, tastybench_round
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract

__all__ = ["tastybench", "tastybench_extract", "tastybench_round"]
