"""AAAR-1.0 (Lou et al., 2024): EqInfer, ExpDesign and PaperWeakness."""

from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness

__all__ = ["eqinfer", "expdesign", "paper_weakness"]
