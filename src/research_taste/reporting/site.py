"""The report as one static page (``index.html``), readable at 1280 px with no script.

Per task: a compact ranked leaderboard (model, samples, the first :data:`MAIN_METRICS` headline
metrics with their intervals, unparsed and re-asked rates, a transcript link), each row followed
by a closed ``<details>`` row holding the rest (other headline metrics, failure counts, tokens,
cost, date, log); then the metrics' one-line meanings from ``eval.yaml`` and one plot per
metric. A table of contents on top, the excluded logs at the end. Plain HTML and CSS (no
script, no font or library from a CDN), so it works from any static host and offline.
"""

from __future__ import annotations

import html
from pathlib import Path

from research_taste.reporting.cells import Cell, cell, fmt
from research_taste.reporting.controlled import (
    controlled_for,
    controlled_text,
    ranking_metric,
    recognition_columns,
)
from research_taste.reporting.families import TaskReportSpec
from research_taste.reporting.leaderboard import (
    ANSWER_SHAPE,
    answer_shape,
    config_label,
    failure_text,
    ranked,
    varying_keys,
)
from research_taste.reporting.recognition import recognition_text
from research_taste.reporting.runs import Excluded, Run

MAIN_METRICS = 4  # headline metrics in the table itself; the others sit in the details row

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em 2em;
  color: #1d1d1f; max-width: 1400px; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 2em; font-size: 1.3em; }
