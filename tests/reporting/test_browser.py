"""The published report in a real headless browser, served as a static site.

Needs Chromium (Debian/Ubuntu: ``apt-get install -y chromium``); skipped with the reason when
none is installed. The report is written from a *relative* log folder (as the README's command
does), served by ``python -m http.server`` from the report folder, and Chromium is driven over
its DevTools protocol (aiohttp's websocket client, already installed with Inspect): the page's
tables are read from the rendered DOM, the page must not scroll sideways at 1280 px, and one
transcript link is followed into the bundled viewer until a sample of that log is on screen.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from inspect_ai.log import read_eval_log

from research_taste.reporting.families import task_specs
from research_taste.reporting.report import write_report
from research_taste_evals.core.families import task_specs as core_specs

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
FLAGS += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_SECONDS = 120  # a generous bound on a loaded machine; the test polls, never sleeps blindly


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium installed (apt-get install -y chromium) to render index.html")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Page:
    """One Chromium tab over the DevTools protocol: navigate, then evaluate JavaScript."""

    def __init__(self, socket_: Any) -> None:
        self.socket, self.calls = socket_, 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.calls += 1
        await self.socket.send_json({"id": self.calls, "method": method, "params": params})
        while True:
            message = await self.socket.receive_json()
            if message.get("id") == self.calls:
                return dict(message.get("result", {}))

    async def value(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str) -> Any:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            value = await self.value(expression)
            if value:
                return value
            await asyncio.sleep(0.5)
        return None


async def _in_browser(browser: str, profile: Path, check: Any) -> Any:
    import aiohttp

    chromium = subprocess.Popen(
        [
            browser,
            *FLAGS,
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "--window-size=1280,900",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Chromium's own caches and settings (dconf, its cache folder) in the test's folder,
        # not the user's home.
        env={
            **os.environ,
            "XDG_CACHE_HOME": str(profile / "cache"),
            "XDG_CONFIG_HOME": str(profile / "config"),
        },
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT_SECONDS
        while not port_file.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        port = port_file.read_text().split()[0]
        async with aiohttp.ClientSession() as session:
            targets = await (await session.get(f"http://127.0.0.1:{port}/json")).json()
            tab = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(tab["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                return await check(Page(ws))
    finally:
        chromium.terminate()
        chromium.wait(timeout=30)


@pytest.fixture
def served_report(demo_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The demo report written from a relative log folder and served over HTTP."""
    (tmp_path / "work").mkdir()
    shutil.copytree(demo_logs, tmp_path / "work" / "logs" / "sweep-demo")
    monkeypatch.chdir(tmp_path / "work")
    write_report("logs/sweep-demo", "site")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path / "work" / "site",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/", tmp_path / "work"
    finally:
        server.terminate()
        server.wait(timeout=30)


TABLE_ROWS = """JSON.stringify(Array.from(document.querySelectorAll('section.benchmark')).map(
  s => [s.id, s.querySelectorAll('table.leaderboard tr:not(.more)').length]))"""
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
FIRST_LINK = "document.querySelector('section.benchmark table.leaderboard a').getAttribute('href')"


def test_report_renders_fits_1280px_and_a_link_opens_a_sample(
    served_report: tuple[str, Path], tmp_path: Path
) -> None:
    import json

    browser = _browser()
    base, work = served_report

    async def check(page: Page) -> dict[str, Any]:
        await page.call("Page.navigate", url=base + "index.html")
        await page.wait_for("document.querySelectorAll('section.benchmark').length")
        rows = await page.value(TABLE_ROWS)
        sideways = await page.value(SIDEWAYS)
        link = await page.value(FIRST_LINK)
        bundled = work / "site" / "viewer" / "logs" / unquote(link.split("#/logs/")[1])
        first = read_eval_log(str(bundled))
        sample = str(first.samples[0].id)  # type: ignore[index]
        await page.call("Page.navigate", url=base + link)
        seen = await page.wait_for(
            f"document.body && document.body.innerText.includes({json.dumps(sample)})"
        )
        return {"rows": rows, "sideways": sideways, "link": link, "seen": seen}

    result = asyncio.run(_in_browser(browser, tmp_path / "profile", check))
    rows = dict(json.loads(result["rows"]))
    round_tasks = {name for name, spec in core_specs().items() if spec.rounds is not None}
    for task in set(task_specs()) - round_tasks:  # a round judgment is in the Rounds section
        assert rows.get(task) == 3, f"{task}: header + two model rows expected, got {rows}"
    assert result["sideways"] == 0, "index.html scrolls sideways at 1280 px"
    assert result["link"].startswith("viewer/index.html#/logs/")
    assert result["seen"], f"the viewer never showed a sample of {result['link']}"
