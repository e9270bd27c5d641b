"""A local stand-in for the arXiv API and its HTML renderings, serving recorded-shaped
responses: an Atom feed per ``id_list`` query (the entry shape export.arxiv.org returns,
including its "Error" entry for a malformed id) and an HTML page per versioned id (404 when
arXiv has no rendering). Binds 127.0.0.1, counts requests, and stops by itself."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

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

    def __init__(self, papers: list[Recorded], busy: int = 0) -> None:
        """``busy``: answer the first ``busy`` API requests with 429 and Retry-After: 5."""
        self.papers = {p.version.rsplit("v", 1)[0]: p for p in papers}
        self.busy = busy
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
                if parts.path == "/api/query":
                    server.counts.api += 1
                    body, status = server.feed(parse_qs(parts.query)["id_list"][0]), 200
                    kind = "application/atom+xml; charset=utf-8"
                else:
                    server.counts.html += 1
                    version = parts.path.removeprefix("/html/")
                    page = next(
                        (p.html for p in server.papers.values() if p.version == version), None
                    )
                    body, status = (page or "Not Found"), 200 if page else 404
                    kind = "text/html; charset=utf-8"
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        port = self.httpd.server_address[1]
        self.api = f"http://127.0.0.1:{port}/api/query"
        self.html = f"http://127.0.0.1:{port}/html"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.timer = threading.Timer(LIFETIME_SECONDS, self.httpd.shutdown)
        self.timer.daemon = True

    def feed(self, id_list: str) -> str:
        ids = id_list.split(",")
        entries = []
        for arxiv_id in ids:
            paper = self.papers.get(arxiv_id)
            if paper is not None:
                fields = {k: escape(v) for k, v in paper.__dict__.items() if isinstance(v, str)}
                entries.append(ENTRY.format(**fields))
            elif not arxiv_id[:1].isdigit():
                entries.append(ERROR_ENTRY.format(bad=escape(arxiv_id)))
        head = FEED_HEAD.format(ids=escape(id_list), count=len(entries))
        return head + "".join(entries) + "</feed>\n"

    def __enter__(self) -> ArxivServer:
        self.thread.start()
        self.timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()
