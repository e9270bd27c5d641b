"""Issue 52: an answer cut short (a body before its Content-Length, a status line cut inside,
an error body cut) is retried by the one HTTP client for every source the rounds and builders
read (arXiv, OpenReview, Semantic Scholar), and once the tries run out ends in one sentence."""

from __future__ import annotations

from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from local_server import serving

from research_taste.builders import http
from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.cli import main
from research_taste_evals.core.data import DataError


def _cut(mode: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            if mode == "status":  # the head cut inside its status line
                self.wfile.write(b"HTTP/1.1 2")
            else:
                self.send_response(500 if mode == "error body" else 200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.write(b'{"a')
            self.close_connection = True

        def log_message(self, *args: object) -> None:
            pass

    return Handler


MODES = ("body", "status", "error body")


@pytest.fixture(autouse=True)
def _no_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "_sleep", lambda seconds: None)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("env", "argv"),
    [
        ("ARXIV_API_BASE", ["--source", "arxiv", "--category", "cs.LG"]),
        ("OPENREVIEW_API_BASE", ["--venue", "ICLR.cc/2027/Conference", "--no-pdfs"]),
    ],
)
def test_round_open_over_answers_cut_short_ends_in_one_sentence(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    env: str,
    argv: list[str],
) -> None:
    with serving(_cut(mode)) as server:
        monkeypatch.setenv(env, f"{server.base_url}/api")
        code = main(["round", "open", *argv, "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("research-taste round: error: ") and "times; nothing was cached" in last


@pytest.mark.parametrize("mode", MODES)
def test_semantic_scholar_over_answers_cut_short_ends_in_one_sentence(
    tmp_path: Path, mode: str
) -> None:
    ask: Callable[[SemanticScholar], object] = lambda s2: s2.citation_dates("arXiv:9901.00001")  # noqa: E731
    with serving(_cut(mode)) as server, pytest.raises(DataError) as raised:
        ask(SemanticScholar(tmp_path / "cache", f"{server.base_url}/graph/v1", min_interval=0))
    assert "times; nothing was cached" in str(raised.value)
    assert len(str(raised.value).splitlines()) == 1
