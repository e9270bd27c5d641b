"""Shape checks of Semantic Scholar Graph API answers, run before an answer is cached.

A body the builder cannot read (a missing ``paperId``, ``"data": null``, ``"many"`` where a
number is expected, a citing paper that is not an object) stops the build in one sentence that
names the request and the field; the answer is not cached, so a re-run asks again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from research_taste_evals.core.data import DataError

Check = Callable[[dict[str, Any], str], None]


def _bad(request: str, where: str, value: Any, expected: str) -> DataError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return DataError(
        f"Semantic Scholar's answer to {request} is not usable: {where} is {shown}, expected "
        f"{expected}; nothing was cached from it (re-run to ask again)"
    )


def _number(body: Mapping[str, Any], name: str, request: str, where: str) -> None:
    value = body.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise _bad(request, f"{where}{name}", value, "a whole number or null")


def _text(body: Mapping[str, Any], name: str, request: str, where: str) -> None:
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise _bad(request, f"{where}{name}", value, "a string or null")


def _data(body: Mapping[str, Any], request: str) -> list[Any]:
    data = body.get("data")
    if not isinstance(data, list):
        raise _bad(request, "data", data, "a list of papers")
    return data


def check_search_page(body: dict[str, Any], request: str) -> None:
    """A bulk (``total, token, data``) or relevance (``total, offset, next, data``) page."""
    _number(body, "total", request, "")
    _number(body, "next", request, "")
    _text(body, "token", request, "")
    for index, paper in enumerate(_data(body, request)):
        where = f"data[{index}]."
        if not isinstance(paper, dict):
            raise _bad(request, f"data[{index}]", paper, "a paper object")
        if not isinstance(paper.get("paperId"), str) or not paper["paperId"]:
            raise _bad(request, f"{where}paperId", paper.get("paperId"), "a paper id")
        _number(paper, "citationCount", request, where)
        _number(paper, "year", request, where)
        for name in ("title", "abstract", "publicationDate"):
            _text(paper, name, request, where)
        external = paper.get("externalIds")
        if external is not None and not isinstance(external, dict):
            raise _bad(request, f"{where}externalIds", external, "an object or null")


def check_citations_page(body: dict[str, Any], request: str) -> None:
    """A citations page: ``offset, next, data: [{"citingPaper": {...}}]``."""
    _number(body, "offset", request, "")
    _number(body, "next", request, "")
    for index, entry in enumerate(_data(body, request)):
        citing = entry.get("citingPaper") if isinstance(entry, dict) else None
        if not isinstance(citing, dict):
            raise _bad(request, f"data[{index}].citingPaper", citing, "a paper object")
        _text(citing, "publicationDate", request, f"data[{index}].citingPaper.")
