"""TastyBench solvers: the judge's answer, the reading of its pick, and the extraction step.

- :func:`judge` asks the evaluated model the judge prompt (optionally with web search, citation
  sites blocked).
- :func:`read_choice` reads which project the answer picked (``parsing.py``: parser first, the
  ``extractor`` role for ambiguous answers, through ``core.grading``) and keeps the result in
  the sample store, so the transcript shows the extractor call under the sample and the scorer
  only turns the pick into numbers.
- :func:`generate_as_extractor` is the ``tastybench_extract`` task's step: the ``extractor``
  role writes a core idea or methods summary.

Web access for the judge without the answer key (:func:`guarded_web_search`):
The ground truth is citation velocity, which Semantic Scholar, Google Scholar and similar
services display next to every paper; a judge that can search them is reading the answer, not
exercising taste. With ``-T web_search=true`` the judge gets Inspect's ``web_search`` tool,
configured by the package's one block-list builder (``core.access.web_search_providers``) with
every default provider that can honour this whole list:

- ``anthropic`` (Claude's built-in search): ``blocked_domains``;
- ``tavily`` (any other model; needs ``TAVILY_API_KEY``): ``exclude_domains``.

Grok's own search is left out here because xAI caps its ``excluded_domains`` at five and this
list is longer, so Grok models search through Tavily; OpenAI's and Gemini's built-in searches
take no block list in Inspect, Google CSE and Exa none at all (see ``core/access.py``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, cast

from inspect_ai.solver import Generate, Solver, TaskState, chain, solver, use_tools
from inspect_ai.tool import Tool, WebSearchProviders, web_search

from research_taste_evals.core.access import web_search_providers
from research_taste_evals.core.calls import reply_step
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.core.solvers import generate_with_role
from research_taste_evals.tastybench.parsing import ChoiceMethod, ChoiceResult, extract_choice

EXTRACTOR_ROLE = "extractor"
CHOICE_STORE_KEY = "tastybench_choice"
# The sample's own ground truth (velocities of Project 1 and 2, as shown), which only the
# offline reference judge ``baseline/citation-oracle`` reads (the judged model never sees the
# store; the same values are in the sample's metadata).
TRUTH_STORE_KEY = "tastybench_truth"

# Sites whose pages show a paper's citation count or citing papers.
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
    ask = chain(use_tools(guarded_web_search()), reply_step()) if web_search else reply_step()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        truth = [state.metadata.get("velocity_1"), state.metadata.get("velocity_2")]
        state.store.set(TRUTH_STORE_KEY, truth)
        return await ask(state, generate)

    return solve


async def read_pick(state: TaskState, choice_method: ChoiceMethod) -> ChoiceResult:
    """Read the judge's pick from ``state.output`` (the extractor is called if needed)."""
    extractor = (
        None
        if choice_method == "parser"
        else role_models(RoleSpec(EXTRACTOR_ROLE, default=EVALUATED_MODEL))[0]
    )
    return await extract_choice(
        state.output.completion,
        choice_method,
        extractor,
        cache_scope=f"{state.sample_id}/{state.epoch}",
    )


def stored_pick(state: TaskState) -> ChoiceResult | None:
    """The pick :func:`read_choice` stored for this sample, or None."""
    stored: dict[str, Any] | None = state.store.get(CHOICE_STORE_KEY)
    return ChoiceResult(**stored) if stored else None


@solver
def read_choice(choice_method: ChoiceMethod = "parser_then_extractor") -> Solver:
    """Read the judge's pick and store it (``CHOICE_STORE_KEY``) for the scorer."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        result = await read_pick(state, choice_method)
        state.store.set(CHOICE_STORE_KEY, asdict(result))
        return state

    return solve


def generate_as_extractor() -> Solver:
    """Generate with the ``extractor`` role (default: the task's model), cached."""
    return generate_with_role(EXTRACTOR_ROLE)
