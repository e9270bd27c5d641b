"""A fake OpenReview API v2 on 127.0.0.1 answering from recorded-style venue fixtures.

``GET /notes?invitation=<venue>/-/Submission&details=replies&offset&limit`` slices the venue's
notes (``tests/research_taste/openreview/fixtures/<file>.json``: ``{"venue", "notes"}``) and
answers ``{"notes", "count"}`` as the real API does; ``GET /pdf?id=`` answers the PDF bytes the
test registered (404 when none). Chosen requests first answer 429 with a ``Retry-After``; with
``bad_body`` set, ``/notes`` answers an HTML page with status 200 (a proxy's error page).
``sort=id`` orders the notes by id (openreview-py's order). ``ignore_offset``: every page is the
first and no ``count`` is sent (a server that would be paged forever). ``cut_at``: the
listing ends after that many notes while ``count`` still says all (a listing cut short).
``account``: ``POST
/login`` with that ``(id, password)`` answers ``{"token": TOKEN}``; with ``challenge`` set, a
request without ``Authorization: Bearer TOKEN`` answers 403 (API v2's datacenter challenge).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from local_server import LocalServer

FIXTURES = Path(__file__).resolve().parents[1] / "research_taste" / "openreview" / "fixtures"
LIFETIME = 300.0  # seconds: the server stops by itself after this
FETCH_DATE = "2026-02-02"  # the tests' "today"
TOKEN = "tok-3f9a-secret"  # the fake's login token: must never appear in a file or message


def venue_notes(name: str) -> tuple[str, list[dict[str, Any]]]:
    """A fixture's venue id and its submission notes."""
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data["venue"], data["notes"]


def make_pdf(lines: list[str]) -> bytes:
    """A small valid one-page PDF showing ``lines`` in Helvetica (pypdf reads its text)."""

    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    shown = "".join(f"({escape(line)}) Tj T* " for line in lines)
    stream = f"BT /F1 10 Tf 12 TL 72 720 Td {shown}ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


BROKEN_PDF = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\n%% truncated upload\n"


@dataclass
class FakeOpenReview:
    """The server's state: the venue, the PDFs, what it was asked, and which requests fail."""

    venue: str
    notes: list[dict[str, Any]]
    pdfs: dict[str, bytes] = field(default_factory=dict)
    throttle: dict[str, int] = field(default_factory=dict)  # "/notes?<offset>" or "/pdf?<id>"
    retry_after: str = "0"
    bad_body: bool = False
    base_url: str = ""
    requests: list[dict[str, str]] = field(default_factory=list)
    ignore_offset: bool = False
    cut_at: int | None = None  # the listing ends after this many notes; its count says all
    account: tuple[str, str] | None = None
    challenge: bool = False

    def login(self, body: bytes) -> tuple[int, str, bytes]:
        try:
            asked = json.loads(body)
        except ValueError:
            asked = {}
        if self.account is None or (asked.get("id"), asked.get("password")) != self.account:
            return 400, "application/json", b'{"name": "InvalidCredentials", "status": 400}'
        return 200, "application/json", json.dumps({"token": TOKEN}).encode("utf-8")

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        if self.challenge and auth != f"Bearer {TOKEN}":
            return 403, "application/json", b'{"name": "ForbiddenError", "message": "challenge"}'
        marker = f"{path}?{params.get('offset') or params.get('id') or ''}"
        if self.throttle.get(marker, 0) > 0:
            self.throttle[marker] -= 1
            return 429, "application/json", b'{"name": "RateLimitError", "status": 429}'
        if path == "/pdf":
            pdf = self.pdfs.get(params.get("id", ""))
            if pdf is None:
                return 404, "application/json", b'{"name": "NotFoundError", "status": 404}'
            return 200, "application/pdf", pdf
        if path != "/notes" or params.get("invitation") != f"{self.venue}/-/Submission":
            return 400, "application/json", b'{"name": "ValidationError", "status": 400}'
        if self.bad_body:
            return 200, "text/html", b"<html><body>502 Bad Gateway</body></html>"
        offset, limit = int(params.get("offset", 0)), int(params.get("limit", 1000))
        notes = (
            sorted(self.notes, key=lambda n: str(n.get("id")))
            if params.get("sort") == "id"
            else self.notes
        )
        page = notes[: self.cut_at][0 if self.ignore_offset else offset :][:limit]
        if params.get("details") != "replies":
            page = [{k: v for k, v in note.items() if k != "details"} for note in page]
        body: dict[str, Any] = {"notes": page}
        if not self.ignore_offset:
            body["count"] = len(self.notes)
        return 200, "application/json", json.dumps(body).encode("utf-8")


def _handler(api: FakeOpenReview) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            url = urllib.parse.urlsplit(self.path)
            params = dict(urllib.parse.parse_qsl(url.query))
            api.requests.append({"path": url.path, **params})
            self._reply(*api.answer(url.path, params, self.headers.get("Authorization") or ""))

        def do_POST(self) -> None:  # noqa: N802 (the http.server name)
            size = int(self.headers.get("Content-Length") or 0)
            api.requests.append({"path": self.path, "method": "POST"})
            self._reply(*api.login(self.rfile.read(size)))

        def _reply(self, status: int, kind: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            if status == 429 and api.retry_after:  # "": a 429 without the header
                self.send_header("Retry-After", api.retry_after)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def serving(api: FakeOpenReview, lifetime: float = LIFETIME) -> Iterator[FakeOpenReview]:
    """Serve ``api`` on a random 127.0.0.1 port; stopped on leaving the block or after
    ``lifetime`` seconds (``local_server``)."""
    with LocalServer(_handler(api), lifetime) as server:
        api.base_url = server.base_url
        yield api
