"""Inspect entry point: every task of the package and its offline ``baseline`` model provider.

Inspect imports this module (``[project.entry-points.inspect_ai]``), which is what makes
``inspect eval research_taste_evals/<task>`` and ``--model baseline/<name>`` resolve. Importing
it registers those and changes nothing else in Inspect: no hooks, no excepthook, no patched
provider (tests/test_good_guest.py).
"""

from inspect_ai.model import ModelAPI, modelapi

# Importing a family's baselines registers them with the provider.
from research_taste_evals.aaar import baselines as _aaar_baselines  # noqa: F401
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.ideapairs import baselines as _ideapairs_baselines  # noqa: F401
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.lft import baselines as _lft_baselines  # noqa: F401
from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.lft_grader_check import lft_grader_check
from research_taste_evals.reviewcritique import baselines as _reviewcritique_baselines  # noqa: F401
from research_taste_evals.reviewcritique.reviewcritique import review_critique
from research_taste_evals.scijudge import baselines as _scijudge_baselines  # noqa: F401
from research_taste_evals.scijudge.scijudge import scijudge
from research_taste_evals.tastybench import baselines as _tastybench_baselines  # noqa: F401
from research_taste_evals.tastybench.tastybench import tastybench
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract

# Every task, in the order `research-taste list` prints them.
TASKS = (
    eqinfer,
    expdesign,
    paper_weakness,
    review_critique,
    lft,
    lft_grader_check,
    tastybench,
    tastybench_extract,
    idea_pairs,
    scijudge,
)


@modelapi(name="baseline")
def baseline() -> type[ModelAPI]:
    from research_taste_evals.core.baselines import BaselineModelAPI

    return BaselineModelAPI


__all__ = [
    "TASKS",
    "baseline",
    "eqinfer",
    "expdesign",
    "paper_weakness",
    "review_critique",
    "lft",
    "lft_grader_check",
    "tastybench",
    "tastybench_extract",
    "idea_pairs",
    "scijudge",
]
