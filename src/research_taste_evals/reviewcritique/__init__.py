"""ReviewCritique (Du et al., 2024; AAAR-1.0 task 4): find the deficient segments of reviews."""
