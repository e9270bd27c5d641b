"""Web access for the judge without the answer key: block sites that show citation counts.

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

from typing import cast

from inspect_ai.tool import Tool, WebSearchProviders, web_search

from research_taste_evals.core.access import web_search_providers

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
