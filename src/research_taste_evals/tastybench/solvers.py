"""The judge: the evaluated model answers the judge prompt, with guarded web search if asked."""

from __future__ import annotations

from typing import cast

from inspect_ai.solver import Generate, Solver, TaskState, chain, generate, solver, use_tools
from inspect_ai.tool import Tool, WebSearchProviders, web_search

from research_taste_evals.core.access import web_search_providers

# The sample's own ground truth (velocities of Project 1 and 2, as shown), which only the
# offline reference judge ``baseline/citation-oracle`` reads (the judged model never sees the
# store; the same values are in the sample's metadata).
TRUTH_STORE_KEY = "tastybench_truth"


# Sites whose pages show a paper's citation count or citing papers. The ground truth is
# citation velocity, shown next to every paper there: a judge that can search them reads the
# answer instead of exercising taste. ``core.access.web_search_providers`` (the one block-list
# builder) keeps every default provider that honours this whole list: ``anthropic``
# (``blocked_domains``) and ``tavily`` (any other model, ``TAVILY_API_KEY``: ``exclude_domains``);
# not Grok's own search (xAI caps ``excluded_domains`` at five: Grok searches through Tavily), nor
# OpenAI's, Gemini's, Google CSE or Exa (no block list in Inspect; ``core/access.py``).
CITATION_COUNT_DOMAINS: tuple[str, ...] = (
    "semanticscholar.org",
    "scholar.google.com",
    "scholar.archive.org",
    "researchgate.net",
    "connectedpapers.com",
    "openalex.org",
    "dimensions.ai",
    "scite.ai",
    "lens.org",
    "crossref.org",
    "opencitations.net",
    "inciteful.xyz",
    "litmaps.com",
    "researchrabbit.ai",
    "citationgecko.com",
    "consensus.app",
    "elicit.com",
)


def guarded_web_search(blocked: tuple[str, ...] = CITATION_COUNT_DOMAINS) -> Tool:
    """Inspect's ``web_search`` tool with the citation-count sites blocked on every provider."""
    config = web_search_providers(sorted(set(blocked)))
    return web_search(cast(WebSearchProviders, config))


@solver
def judge(web_search: bool = False) -> Solver:
    """The evaluated model answers the judge prompt (with guarded web search if asked)."""
    ask = chain(use_tools(guarded_web_search()), generate()) if web_search else generate()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        truth = [state.metadata.get("velocity_1"), state.metadata.get("velocity_2")]
        state.store.set(TRUTH_STORE_KEY, truth)
        return await ask(state, generate)

    return solve
