"""``docs/report-screenshot.png``: the demo report's ``index.html`` at 1280 px, regenerated.

``python -m research_taste.docs.report_screenshot [--logs <demo sweep logs>] [--out <png>]``
runs, offline: the demo sweep (``sweeps/demo.yaml``, a few samples per run, into a scratch
folder, unless ``--logs`` names a demo sweep's log folder), ``research-taste report`` on its
logs, and headless Chromium (``apt-get install -y chromium``) over the page, opened at the
TastyBench section so the clean columns (``bt_spearman_clean (n)``, ``recognized_rate``,
``post_cutoff_recognized``, ``clean_cutoff``) and the current task versions are in the picture.
Without Chromium it says so and writes nothing (exit 0): the screenshot is documentation, and
nothing else depends on it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOT = ROOT / "docs" / "report-screenshot.png"
DEMO_SWEEP = ROOT / "sweeps" / "demo.yaml"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH, HEIGHT = 1280, 1100  # the page's design width; tall enough for the section's table
SECTION = "tastybench"  # a dated task: its table carries the clean and recognition columns
DEMO_LIMIT = 8  # samples per run: a quick sweep whose tables have figures in every column
TIMEOUT_SECONDS = 300


def find_browser() -> str | None:
    """The first Chromium on the PATH, or None."""
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


def demo_logs(folder: Path) -> Path:
    """Run the demo sweep (``DEMO_LIMIT`` samples a run) into ``folder``/logs, offline."""
    from research_taste.cli.sweep import run_sweep
    from research_taste.cli.sweep_load import load_sweep
    from research_taste_evals.core.data import CACHE_DIR_ENV

    before = os.environ.get(CACHE_DIR_ENV)
    os.environ[CACHE_DIR_ENV] = str(folder / "cache")  # the demo data, in the scratch folder
    try:
        logs = folder / "logs"
        update = {"log_dir": str(logs), "limit": DEMO_LIMIT}
        if not run_sweep(load_sweep(DEMO_SWEEP).model_copy(update=update), display="none"):
            raise SystemExit("the demo sweep did not finish: no screenshot")
    finally:
        if before is None:
            os.environ.pop(CACHE_DIR_ENV, None)
        else:
            os.environ[CACHE_DIR_ENV] = before
    return logs


def screenshot(browser: str, page: Path, out: Path, scratch: Path) -> Path:
    """``page`` rendered by headless ``browser`` from the top of :data:`SECTION`, into ``out``.

    Chromium is driven over its DevTools protocol (aiohttp's websocket client, installed with
    Inspect): its ``--screenshot`` flag paints a blank page for a URL with a ``#section``.
    """
    import asyncio
    import base64

    out.parent.mkdir(parents=True, exist_ok=True)
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--remote-debugging-port=0",
        f"--user-data-dir={scratch / 'profile'}",
        f"--window-size={WIDTH},{HEIGHT}",
        "about:blank",
    ]
    env = {**os.environ, "XDG_CACHE_HOME": str(scratch), "XDG_CONFIG_HOME": str(scratch)}
    chromium = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    try:
        png = asyncio.run(_capture(scratch / "profile" / "DevToolsActivePort", page.as_uri()))
    finally:
        chromium.terminate()
        chromium.wait(timeout=30)
    out.write_bytes(base64.b64decode(png))
    return out


async def _capture(port_file: Path, url: str) -> str:
    """The base64 PNG of :data:`WIDTH` x :data:`HEIGHT` px from the top of :data:`SECTION`."""
    import asyncio
    import time

    import aiohttp

    deadline = time.monotonic() + TIMEOUT_SECONDS
    while not port_file.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    port = port_file.read_text().split()[0]
    async with aiohttp.ClientSession() as session:
        targets = await (await session.get(f"http://127.0.0.1:{port}/json")).json()
        tab = next(target for target in targets if target["type"] == "page")
        async with session.ws_connect(tab["webSocketDebuggerUrl"], max_msg_size=0) as socket:
            calls = 0

            async def call(method: str, **params: object) -> dict[str, object]:
                nonlocal calls
                calls += 1
                await socket.send_json({"id": calls, "method": method, "params": params})
                while True:
                    message = await socket.receive_json()
                    if message.get("id") == calls:
                        return dict(message.get("result", {}))

            await call("Page.navigate", url=url)
            # Every plot loaded first (they are lazy, and each one above the section moves it).
            where = (
                "(() => { const images = Array.from(document.images);"
                " images.forEach(image => { image.loading = 'eager'; });"
                f" const section = document.getElementById({SECTION!r});"
                " if (!section || !images.every(image => image.complete)) return null;"
                " return section.getBoundingClientRect().top + window.scrollY; })()"
            )
            top = None
            while top is None and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                result = await call("Runtime.evaluate", expression=where, returnByValue=True)
                top = dict(result.get("result", {})).get("value")  # type: ignore[call-overload]
            if top is None:
                raise SystemExit(f"the report's {SECTION} section did not load")
            clip = {"x": 0, "y": max(float(top) - 12, 0), "width": WIDTH, "height": HEIGHT}
            shot = await call(
                "Page.captureScreenshot", clip={**clip, "scale": 1}, captureBeyondViewport=True
            )
            return str(shot["data"])


def regenerate(out: Path, logs: Path | None = None) -> Path | None:
    """Write the screenshot to ``out``; None (nothing written) without Chromium."""
    browser = find_browser()
    if browser is None:
        return None
    from research_taste.reporting.report import write_report

    with tempfile.TemporaryDirectory(prefix="report-screenshot-") as name:
        scratch = Path(name)
        source = logs if logs is not None else demo_logs(scratch)
        site = scratch / "site"
        write_report(str(source), site, bundle=False)
        return screenshot(browser, site / "index.html", out, scratch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logs", type=Path, help="a demo sweep's log folder (default: run one)")
    parser.add_argument("--out", type=Path, default=SCREENSHOT, help="the PNG to write")
    args = parser.parse_args(argv)
    written = regenerate(args.out, args.logs)
    if written is None:
        print("skipped: no Chromium on the PATH (apt-get install -y chromium); nothing written")
        return 0
    print(f"wrote {written.relative_to(ROOT) if written.is_relative_to(ROOT) else written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
