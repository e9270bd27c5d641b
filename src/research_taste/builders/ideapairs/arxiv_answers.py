"""Reading arXiv's answers: Atom feeds of the API (entries, error entries, and answers that
are not arXiv feeds at all) and HTML renderings (LaTeXML pages, their failure pages)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from research_taste_evals.core.data import DataError

API_ENV = "ARXIV_API_BASE"
_ATOM = {"a": "http://www.w3.org/2005/Atom"}
VERSION_SUFFIX = re.compile(r"v\d+$")
_SKIP_TAGS = {"script", "style", "nav", "header", "footer", "math", "annotation"}
# arXiv identifiers (https://info.arxiv.org/help/arxiv_identifier.html): YYMM.NNNN[N] since
# 2007, archive[.SC]/YYMMNNN before; an optional version
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z][a-z\-]*(\.[A-Z]{2})?/\d{7})(v\d+)?$")
SUMMARY = re.compile(r"<summary[^>]*>(.*?)</summary>", re.DOTALL)
# A LaTeXML rendering (arXiv's HTML) carries these classes; its failure pages these sentences.
LATEXML_MARKS = ("ltx_document", "ltx_page_main", 'content="LaTeXML')
LATEXML_FAILURES = (
    "Conversion to HTML had a Fatal error",
    "HTML is not available for the source",
)


class _Text(HTMLParser):
    """Visible text of an HTML page, one paragraph per block, without scripts and maths."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self.skip += 1
        elif tag in ("p", "h1", "h2", "h3", "h4", "li", "div", "section", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Plain text of an arXiv HTML rendering."""
    parser = _Text()
    parser.feed(html)
    paragraphs = (" ".join(p.split()) for p in "".join(parser.parts).split("\n"))
    return "\n".join(p for p in paragraphs if p)


def is_arxiv_id(value: str) -> bool:
    """Whether ``value`` has the form of an arXiv identifier (new or old style)."""
    return bool(_ARXIV_ID.match(value))


def parse_atom(body: bytes, where: str) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """Entries of an arXiv API Atom feed by unversioned id (version, title, abstract, date),
    and the feed's error entries (arXiv's answer to a malformed id) by their message.

    Raises:
        DataError: the body is not an Atom feed in arXiv's namespace (an HTML page, a feed
            without ``xmlns``), in one sentence naming ``ARXIV_API_BASE``.
    """
    try:
        root = ET.fromstring(body)
    except ET.ParseError as error:
        root, problem = None, f"not XML: {error}"
    if root is not None and root.tag != f"{{{_ATOM['a']}}}feed":
        problem = f"its root is <{root.tag}>, not an Atom <feed>"
    if root is None or root.tag != f"{{{_ATOM['a']}}}feed":
        shown = " ".join(body[:80].decode("utf-8", "replace").split())
        raise DataError(
            f"{where} answered with something that is not an arXiv Atom feed ({problem}; "
            f"{shown!r}); is {API_ENV} the arXiv API's query URL?"
        )
    entries: dict[str, dict[str, str]] = {}
    errors: dict[str, str] = {}
    for entry in root.findall("a:entry", _ATOM):
        url = (entry.findtext("a:id", "", _ATOM) or "").strip()
        summary = " ".join((entry.findtext("a:summary", "", _ATOM) or "").split())
        if "/abs/" not in url:  # arXiv reports a malformed id as an entry titled "Error"
            errors[url] = summary or "arXiv error entry"
            continue
        version = url.split("/abs/", 1)[1]
        entries[VERSION_SUFFIX.sub("", version)] = {
            "version": version,
            "title": " ".join((entry.findtext("a:title", "", _ATOM) or "").split()),
            "abstract": summary,
            "date": (entry.findtext("a:published", "", _ATOM) or "").strip()[:10],
        }
    return entries, errors
