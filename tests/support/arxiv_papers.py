"""Recorded-shaped arXiv papers and a leaderboard citing them, for the ``--fetch-papers``
tests (seven arXiv papers, every other one with an HTML rendering, and one ACL paper)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arxiv_server import Recorded

WORDS = ["sparse", "gated", "recurrent", "contrastive", "latent", "hierarchical", "copy", "graph"]
NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]
HTML = (  # the shape of arXiv's LaTeXML rendering (its ltx_ classes)
    "<html><head><style>p {{color: red}}</style></head><body><nav>arXiv menu</nav>"
    '<div class="ltx_page_main"><article class="ltx_document">'
    "<h2>Method</h2><p>The encoder uses {word} attention over spans.</p>"
    "<script>var x = 1;</script></article></div></body></html>"
)


def _recorded() -> list[Recorded]:
    return [
        Recorded(
            version=f"2106.0000{i}v{1 + i % 2}",
            title=f"Paper about {NAMES[i]}",
            abstract=f"We study a {WORDS[i]} encoder for reading comprehension.",
            published=f"2021-{i + 1:02d}-15",
            html=HTML.format(word=WORDS[i]) if i % 2 == 0 else None,
        )
        for i in range(7)
    ]


def _leaderboard(tmp_path: Path) -> Path:
    rows: list[dict[str, Any]] = [
        {
            "model_name": NAMES[i],
            "paper_title": f"Paper about {NAMES[i]}",
            "paper_url": f"https://arxiv.org/abs/2106.0000{i}",
            "paper_date": None,
            "metrics": {"Accuracy": 90.0 - 1.5 * i},
        }
        for i in range(7)
    ]
    rows.append(  # not on arXiv: its abstract comes from the papers-with-abstracts copy
        {
            "model_name": NAMES[7],
            "paper_title": "Paper about Hotel",
            "paper_url": "https://aclanthology.org/2021.acl-long.7",
            "paper_date": None,
            "metrics": {"Accuracy": 79.5},
        }
    )
    dataset = {"dataset": "ReadData", "description": "", "sota": {"rows": rows}}
    path = tmp_path / "board.json"
    path.write_text(json.dumps([{"task": "Reading", "datasets": [dataset]}]))
    return path
