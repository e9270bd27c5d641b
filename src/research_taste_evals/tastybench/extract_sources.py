"""What ``tastybench_extract`` reads: each paper's source text (its abstract for an idea, its
full text for a summary) and the one-sample-per-paper dataset built from them."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.core.data import DataError, read_csv, resolve_data
from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    ExtractKind,
    PaperSet,
    locate,
)

FULLTEXT_SUFFIXES = (".txt", ".md")


def _sources_from_csv(path: Path, column: str) -> dict[str, str]:
    rows = read_csv(path)
    if rows and not {"paper_id", column} <= set(rows[0]):
        raise DataError(f"{path}: expected columns paper_id,{column} (got {sorted(rows[0])})")
    return {row["paper_id"]: row[column].strip() for row in rows if (row[column] or "").strip()}


def load_sources(
    paper_set: PaperSet,
    kind: ExtractKind,
    data_path: str | None,
    sources_path: str | None,
    built: tuple[dict[str, str], dict[str, str]] | None = None,
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(paper_id, title, source text) per paper with a source, and the ids without one.

    ``built``: a built set's titles and abstracts (``built_set.built_titles_and_abstracts``),
    read instead of the upstream files.
    """
    built_abstracts: dict[str, str] | None = None
    if built is not None:
        titles, built_abstracts = built
    else:
        truth_path, _ = locate(PAPER_FILES[paper_set], data_path)
        titles = {row["paperId"]: row["title"] for row in read_csv(truth_path)}
    if sources_path is not None:
        path = resolve_data(None, sources_path).path
        if kind == "summary" and path.is_dir():
            sources = {
                file.stem: file.read_text(encoding="utf-8").strip()
                for file in sorted(path.iterdir())
                if file.suffix in FULLTEXT_SUFFIXES
            }
        else:
            sources = _sources_from_csv(path, "abstract" if kind == "idea" else "fulltext")
    elif kind == "idea" and built_abstracts is not None:
        sources = built_abstracts
    elif kind == "idea" and IDEA_FILES[paper_set] is not None:
        pinned = IDEA_FILES[paper_set]
        assert pinned is not None
        sources = _sources_from_csv(locate(pinned, data_path)[0], "abstract")
    else:
        needed = "abstracts (CSV paper_id,abstract)" if kind == "idea" else "full texts"
        raise DataError(f"paper_set '{paper_set}' has no upstream {needed}: pass sources_path")
    found = [(pid, title, sources[pid]) for pid, title in titles.items() if sources.get(pid)]
    missing = [pid for pid in titles if not sources.get(pid)]
    if not found:  # Inspect would stop on an empty dataset with a long traceback
        where = sources_path or data_path or PAPER_FILES[paper_set].describe()
        shape = (
            f"<paper_id>{'/'.join(FULLTEXT_SUFFIXES)} files or a CSV with paper_id,fulltext"
            if kind == "summary"
            else "a CSV with paper_id,abstract"
        )
        raise DataError(
            f"{where}: no {kind} source for any of the {len(titles)} papers (expected {shape}, "
            "keyed by the papers' ids); add them or pass -T sources_path=<their location>"
        )
    return found, missing


def extraction_dataset(
    found: list[tuple[str, str, str]], kind: ExtractKind, template: str
) -> MemoryDataset:
    """One sample per paper with a source: ``template`` filled with its abstract or full text."""
    field = "abstract" if kind == "idea" else "fulltext"
    samples = [
        Sample(
            id=paper_id,
            input=fill_template(template, **{field: source}),
            metadata={
                "paper_id": paper_id,
                "title": title,
                "kind": kind,
                "abstract": source if kind == "idea" else None,
            },
        )
        for paper_id, title, source in found
    ]
    return MemoryDataset(samples=samples, name=f"tastybench-extract-{kind}", shuffled=False)
