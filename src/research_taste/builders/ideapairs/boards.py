"""What a leaderboard is once read, whatever its source: boards of entries (method, paper, year,
scores), a score cell read as a number or marked missing/unparseable, and an entry's year from
its paper date, method name or arXiv/ACL link. The readers of each source are leaderboards.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from research_taste.builders.ideapairs.descriptions import clean_description
from research_taste_evals.core.text import content_id

CellStatus = Literal["ok", "missing", "unparseable"]
YearSource = Literal["paper_date", "model_name", "arxiv_id", "acl_id", "none"]
# Cells that mean "not reported" rather than a value that failed to parse.
_MISSING_CELLS = {"", "-", "--", "–", "—", "n/a", "na", "none", "null", "?", "x"}
# Decoration around a reported number: footnote marks, bold, a BOM, percent signs.
_DECORATION = "\ufeff*†‡§¶#^_ \t%"
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_PLUS_MINUS = re.compile(r"\s*(±|\+/-|\+-).*$")
# A citation year in the model name: "(Devlin et al., 2018)", "(2018a)", "Lee et al. 2016".
_YEAR_IN_NAME = re.compile(
    r"\((?:[^()]*?[,\s])?((?:19|20)\d\d)[a-z]?\)|et al\.?,?\s*((?:19|20)\d\d)\b"
)
_ARXIV_NEW = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{2})(\d{2})\.\d{4,5}", re.IGNORECASE)
_ACL_OLD = re.compile(
    r"(?:aclweb\.org/anthology|aclanthology\.org)/(?:[A-Z]/[A-Z]\d\d/)?([A-Z])(\d\d)-\d{4}"
)
_ACL_NEW = re.compile(r"aclanthology\.org/((?:19|20)\d\d)\.")
_DATE = re.compile(r"^((?:19|20)\d\d)-\d\d")
ISO_DAY = re.compile(r"^((?:19|20)\d\d-[01]\d(?:-[0-3]\d)?)")
_FIRST_ARXIV_YEAR = 1991
# Extraction debris in the scraped texts: placeholders of the markdown-to-JSON conversion that
# stood for HTML tags (sota-extractor nlp-progress.json: "Bi-LSTM\x02wzxhzdk:12\x03att+LEX")
# and the HTML tags themselves in NLP-progress markdown ("Bi-LSTM<sub>att+LEX</sub>").
EXTRACTION_DEBRIS = re.compile(
    r"\x02wzxhzdk:\d+\x03|</?[a-zA-Z][a-zA-Z0-9]*\s*/?>|[\x00-\x08\x0b-\x1f]"
)


def clean_text(text: str) -> str:
    """A scraped name or title without extraction debris, its whitespace collapsed."""
    return " ".join(EXTRACTION_DEBRIS.sub(" ", text).split())


@dataclass(frozen=True)
class Entry:
    """One leaderboard row as read: rank is ``position + 1``."""

    position: int
    method: str
    paper_title: str
    paper_url: str
    year: int | None
    year_source: YearSource
    cells: dict[str, Any]
    date: str = ""  # YYYY-MM-DD or YYYY-MM when the row's paper_date gives it


@dataclass(frozen=True)
class Leaderboard:
    """One benchmark leaderboard (a task on a dataset) with every row as read."""

    board_id: str
    name: str
    task: str
    dataset: str
    description: str
    source: str
    entries: tuple[Entry, ...]

    @property
    def columns(self) -> list[str]:
        """Metric columns in first-seen order over the rows."""
        seen: dict[str, None] = {}
        for entry in self.entries:
            seen.update(dict.fromkeys(entry.cells))
        return list(seen)


def parse_cell(raw: Any) -> tuple[CellStatus, float | None]:
    """A metric cell as ("ok", value), ("missing", None) or ("unparseable", None).

    Numbers pass through; strings lose footnote marks, percent signs, thousands commas and a
    trailing "± spread". "-", "n/a" and empty cells are missing (not reported), any other text
    that is not one number is unparseable (e.g. "90.1/85.3").
    """
    if isinstance(raw, bool):
        return "unparseable", None
    if isinstance(raw, int | float):
        return ("ok", float(raw)) if raw == raw and abs(raw) != float("inf") else ("missing", None)
    if raw is None:
        return "missing", None
    if not isinstance(raw, str):
        return "unparseable", None
    text = _PLUS_MINUS.sub("", raw.strip(_DECORATION)).strip(_DECORATION).replace(",", "")
    if text.lower() in _MISSING_CELLS:
        return "missing", None
    if _NUMBER.match(text):
        return "ok", float(text)
    return "unparseable", None


def find_year(method: str, paper_url: str, paper_date: str | None) -> tuple[int | None, YearSource]:
    """The entry's publication year and where it came from, trying the most reliable first."""
    if paper_date:
        match = _DATE.match(paper_date.strip())
        if match:
            return int(match.group(1)), "paper_date"
    cited = _YEAR_IN_NAME.findall(method)
    if cited:
        return int(next(y for y in cited[-1] if y)), "model_name"
    match = _ARXIV_NEW.search(paper_url or "")
    if match and 2000 + int(match.group(1)) >= _FIRST_ARXIV_YEAR:
        return 2000 + int(match.group(1)), "arxiv_id"
    match = _ACL_NEW.search(paper_url or "")
    if match:
        return int(match.group(1)), "acl_id"
    match = _ACL_OLD.search(paper_url or "")
    if match:
        two = int(match.group(2))
        return (1900 + two if two > 50 else 2000 + two), "acl_id"
    return None, "none"


def make_leaderboard(
    source: Path, locator: str, task: str, dataset: str, description: str, rows: list[Entry]
) -> Leaderboard:
    """A leaderboard; its id hashes the file name and where in the file it sits (names repeat)."""
    name = f"{task} on {dataset}" if dataset else task
    return Leaderboard(
        board_id=content_id(source.name, locator, name),
        name=name,
        task=task,
        dataset=dataset,
        description=clean_description(description),
        source=str(source),
        entries=tuple(rows),
    )
