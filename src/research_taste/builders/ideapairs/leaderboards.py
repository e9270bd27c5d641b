"""Leaderboard readers: PapersWithCode evaluation tables (JSON) and NLP-progress (markdown).

Both readers return :class:`Leaderboard` objects holding every entry exactly as read, so the
builder can account for each one (kept, or dropped with a reason). An entry's leaderboard rank
is its row position: neither format stores a rank, and both list rows best-first (NLP-progress
by convention, PapersWithCode tables as scraped from the ranked site).

PapersWithCode format (the ``evaluation-tables.json`` dump; paperswithcode/sota-extractor
``data/tasks/*.json``): ``[Task{task, description, subtasks[Task], datasets[Dataset]}]``,
``Dataset{dataset|subdataset, description, subdatasets[Dataset], sota{metrics, rows}}``,
``Row{model_name, paper_title, paper_url, paper_date, metrics{name: value}}``.

NLP-progress format (sebastianruder/NLP-progress ``<language>/*.md``): ``#`` task headings,
``##``/``###`` dataset headings, pipe tables ``| Model | metric ... | Paper / Source | Code |``
with the paper as a markdown link ``[title](url)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from research_taste.builders.ideapairs.boards import (
    EXTRACTION_DEBRIS,
    ISO_DAY,
    Entry,
    Leaderboard,
    clean_text,
    find_year,
    make_leaderboard,
)
from research_taste.builders.ideapairs.pwc_archive import nlp_tasks, read_parquet_tasks
from research_taste_evals.core.data import DataError, read_json

_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_SEPARATOR_CELL = re.compile(r"^:?-{2,}:?$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# Columns of an NLP-progress table that are not metrics.
_PAPER_HEADER = re.compile(r"paper|source|reference", re.IGNORECASE)
_CODE_HEADER = re.compile(r"^code$|^official|^github", re.IGNORECASE)


def _text(value: Any, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: expected a string, got {type(value).__name__}")
    return value


def _pwc_rows(source: Path, rows: Any, where: str) -> list[Entry]:
    if not isinstance(rows, list):
        raise DataError(f"{source}: {where}.rows: expected a list, got {type(rows).__name__}")
    entries = []
    for index, row in enumerate(rows):
        at = f"{source}: {where}.rows[{index}]"
        if not isinstance(row, dict):
            raise DataError(f"{at}: expected an object, got {type(row).__name__}")
        cells = row.get("metrics") or {}
        if not isinstance(cells, dict):
            raise DataError(f"{at}.metrics: expected an object, got {type(cells).__name__}")
        method = clean_text(_text(row.get("model_name"), f"{at}.model_name"))
        url = _text(row.get("paper_url"), f"{at}.paper_url")
        paper_date = _text(row.get("paper_date"), f"{at}.paper_date")
        year, year_source = find_year(method, url, paper_date)
        day = ISO_DAY.match(paper_date.strip())
        entries.append(
            Entry(
                position=index,
                method=method,
                paper_title=clean_text(_text(row.get("paper_title"), f"{at}.paper_title")),
                paper_url=url,
                year=year,
                year_source=year_source,
                cells=dict(cells),
                date=day.group(1) if day else "",
            )
        )
    return entries


def _pwc_datasets(
    source: Path, task: str, datasets: Any, where: str, prefix: str = ""
) -> Iterator[Leaderboard]:
    if not isinstance(datasets, list):
        raise DataError(f"{source}: {where}: expected a list, got {type(datasets).__name__}")
    for index, dataset in enumerate(datasets):
        at = f"{where}[{index}]"
        if not isinstance(dataset, dict):
            raise DataError(f"{source}: {at}: expected an object, got {type(dataset).__name__}")
        label = dataset.get("dataset") or dataset.get("subdataset") or ""
        name = f"{prefix} - {label}" if prefix else str(label)
        sota = dataset.get("sota") or {}
        if not isinstance(sota, dict):
            raise DataError(f"{source}: {at}.sota: expected an object")
        rows = _pwc_rows(source, sota.get("rows") or [], f"{at}.sota")
        description = EXTRACTION_DEBRIS.sub(
            " ", _text(dataset.get("description"), f"{source}: {at}.description")
        )
        if rows:
            yield make_leaderboard(source, at, task, name, description, rows)
        yield from _pwc_datasets(
            source, task, dataset.get("subdatasets") or [], f"{at}.subdatasets", name
        )


def _pwc_tasks(source: Path, tasks: Any, where: str) -> Iterator[Leaderboard]:
    if not isinstance(tasks, list):
        raise DataError(f"{source}: {where}: expected a list of tasks, got {type(tasks).__name__}")
    for index, task in enumerate(tasks):
        at = f"{where}[{index}]"
        if not isinstance(task, dict) or not isinstance(task.get("task"), str):
            raise DataError(f"{source}: {at}: expected an object with a string 'task'")
        yield from _pwc_datasets(source, task["task"], task.get("datasets") or [], f"{at}.datasets")
        yield from _pwc_tasks(source, task.get("subtasks") or [], f"{at}.subtasks")


def read_pwc_json(path: Path, nlp_only: bool = False) -> list[Leaderboard]:
    """Every leaderboard with at least one row in a PapersWithCode evaluation-tables file.

    ``.parquet`` files are the HF ``pwc-archive/evaluation-tables`` shards (same schema).
    ``nlp_only``: only tasks in the NLP category (``pwc_archive.nlp_tasks``).
    """
    tasks = read_parquet_tasks(path) if path.suffix == ".parquet" else read_json(path)
    if nlp_only and isinstance(tasks, list):
        if not any(isinstance(t, dict) and "categories" in t for t in tasks):
            raise DataError(
                f"{path}: no task has a 'categories' field, so its NLP leaderboards cannot be "
                "told apart (pass the files as leaderboards to read every board)"
            )
        tasks = nlp_tasks(tasks)
    return _number_repeats(list(_pwc_tasks(path, tasks, "tasks")))


def _number_repeats(boards: list[Leaderboard]) -> list[Leaderboard]:
    """Boards of one file that share a name get "(table N)" from the second on, as the
    markdown reader does: they are different tables (e.g. NLP-progress SQL parsing's smaller
    datasets, all scraped as "Example"), and one name must name one board."""
    seen: dict[str, int] = {}
    named = []
    for board in boards:
        seen[board.name] = count = seen.get(board.name, 0) + 1
        if count > 1:
            dataset = f"{board.dataset} (table {count})".strip()
            name = f"{board.task} on {dataset}" if board.dataset else f"{board.task} {dataset}"
            board = replace(board, dataset=dataset if board.dataset else "", name=name)
        named.append(board)
    return named


def _split_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _markdown_entry(position: int, cells: list[str], header: list[str]) -> Entry:
    paper_cells = [c for h, c in zip(header, cells, strict=False) if _PAPER_HEADER.search(h)]
    link = _LINK.search(paper_cells[0]) if paper_cells else None
    title, url = (link.group(1).strip(), link.group(2).strip()) if link else ("", "")
    if not link and paper_cells:
        title = clean_text(paper_cells[0])
    method = clean_text(_LINK.sub(r"\1", cells[0]))
    metrics = {
        h: c
        for h, c in zip(header[1:], cells[1:], strict=False)
        if not _PAPER_HEADER.search(h) and not _CODE_HEADER.search(h)
    }
    year, year_source = find_year(method, url, None)
    return Entry(position, method, title, url, year, year_source, metrics)


def read_nlp_progress_markdown(path: Path) -> list[Leaderboard]:
    """Every leaderboard-like pipe table (it has a paper/source column) of an NLP-progress file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 text: byte {error.start}: {error.reason}") from error
    task, dataset = path.stem.replace("_", " "), ""
    description_lines: list[str] = []
    boards: list[Leaderboard] = []
    tables_here = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = _HEADING.match(line)
        if heading:
            level, title = len(heading.group(1)), heading.group(2).strip()
            if level == 1:
                task, dataset = title, ""
            else:
                dataset = title
            description_lines, tables_here = [], 0
            index += 1
            continue
        is_table = (
            line.lstrip().startswith("|")
            and index + 1 < len(lines)
            and all(_SEPARATOR_CELL.match(c.replace(" ", "")) for c in _split_row(lines[index + 1]))
        )
        if not is_table:
            description_lines.append(line)
            index += 1
            continue
        header = _split_row(line)
        table_line = index + 1
        index += 2
        rows = []
        while index < len(lines) and lines[index].lstrip().startswith("|"):
            rows.append(_split_row(lines[index]))
            index += 1
        if not any(_PAPER_HEADER.search(h) for h in header[1:]):
            continue
        tables_here += 1
        label = dataset if tables_here == 1 else f"{dataset} (table {tables_here})"
        entries = [_markdown_entry(i, cells, header) for i, cells in enumerate(rows)]
        if entries:
            boards.append(
                make_leaderboard(
                    path, f"line {table_line}", task, label, "\n".join(description_lines), entries
                )
            )
    return boards


