"""The report as one static page (``index.html``) beside a bundled ``inspect view``.

``inspect view bundle`` copies the logs and Inspect's viewer into ``viewer/``; each leaderboard
row links to its own log there (``viewer/index.html#/logs/<log path>``), so a team can publish
the whole folder as it is, on any static host.
"""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from research_taste_evals.reporting.runs import Excluded

VIEWER_DIR = "viewer"

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.3em 0; }
.note { color: #555; font-size: 0.9em; }
"""


def bundle_viewer(log_dir: str, out_dir: Path) -> Path:
    """Run ``inspect view bundle`` for ``log_dir`` into ``out_dir/viewer``."""
    target = out_dir / VIEWER_DIR
    command = [sys.executable, "-m", "inspect_ai", "view", "bundle"]
    command += ["--log-dir", log_dir, "--output-dir", str(target), "--overwrite"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return target


def transcript_link(log_dir: str, log: str) -> str:
    """The bundled viewer's URL of ``log`` (a location under ``log_dir``), relative to the page."""
    root = log_dir.rstrip("/").removeprefix("file://")
    relative = log.removeprefix("file://").removeprefix(root).lstrip("/")
    return f"{VIEWER_DIR}/index.html#/logs/{quote(relative)}"


def html_table(lines: list[list[str]], links: list[str] | None = None) -> str:
    """An HTML table from header + rows; ``links`` adds a transcript link per row."""
    header = lines[0] + (["transcripts"] if links else [])
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"]
    for index, line in enumerate(lines[1:]):
        cells = [f"<td>{html.escape(value)}</td>" for value in line]
        if links:
            cells.append(f'<td><a href="{html.escape(links[index])}">open</a></td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def excluded_html(excluded: list[Excluded]) -> str:
    if not excluded:
        return "<p>None.</p>"
    lines = [["log", "task", "model", "reason"]]
    lines += [[Path(e.log).name, e.task, e.model, e.reason] for e in excluded]
    return html_table(lines)


def page(title: str, intro: str, sections: list[str], excluded: list[Excluded]) -> str:
    """The whole page: sections (each a task's heading, table and plots), then exclusions."""
    body = "\n".join(sections)
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
        f"<h1>{html.escape(title)}</h1>\n<p class='note'>{html.escape(intro)}</p>\n{body}\n"
        f"<h2 id='excluded'>Excluded logs</h2>\n{excluded_html(excluded)}\n</body></html>\n"
    )
