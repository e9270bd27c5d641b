"""Which paper each idea comes from, and its text and date: arXiv first, then the
PapersWithCode ``papers-with-abstracts`` table (a local copy), for ``--fetch-papers``.

Dates and abstracts are fetched for every scored entry before the split (a ``--test-after``
cutoff needs them); full texts only for the ideas that are in a pair (one request each).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from research_taste.builders.ideapairs.pairing import PlannedPair
from research_taste.builders.ideapairs.papers import ArxivFetcher, Paper
from research_taste.builders.ideapairs.scoring import ScoredBoard
from research_taste.builders.ideapairs.splitting import paper_file_stem, paper_key
from research_taste_evals.core.data import DataError, read_json

_URL_PREFIX = re.compile(r"^https?://(www\.)?")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_DATE = re.compile(r"^((?:19|20)\d\d-\d\d(?:-\d\d)?)")
# An arXiv URL naming its version (``arxiv.org/abs/2106.01234v2``): that version is fetched.
_VERSIONED = re.compile(r"arxiv\.org/(?:abs|pdf)/([\w.\-/]+?v\d+)(?:\.pdf)?/?$", re.IGNORECASE)


def _url(value: str) -> str:
    return _URL_PREFIX.sub("", value.strip()).rstrip("/").lower()


def _title(value: str) -> str:
    return _NON_WORD.sub(" ", value.lower()).strip()


def _date(value: Any) -> str:
    match = _DATE.match(str(value or "").strip())
    return match.group(1) if match else ""


@dataclass
class AbstractsTable:
    """A local copy of ``papers-with-abstracts`` indexed by paper URL, arXiv id and title."""

    path: str
    by_url: dict[str, dict[str, Any]]
    by_arxiv: dict[str, dict[str, Any]]
    by_title: dict[str, dict[str, Any]]

    def find(self, key: str, url: str, title: str) -> dict[str, Any] | None:
        if key.startswith("arxiv:") and key[6:] in self.by_arxiv:
            return self.by_arxiv[key[6:]]
        return self.by_url.get(_url(url)) or self.by_title.get(_title(title))


def read_abstracts(path: Path) -> AbstractsTable:
    """The JSON dump (a list of papers) or parquet shards (a file or a folder of them)."""
    if not path.exists():
        raise DataError(f"{path}: abstracts table does not exist (--abstracts)")
    if path.is_dir() or path.suffix == ".parquet":
        import pyarrow.parquet as pq

        shards = sorted(path.glob("**/*.parquet")) if path.is_dir() else [path]
        if not shards:
            raise DataError(f"{path}: no .parquet shard in the abstracts folder (--abstracts)")
        rows: list[Any] = [r for s in shards for r in pq.read_table(s).to_pylist()]
    else:
        rows = read_json(path)
    if not isinstance(rows, list):
        raise DataError(f"{path}: expected a list of papers (papers-with-abstracts)")
    table = AbstractsTable(str(path), {}, {}, {})
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("abstract"), str):
            raise DataError(f"{path}: paper {index}: expected an object with a string 'abstract'")
        for value, index_map, norm in (
            (row.get("paper_url"), table.by_url, _url),
            (row.get("url_abs"), table.by_url, _url),
            (row.get("arxiv_id"), table.by_arxiv, str.strip),
            (row.get("title"), table.by_title, _title),
        ):
            if isinstance(value, str) and value.strip():
                index_map.setdefault(norm(value), row)
    return table


def _from_table(key: str, row: dict[str, Any]) -> Paper:
    return Paper(
        key=key,
        version="",
        title=str(row.get("title") or ""),
        abstract=" ".join(str(row["abstract"]).split()),
        full_text="",
        date=_date(row.get("date")),
        source="pwc_abstract",
    )


@dataclass
class Fetched:
    """The papers found for the scored entries (by paper key), and those without one."""

    papers: dict[str, Paper] = field(default_factory=dict)
    not_found: list[dict[str, str]] = field(default_factory=list)
    abstracts: str | None = None

    def dates(self) -> dict[str, str]:
        return {key: paper.date for key, paper in self.papers.items() if paper.date}

    def report(self, fetcher: ArxivFetcher | None, pairs: Sequence[PlannedPair]) -> dict[str, Any]:
        """What was fetched, from where, and how many requests it took (the build report)."""
        if fetcher is None:
            return {"fetched": False}
        used = {p.board.paper_keys[i] for p in pairs for i in (p.better, p.worse)}
        mine = [paper for key, paper in self.papers.items() if key in used]
        return {
            "fetched": True,
            "arxiv_api": fetcher.api,
            "arxiv_html": fetcher.html,
            "abstracts_table": self.abstracts,
            "requests": fetcher.stats.requests,
            "answered_from_cache": fetcher.stats.cached,
            "papers_of_paired_ideas": len(used),
            "by_source": {
                s: sum(p.source == s for p in mine) for s in sorted({p.source for p in mine})
            },
            "without_text": [n for n in self.not_found if n["paper"] in used],
            "pinned_versions": sorted(p.version for p in mine if p.version),
            "arxiv_ids_dropped": dict(sorted(fetcher.stats.dropped.items())),
            "unanswered_ids": sorted(set(fetcher.stats.unanswered)),
            "full_text_errors": dict(sorted(fetcher.stats.text_errors.items())),
        }


def fetch_metadata(
    boards: Sequence[ScoredBoard], fetcher: ArxivFetcher, abstracts: str | Path | None
) -> Fetched:
    """Every scored entry's paper (by paper key) with abstract and date, and those not found."""
    table = read_abstracts(Path(abstracts)) if abstracts else None
    entries = {paper_key(e): e for b in boards for e in b.entries}
    asked = {k: k[6:] for k in entries if k.startswith("arxiv:")}
    for board in boards:  # an explicit version in a leaderboard's URL is kept
        for entry in board.entries:
            match = _VERSIONED.search(entry.paper_url or "")
            if match and paper_key(entry) in asked:
                asked[paper_key(entry)] = match.group(1)
    found = fetcher.metadata(asked.values())
    fetched = Fetched(abstracts=str(abstracts) if abstracts else None)
    for key, entry in sorted(entries.items()):
        record = found.get(asked[key]) if key in asked else None
        row = table.find(key, entry.paper_url, entry.paper_title) if table else None
        if record:
            fetched.papers[key] = Paper(
                key,
                record["version"],
                record["title"],
                record["abstract"],
                "",
                record["date"],
                "arxiv_abstract",
            )
        elif row is not None:
            fetched.papers[key] = _from_table(key, row)
        else:
            reason = fetcher.stats.dropped.get(asked.get(key, ""), "")
            fetched.not_found.append(
                {"paper": key, "method": entry.method, **({"reason": reason} if reason else {})}
            )
    return fetched


def fetch_full_texts(
    pairs: Sequence[PlannedPair], fetched: Fetched, fetcher: ArxivFetcher
) -> dict[str, str]:
    """The texts of the paired ideas' papers by paper file stem, with the arXiv full text where
    arXiv renders one (``extraction.extract_pairs`` looks texts up by that stem)."""
    keys = sorted({p.board.paper_keys[i] for p in pairs for i in (p.better, p.worse)})
    texts: dict[str, str] = {}
    for key in keys:
        paper = fetched.papers.get(key)
        if paper is None:
            continue
        full = fetcher.full_text(paper.version) if paper.version else ""
        if full:
            paper = fetched.papers[key] = replace(paper, full_text=full, source="arxiv_full_text")
        texts[paper_file_stem(key)] = paper.text
    return texts