def read_leaderboards(
    paths: list[Path], nlp_only: bool = False, skipped: list[dict[str, str]] | None = None
) -> list[Leaderboard]:
    """Leaderboards from each path: ``.json``/``.parquet`` files, ``.md`` files, or folders.

    ``skipped``: when given, a file found inside a folder that cannot be read (e.g.
    sota-extractor's ``examples/example_json_format.json``, JSON with comments) is listed there
    with the reason instead of stopping the build; a file named directly must always read.
    """
    boards: list[Leaderboard] = []
    for path in paths:
        if not path.exists():
            raise DataError(f"{path}: leaderboard file does not exist")
        files = (
            sorted(p for p in path.rglob("*") if p.suffix in (".json", ".md", ".parquet"))
            if path.is_dir()
            else [path]
        )
        for file in files:
            try:
                boards.extend(_read_file(file, nlp_only))
            except DataError as error:
                if skipped is None or not path.is_dir():
                    raise
                skipped.append({"file": str(file), "reason": str(error)})
    return boards


def _read_file(file: Path, nlp_only: bool) -> list[Leaderboard]:
    if file.suffix in (".json", ".parquet"):
        return read_pwc_json(file, nlp_only)
    if file.suffix == ".md":
        return read_nlp_progress_markdown(file)
    raise DataError(
        f"{file}: expected a .json or .parquet (PapersWithCode) or .md (NLP-progress) file"
    )
