"""ReviewCritique (Du et al., 2024; AAAR-1.0 task 4): find the deficient segments of reviews."""

from research_taste_evals.reviewcritique.reviewcritique import review_critique

__all__ = ["review_critique"]
