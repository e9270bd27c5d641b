"""Idea-pair forecasting (Mule et al. 2026): builder and task."""

from research_taste_evals.ideapairs.ideapairs import idea_pairs

__all__ = ["idea_pairs"]