nav ol { columns: 2; font-size: 0.95em; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 5px 6px; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
th { background: #f3f4f6; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ci, .config { display: block; color: #666; font-size: 0.85em; }
tr.more td { border-bottom: 2px solid #ccc; padding-top: 0; font-size: 0.9em; }
tr.more summary { color: #2d5fa8; cursor: pointer; }
tr.partial td { background: #fff7e6; }
.badge { background: #f0ad4e; color: #fff; border-radius: 3px; padding: 0 4px;
  font-size: 0.8em; }
dl.figures { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 4px 0; }
dl.figures dt { font-weight: 600; } dl.figures dd { margin: 0; }
th { overflow-wrap: normal; font-size: 0.85em; }
.meanings { font-size: 0.88em; color: #333; columns: 2; column-gap: 2em; padding-left: 1.2em; }
.meanings li { break-inside: avoid; } .meanings code { font-weight: 600; }
.plots { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 8px; }
.plots img { max-width: 100%; border: 1px solid #eee; }
.note { color: #555; font-size: 0.92em; }
.wide { overflow-x: auto; max-width: 100%; }
table.plain { table-layout: auto; }
table.plain td, table.plain th { overflow-wrap: normal; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _breakable(name: str) -> str:
    """A metric name that may wrap after its underscores (never inside a word)."""
    return "_<wbr>".join(_e(part) for part in name.split("_"))


def _cell_html(value: Cell) -> str:
    if value.value is None:
        return "–"
    text = _e(fmt(value.value))
    if value.low is not None and value.high is not None:
        text += f"<span class='ci'>[{_e(fmt(value.low))}, {_e(fmt(value.high))}]</span>"
    return text


def _details(run: Run, spec: TaskReportSpec, rest: list[str], link: str) -> str:
    figures = [(name, _cell_html(cell(run, name))) for name in rest]
    figures += [
        ("other failures", _e(failure_text(run, spec))),
        ("samples", _e(run.counts)),
        ("tokens", f"{run.tokens:,}"),
        ("cost (USD)", _e(f"{run.cost:.2f}" if run.cost is not None else "not reported")),
        ("date", _e(run.created[:16].replace("T", " "))),
        ("configuration", _e(run.config_text or "–")),
        ("log", f"<a href='{_e(link)}'>{_e(Path(run.relpath).name)}</a>"),
    ]
    items = "".join(f"<dt>{_e(name)}</dt><dd>{value}</dd>" for name, value in figures)
    return f"<details><summary>all figures</summary><dl class='figures'>{items}</dl></details>"


def leaderboard_html(
    spec: TaskReportSpec,
    rows: list[Run],
    metrics: list[str],
    links: dict[str, str],
    include_partial: bool,
) -> str:
    """The task's compact ranked table; ``links`` maps a run's log to its transcript URL."""
    shown, rest = metrics[:MAIN_METRICS], metrics[MAIN_METRICS:]
    keys = varying_keys(rows)
    control = controlled_for(spec.task, metrics)  # beside the raw headline, with its n
    recognition = recognition_columns(spec.task)  # every dated table
    figures = [*shown[:1], *([control.column] if control else []), *recognition, *shown[1:]]
    head = ["#", "model", "samples", *figures, "unparsed", "re-asked", "transcripts"]
    # A phrase, not a figure: the controlled column's reason, the clean cutoff's source.
    wide = {**({control.column: "10em"} if control else {}), "clean_cutoff": "7.5em"}
    spans = [wide.get(name, "auto") for name in figures]
    widths = ["2.5em", "15%", "5em", *spans, "5.5em", "5.5em", "6.5em"]
    numeric = {0, 2, *range(3, 3 + len(figures) + 2)}
    cols = "".join(f"<col style='width:{w}'>" for w in widths)
    header = "".join(
        f"<th class='num'>{_breakable(h)}</th>" if i in numeric else f"<th>{_breakable(h)}</th>"
        for i, h in enumerate(head)
    )
    out = [f"<table class='leaderboard'><colgroup>{cols}</colgroup><tr>{header}</tr>"]
    by = ranking_metric(spec.task, rows, metrics, include_partial)
    for rank, run in ranked(rows, by, include_partial):
        config = config_label(run, keys)
        model = _e(run.model)
        if run.partial:
            model += " <span class='badge'>partial</span>"
        if config != "-":
            model += f"<span class='config'>{_e(config)}</span>"
        cells = [
            f"<td class='num'>{_e(rank)}</td>",
            f"<td>{model}</td>",
            f"<td class='num'>{_e(f'{run.completed_samples}/{run.total_samples}')}</td>",
            *(f"<td class='num'>{_cell_html(cell(run, name))}</td>" for name in shown[:1]),
            *([f"<td class='num'>{_e(controlled_text(run, control))}</td>"] if control else []),
            *(f"<td class='num'>{_e(recognition_text(run, name))}</td>" for name in recognition),
            *(f"<td class='num'>{_cell_html(cell(run, name))}</td>" for name in shown[1:]),
            *(f"<td class='num'>{_e(answer_shape(run, name))}</td>" for name in ANSWER_SHAPE),
            f"<td><a href='{_e(links[run.log])}'>open</a></td>",
        ]
        css = " class='partial'" if run.partial else ""
        out.append(f"<tr{css}>" + "".join(cells) + "</tr>")
        details = _details(run, spec, rest, links[run.log])
        out.append(f"<tr class='more'><td></td><td colspan='{len(head) - 1}'>{details}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def meanings_html(names: list[str], spec: TaskReportSpec) -> str:
    """Each shown metric's one-line meaning (from the family's eval.yaml, ``spec.meaning``)."""
    items = [
        f"<li><code>{_e(name)}</code>: {_e(spec.meaning(name) or 'no description in eval.yaml')}"
        "</li>"
        for name in names
    ]
    return f"<ul class='meanings'>{''.join(items)}</ul>"


def images_html(paths: list[Path]) -> str:
    images = "".join(f"<img src='{_e(p.name)}' alt='{_e(p.stem)}' loading='lazy'>" for p in paths)
    return f"<div class='plots'>{images}</div>" if images else ""


def _soft(text: str) -> str:
    """``text`` escaped, free to wrap after ``/``, ``_`` and ``-`` (a model name, a round id)
    and nowhere inside a word."""
    escaped = _e(text)
    for mark in ("/", "_", "-"):
        escaped = escaped.replace(mark, f"{mark}<wbr>")
    return escaped


def table_html(lines: list[list[str]], empty: str = "No rows yet.") -> str:
    """A plain HTML table from header + rows, as wide as its cells need, in a box that scrolls
    sideways on a narrow page (a cell wraps only after ``/``, ``_``, ``-`` or a space); with no
    row, ``empty`` as a note instead of a bare header."""
    if len(lines) < 2:
        return f"<p class='note'>{_e(empty)}</p>"
    out = [
        "<div class='wide'><table class='plain'>",
        "<tr>" + "".join(f"<th>{_soft(h)}</th>" for h in lines[0]) + "</tr>",
    ]
    out += ["<tr>" + "".join(f"<td>{_soft(v)}</td>" for v in line) + "</tr>" for line in lines[1:]]
    return "\n".join([*out, "</table></div>"])


def excluded_html(excluded: list[Excluded]) -> str:
    if not excluded:
        return "<p>None.</p>"
    lines = [["log", "task", "model", "reason"]]
    lines += [[Path(e.log).name, e.task, e.model, e.reason] for e in excluded]
    return table_html(lines)


def contents_html(entries: list[tuple[str, str]]) -> str:
    items = "".join(f"<li><a href='#{_e(anchor)}'>{_e(text)}</a></li>" for anchor, text in entries)
    return f"<nav><h2>Contents</h2><ol>{items}</ol></nav>"


def page(
    title: str, intro: str, sections: list[tuple[str, str, str]], excluded: list[Excluded]
) -> str:
    """The whole page; ``sections`` are (anchor, heading, body) per task."""
    contents = contents_html(
        [(anchor, heading) for anchor, heading, _ in sections] + [("excluded", "Excluded logs")]
    )
    body = "\n".join(
        f"<section class='benchmark' id='{_e(anchor)}'><h2>{_e(heading)}</h2>\n{text}</section>"
        for anchor, heading, text in sections
    )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>\n"
        f"<h1>{_e(title)}</h1>\n<p class='note'>{intro}</p>\n{contents}\n{body}\n"
        f"<h2 id='excluded'>Excluded logs</h2>\n{excluded_html(excluded)}\n</body></html>\n"
    )
