"""Information access for a solver chain: base, web or context.

A task may run in three information-access configurations (the calling family's README cites
the paper section each follows):

- ``base``: the model answers with no tools and no external information;
- ``web``: the model is encouraged to use a web search tool before answering;
- ``context``: the plain text of curated documents is put in the system message, an upper
  bound on the quality of external information a model could find.

A web search that could reach the answer key (a benchmark's own rubric, a site showing the
ground truth) needs a block list. :func:`web_search_providers` is the one place that turns a
block list into Inspect's ``web_search`` provider options, and it never lets a provider search
unblocked (see its docstring for which providers can block what).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import WebSearchProviders, web_search

Access = Literal["base", "web", "context"]
ACCESS_MODES: tuple[Access, ...] = ("base", "web", "context")

# Provider -> the option of Inspect's ``web_search`` that excludes domains. Checked against
# inspect_ai 0.3.x (tool/_tools/_web_search/_web_search.py and model/_providers/): anthropic
# passes ``blocked_domains`` to its search and fetch tools; tavily's client takes
# ``exclude_domains``; grok passes its options to xAI's web search, which documents
# ``excluded_domains`` for Grok 4 and later. OpenAI's and Gemini's built-in searches take no
# block list in Inspect, Google CSE and Exa none at all: they can only run with an empty list.
BLOCKING_PROVIDERS: dict[str, str] = {
    "anthropic": "blocked_domains",
    "grok": "excluded_domains",
    "tavily": "exclude_domains",
}
# Providers whose block list has a size limit. xAI's web-search documentation caps
# ``excluded_domains`` at five domains (Inspect forwards the list unchecked), so Grok's own
# search can honour a short list but not a long one. Others: no documented limit.
BLOCK_LIST_LIMITS: dict[str, int] = {"grok": 5}
# The default, in preference order: a model family with a built-in search that can honour the
# block list uses it; every other model (OpenAI, Gemini, ...) falls back to Tavily (needs
# TAVILY_API_KEY), which blocks any number of domains. Inspect uses a model's own provider when
# it is listed and otherwise the first external one (Tavily).
DEFAULT_WEB_PROVIDERS: tuple[str, ...] = ("anthropic", "grok", "tavily")

# Our wording, generic on purpose: a paper that prescribes only that the model "is encouraged to
# use a web search tool" before answering leaves the sentence to the implementation.
WEB_ACCESS_INSTRUCTION = (
    "You have a web_search tool. Before you answer, use it to look up information relevant to "
    "the task (methods, protocols, materials, published results), then write your answer using "
    "what you found."
)
# The documents' plain text goes into the system message; the framing sentence is ours.
CONTEXT_ACCESS_INSTRUCTION = (
    "The following documents are relevant to the task. Use them where they help."
)
DOCUMENT_TEMPLATE = '<document title="{title}">\n{text}\n</document>'


@dataclass(frozen=True)
class Document:
    """A context document as it is shown to the model."""

    title: str
    text: str


DocumentsOf = Callable[[TaskState], Sequence[Document]]
BlockListOf = Callable[[TaskState], Sequence[str]]


def can_block(provider: str, block_list: Sequence[str]) -> bool:
    """Whether ``provider`` honours ``block_list`` whole (an empty list needs no blocking)."""
    if not block_list:
        return True
    limit = BLOCK_LIST_LIMITS.get(provider)
    return provider in BLOCKING_PROVIDERS and (limit is None or len(block_list) <= limit)


def web_search_providers(
    block_list: Sequence[str], providers: Sequence[str] | None = None
) -> dict[str, Any]:
    """The ``providers`` argument of Inspect's ``web_search`` with ``block_list`` on each.

    Args:
        block_list: Domains no search may return.
        providers: The providers to configure, each of which must honour ``block_list``; None
            takes every provider of :data:`DEFAULT_WEB_PROVIDERS` that can honour it (so Grok's
            own search serves a short list, and a long list sends Grok models to Tavily).

    Raises:
        ValueError: no provider is left, or an explicitly named provider cannot honour
            ``block_list`` (it would search unblocked, so it is refused rather than dropped).
    """
    if providers is None:
        providers = [p for p in DEFAULT_WEB_PROVIDERS if can_block(p, block_list)]
    if not providers:
        raise ValueError("web access needs at least one search provider")
    config: dict[str, Any] = {}
    for provider in providers:
        if not can_block(provider, block_list):
            limit = BLOCK_LIST_LIMITS.get(provider)
            why = (
                f"takes at most {limit} blocked domains"
                if limit is not None and provider in BLOCKING_PROVIDERS
                else "cannot exclude domains"
            )
            raise ValueError(
                f"search provider '{provider}' {why}, so it would ignore part of this task's "
                f"web block list ({len(block_list)} domains: {list(block_list)}); use providers "
                f"from {sorted(BLOCKING_PROVIDERS)} (limits: {BLOCK_LIST_LIMITS})"
            )
        option = BLOCKING_PROVIDERS.get(provider)
        config[provider] = {option: list(block_list)} if option and block_list else True
    return config


def render_documents(documents: Sequence[Document]) -> str:
    """The context-mode system text: the framing sentence and each document's full text."""
    blocks = [
        DOCUMENT_TEMPLATE.replace("{title}", doc.title).replace("{text}", doc.text)
        for doc in documents
    ]
    return "\n\n".join([CONTEXT_ACCESS_INSTRUCTION, *blocks])


def append_to_system_message(state: TaskState, text: str) -> None:
    """Add ``text`` to the first system message (creating one at the top if there is none).

    One system message rather than several: some providers keep only the first.
    """
    for index, message in enumerate(state.messages):
        if isinstance(message, ChatMessageSystem):
            state.messages[index] = ChatMessageSystem(
                content=f"{message.text}\n\n{text}",
                source=message.source,
                metadata=message.metadata,
            )
            return
    state.messages.insert(0, ChatMessageSystem(content=text))


@solver
def information_access(
    access: Access,
    documents_of: DocumentsOf | None = None,
    block_list_of: BlockListOf | None = None,
    web_providers: Sequence[str] | None = None,
) -> Solver:
    """Set up the sample's information access before the first ``generate``.

    Args:
        access: ``base`` (nothing added), ``web`` (the ``web_search`` tool plus an instruction
            to search first) or ``context`` (documents appended to the system message).
        documents_of: The sample's documents (``context``); a sample without any is an error.
        block_list_of: The sample's domains to keep out of search results (``web``).
        web_providers: Search providers for ``web``, each able to honour the block list; None
            takes every default provider that can honour each sample's list.
    """
    if access not in ACCESS_MODES:
        raise ValueError(f"access must be one of {ACCESS_MODES}, got {access!r}")
    if access == "context" and documents_of is None:
        raise ValueError("access='context' needs documents_of")
    providers = None if web_providers is None else tuple(web_providers)
    if access == "web":
        web_search_providers([], providers)  # an empty provider list fails now

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if access == "context":
            assert documents_of is not None
            documents = list(documents_of(state))
            if not documents:
                raise ValueError(f"sample {state.sample_id}: access='context' but no documents")
            append_to_system_message(state, render_documents(documents))
        elif access == "web":
            block_list = list(block_list_of(state)) if block_list_of else []
            config = web_search_providers(block_list, providers)
            # Built key by key, so typed as a plain dict; Inspect validates it at run time.
            state.tools = [web_search(cast(WebSearchProviders, config))]
            append_to_system_message(state, WEB_ACCESS_INSTRUCTION)
        return state

    return solve
