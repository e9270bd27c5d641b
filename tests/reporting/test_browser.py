"""The published page in a real headless browser: every benchmark's table renders.

Needs Chromium (Debian/Ubuntu: ``apt-get install -y chromium``); skipped with the reason when
no Chromium is installed. The browser renders ``index.html`` from disk, prints the DOM it built
and takes a screenshot; the test reads the tables from that DOM.
"""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from research_taste_evals.reporting.families import task_specs
from research_taste_evals.reporting.report import write_report

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Headless, sandbox-free (containers run as root), and nothing that reaches the network.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,2000",
]
BROWSER_TIMEOUT_SECONDS = 120


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium installed (apt-get install -y chromium) to render index.html")


class Tables(HTMLParser):
    """Per benchmark section id: how many table rows the rendered DOM holds."""

    def __init__(self) -> None:
        super().__init__()
        self.section: str | None = None
        self.rows: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section" and values.get("class") == "benchmark":
            self.section = values.get("id")
            self.rows[self.section or ""] = 0
        elif tag == "tr" and self.section:
            self.rows[self.section] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.section = None


def test_index_html_renders_every_benchmark_table(demo_logs: Path, tmp_path: Path) -> None:
    browser = _browser()
    out = tmp_path / "report"
    write_report(str(demo_logs), out, bundle=False)
    page = (out / "index.html").resolve().as_uri()
    profile = ["--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run(
        [browser, *FLAGS, *profile, "--dump-dom", page],
        capture_output=True,
        text=True,
        timeout=BROWSER_TIMEOUT_SECONDS,
        check=True,
    ).stdout
    screenshot = tmp_path / "index.png"
    subprocess.run(
        [browser, *FLAGS, *profile, f"--screenshot={screenshot}", page],
        capture_output=True,
        timeout=BROWSER_TIMEOUT_SECONDS,
        check=True,
    )
    assert screenshot.stat().st_size > 10_000
    tables = Tables()
    tables.feed(dom)
    for task in task_specs():
        # header + two model rows per benchmark in the demo sweep
        assert tables.rows.get(task) == 3, f"{task}: table missing or incomplete in the DOM"
