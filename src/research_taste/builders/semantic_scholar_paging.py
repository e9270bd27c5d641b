"""Paging of the two Semantic Scholar searches: relevance (``/paper/search``, by ``offset``,
at most :data:`RELEVANCE_LIMIT` results) and bulk (``/paper/search/bulk``, by ``token``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from research_taste.builders.semantic_scholar_answers import check_search_page
from research_taste_evals.core.data import DataError

if TYPE_CHECKING:
    from research_taste.builders.semantic_scholar import SemanticScholar

RELEVANCE_PAGE = 100  # /paper/search: limit <= 100
RELEVANCE_LIMIT = 1000  # /paper/search returns at most the first 1,000 ranked results


def relevance_pages(client: SemanticScholar, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Relevance search paged by ``offset`` to its end or :data:`RELEVANCE_LIMIT`."""
    offset = 0
    while offset < RELEVANCE_LIMIT:
        limit = min(RELEVANCE_PAGE, RELEVANCE_LIMIT - offset)
        page = client.get(
            "/paper/search", {**params, "offset": offset, "limit": limit}, check_search_page
        )
        client.search_total = page.get("total")
        yield from page["data"]
        following = page.get("next")
        if following is None or not page["data"]:
            return
        if following <= offset:
            raise DataError(
                f"Semantic Scholar's relevance search: next {following} does not follow "
                f"offset {offset}"
            )
        offset = following


def bulk_pages(client: SemanticScholar, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Bulk search following the continuation token to the end."""
    token: str | None = None
    seen: set[str] = set()
    while True:
        page = client.get(
            "/paper/search/bulk",
            {**params, **({"token": token} if token else {})},
            check_search_page,
        )
        client.search_total = page.get("total")
        yield from page["data"]
        token = page.get("token")
        if not token:
            return
        if token in seen:
            raise DataError(f"Semantic Scholar's bulk search repeated its token {token!r}")
        seen.add(token)
