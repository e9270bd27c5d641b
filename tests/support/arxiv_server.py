"""A local stand-in for the arXiv API and its HTML renderings, serving recorded-shaped
responses: an Atom feed per ``id_list`` query (the entry shape export.arxiv.org returns,
including its "Error" entry for a malformed id, answered with HTTP 400 as export.arxiv.org
does) and an HTML page per versioned id (404 when arXiv has no rendering). ``faults`` queues
recorded-style bad answers for the next API requests: ``500``, ``timeout`` (held past the
client's timeout), ``empty`` (a feed with no entry), ``html`` (an HTML 200 page),
``no-namespace`` (Atom without ``xmlns``), ``error-entry`` (200 with an "Error" entry for a
malformed id). Binds 127.0.0.1, counts requests, and stops by
itself."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from local_server import LocalServer

LIFETIME_SECONDS = 120.0

FEED_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?id_list={ids}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=&amp;id_list={ids}&amp;start=0</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2026-11-20T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{count}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{count}</opensearch:itemsPerPage>
"""
ENTRY = """  <entry>
    <id>http://arxiv.org/abs/{version}</id>
    <updated>{published}T17:59:59Z</updated>
    <published>{published}T17:59:59Z</published>
    <title>{title}</title>
    <summary>  {abstract}
</summary>
    <author><name>A. Author</name></author>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">9 pages</arxiv:comment>
    <link href="http://arxiv.org/abs/{version}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{version}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
"""
ERROR_ENTRY = """  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_{bad}</id>
    <title>Error</title>
    <summary>incorrect id format for {bad}</summary>
    <updated>2026-11-20T00:00:00-05:00</updated>
  </entry>
"""


_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z][a-z\-]*(\.[A-Z]{2})?/\d{7})(v\d+)?$")
HELD_SECONDS = 2.0  # a "timeout" answer waits this long (the tests' client waits less)
NO_NAMESPACE = (
    "<?xml version='1.0'?><feed><entry><id>http://arxiv.org/abs/{id}v1</id></entry></feed>"
)
HTML_PAGE = "<!DOCTYPE html><html><body><h1>Service temporarily unavailable</h1></body></html>"


@dataclass(frozen=True)
class Recorded:
    """One paper as arXiv would return it; ``html`` None: no HTML rendering (404)."""

    version: str
    title: str
    abstract: str
    published: str
    html: str | None = None


@dataclass
class Counts:
    api: int = 0
    html: int = 0
    paths: list[str] = field(default_factory=list)


class ArxivServer:
    """``with ArxivServer(papers) as server:`` -- ``server.api`` and ``server.html`` are bases."""

    def __init__(
        self, papers: list[Recorded], busy: int = 0, faults: list[str] | None = None
    ) -> None:
        """``busy``: answer the first ``busy`` API requests with 429 and Retry-After: 5."""
        self.papers = {p.version.rsplit("v", 1)[0]: p for p in papers}
        self.busy = busy
        self.faults = list(faults or [])
        self.counts = Counts()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                return

            def do_GET(self) -> None:
                server.counts.paths.append(self.path)
                parts = urlsplit(self.path)
                if parts.path == "/api/query" and server.busy > 0:
                    server.busy -= 1
                    server.counts.api += 1
                    self.send_response(429)
                    self.send_header("Retry-After", "5")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                kind = "application/atom+xml; charset=utf-8"
                if parts.path == "/api/query":
                    server.counts.api += 1
                    ids = parse_qs(parts.query)["id_list"][0]
                    fault = server.faults.pop(0) if server.faults else None
                    bad = [i for i in ids.split(",") if not _ID.match(i)]
                    if fault == "timeout":
                        time.sleep(HELD_SECONDS)
                        return
                    if fault == "500":
                        body, status = "Internal Server Error", 500
                    elif fault == "empty":
                        body, status = server.feed(""), 200
                    elif fault == "html":
                        body, status, kind = HTML_PAGE, 200, "text/html"
                    elif fault == "no-namespace":
                        body, status = NO_NAMESPACE.format(id=ids.split(",")[0]), 200
                    elif fault == "error-entry":  # the older answer: 200, an "Error" entry
                        body, status = server.feed(ids), 200
                    elif bad:  # export.arxiv.org: HTTP 400 and a feed holding the Error entry
                        head = FEED_HEAD.format(ids=escape(ids), count=1)
                        body = head + ERROR_ENTRY.format(bad=escape(bad[0])) + "</feed>\n"
                        status = 400
                    else:
                        body, status = server.feed(ids), 200
                else:
                    server.counts.html += 1
                    version = parts.path.removeprefix("/html/")
                    paper = server.papers.get(version.rsplit("v", 1)[0])
                    page = paper.html if paper is not None else None
                    body, status = (page or "Not Found"), 200 if page else 404
                    kind = "text/html; charset=utf-8"
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = LocalServer(Handler, LIFETIME_SECONDS)
        self.api = f"{self.server.base_url}/api/query"
        self.html = f"{self.server.base_url}/html"

    def feed(self, id_list: str) -> str:
        ids = [i for i in id_list.split(",") if i]
        entries = []
        for arxiv_id in ids:
            unversioned, _, asked = (
                arxiv_id.partition("v") if "/" not in arxiv_id else (arxiv_id, "", "")
            )
            paper = self.papers.get(unversioned)
            if paper is not None:
                fields = {k: escape(v) for k, v in paper.__dict__.items() if isinstance(v, str)}
                if asked:  # a version asked for is the version answered
                    fields["version"] = arxiv_id
                entries.append(ENTRY.format(**fields))
            elif not arxiv_id[:1].isdigit():
                entries.append(ERROR_ENTRY.format(bad=escape(arxiv_id)))
        head = FEED_HEAD.format(ids=escape(id_list), count=len(entries))
        return head + "".join(entries) + "</feed>\n"

    def __enter__(self) -> ArxivServer:
        self.server.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.server.stop()
