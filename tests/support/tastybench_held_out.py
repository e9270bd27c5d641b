"""TastyBench's held-out world for the recall tests: paper files in upstream's layout and a
scripted model that knows exactly the papers published before its cutoff
(tests/tastybench/test_recall.py, test_recall_clean.py)."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model

from research_taste_evals.core.recognition import is_probe_prompt
from research_taste_evals.core.velocity import ols_slope
from research_taste_evals.tastybench.baselines import project_texts
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    UPSTREAM_DATA_DIR,
)

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
Metrics = Callable[[EvalLog], dict[str, float]]
FAST = {"display": "none", "max_connections": 1000, "max_samples": 1000, "log_realtime": False}


def write_papers(directory: Path, papers: list[dict[str, object]]) -> Path:
    data = directory / UPSTREAM_DATA_DIR
    data.mkdir(parents=True)
    truth, ideas = [], []
    for paper in papers:
        counts = [round(float(paper["velocity"]) * (k + 1)) for k in range(12)]  # type: ignore[arg-type]
        start = dt.date.fromisoformat(str(paper["date"])).replace(day=1)
        dates = [
            dt.date(start.year + (start.month - 1 + k) // 12, (start.month - 1 + k) % 12 + 1, 1)
            for k in range(12)
        ]
        truth.append(
            {
                "paperId": paper["id"],
                "title": paper["title"],
                "pub_date": paper["date"],
                "b": ols_slope(counts),
                "citation_dates": json.dumps([d.isoformat() for d in dates]),
                "citation_counts": json.dumps(counts),
            }
        )
        ideas.append(
            {
                "paper_id": paper["id"],
                "abstract": "",
                "title": paper["title"],
                "idea": paper["idea"],
            }
        )
    ideas_file = IDEA_FILES["curated"]
    assert ideas_file is not None
    for name, rows in ((PAPER_FILES["curated"].filename, truth), (ideas_file.filename, ideas)):
        with (data / name).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return directory


def held_out_model(
    papers: list[dict[str, object]], cutoff: dt.date
) -> Callable[[list[ChatMessage]], str]:
    """Knows exactly the papers published before ``cutoff``: names them when probed, and picks
    the faster-cited of two known papers; otherwise says it does not recognise the paper and
    picks by a coin that ignores the papers' merit."""
    by_text = {str(p["idea"]): p for p in papers}
    known = {str(p["idea"]) for p in papers if dt.date.fromisoformat(str(p["date"])) <= cutoff}

    def respond(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        if is_probe_prompt(prompt):
            text = next(t for t in by_text if t in prompt)
            if text in known:
                return f"Title: {by_text[text]['title']}\nYear: {str(by_text[text]['date'])[:4]}"
            return "I do not recognise this paper."
        texts = project_texts(prompt)
        assert texts is not None
        first, second = (t.strip() for t in texts)
        if first in known and second in known:
            faster = float(by_text[first]["velocity"]) > float(by_text[second]["velocity"])  # type: ignore[arg-type]
            return f"PROJECT {1 if faster else 2}"
        coin = hashlib.sha256(f"{first}|{second}".encode()).digest()[0] % 2
        return f"PROJECT {coin + 1}"

    return respond
