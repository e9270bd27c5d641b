"""SciJudgeBench test helpers: rows in the dataset card's format, the pair bootstrap by hand."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np


def paper(arxiv_id: str, date: str, citations: int, abstract: str | None = None) -> dict[str, Any]:
    """One paper's fields (title and abstract made from its id)."""
    return {
        "arxiv_id": arxiv_id,
        "title": f"Study number {arxiv_id} of invented things",
        "abstract": f"We report invented findings {arxiv_id}." if abstract is None else abstract,
        "date": date,
        "citations": citations,
        "category": "Computer Science",
        "subcategory": "cs.LG",
    }


def row(a: dict[str, Any], b: dict[str, Any], answer: str | None = None, words: str = "") -> dict:
    """A row in the card's format: paper A shown first; the answer by citations unless given."""
    shown = "\n\n".join(
        f"Paper {side} (Published: {p['date']}):\nTitle: {p['title']}\nAbstract: {p['abstract']}"
        for side, p in (("A", a), ("B", b))
    )
    record: dict[str, Any] = {
        "messages": [
            {"role": "system", "content": "You judge papers."},
            {"role": "user", "content": f"Which paper is cited more?{words}\n\n{shown}"},
        ],
        "correct_answer": answer or ("A" if a["citations"] > b["citations"] else "B"),
    }
    for side, p in (("a", a), ("b", b)):
        record |= {f"paper_{side}_{key}": value for key, value in p.items()}
    return record


def write_rows(path: Path, rows: Iterable[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def hand_ci(means: list[float], resamples: int, seed: int) -> tuple[float, float]:
    """The seeded percentile bootstrap over pairs, written out: resample the pair means with
    replacement, take each resample's mean, read the 2.5th and 97.5th percentiles."""
    rng = np.random.default_rng(seed)
    values = [float(np.mean([means[i] for i in rng.integers(0, len(means), size=len(means))]))
              for _ in range(resamples)]  # fmt: skip
    low, high = np.quantile(values, [0.025, 0.975])
    return float(low), float(high)
