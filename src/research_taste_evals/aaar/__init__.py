"""AAAR-1.0 (Lou et al., 2024): EqInfer, ExpDesign and PaperWeakness."""

from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.paper_weakness_round import paper_weakness_round

__all__ = ["eqinfer", "expdesign", "paper_weakness", "paper_weakness_round"]
