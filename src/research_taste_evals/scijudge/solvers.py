"""The SciJudgeBench solver chain: recall steps, the citation facts for baselines, the answer.

1. ``core.recall_control.recall_solvers``: record the evaluated model's knowledge cutoff, then
   (``recall_probe``) probe both papers of the row, once per paper per run (memoised, cached);
2. :func:`share_citations`: the shown papers' citation counts (review ratings on the ICLR
   split) go into the sample's store, where only the offline ``baseline/scijudge-oracle`` reads
   them (a deliberate peek no real model has);
3. ``core.answers.generate_until_parsed``: the judge's answer (asked once by default, as the
   paper does; afresh up to ``reask`` times while it does not parse, ``parsing.py``).
"""

from __future__ import annotations

from functools import partial

from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

from research_taste_evals.core.answers import generate_until_parsed
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.scijudge.parsing import PromptKind, parse_answer
from research_taste_evals.scijudge.specs import SCIJUDGE

CITATIONS_KEY = "scijudge_citations"  # store: {"A": value, "B": value} (citations or rating)


@solver
def share_citations() -> Solver:
    """Put what the label compares (citations, else the ICLR rating), by shown position, in the
    sample store, for offline baselines."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        papers = {"A": state.metadata["paper_a"], "B": state.metadata["paper_b"]}
        store().set(
            CITATIONS_KEY,
            {
                side: paper["citations"] if paper["citations"] is not None else paper["rating"]
                for side, paper in papers.items()
            },
        )
        return state

    return solve


def scijudge_solver(
    knowledge_cutoff: object, probe: bool, prompt: PromptKind, reask: int
) -> list[Solver]:
    """The chain of the module docstring."""
    return [
        *recall_solvers(SCIJUDGE, knowledge_cutoff, probe),
        share_citations(),
        generate_until_parsed(partial(parse_answer, prompt=prompt), reask),
    ]
