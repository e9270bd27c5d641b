"""SciJudgeBench's recall items: a pair shows two arXiv papers, each dated by the row.

A judge that knows a paper (and how it was received) can answer from memory rather than from
taste, and SciJudgeBench shows exactly what identifies a paper: its title and abstract. The
mechanism is ``core/recall_control.py``; ``specs.py`` declares the task (``SCIJUDGE``) with the
items of :func:`pair_papers`:

- a paper is dated by its row (``paper_{a,b}_date``, a day; on the ICLR split by its venue
  year, ICLR year Y as 1 September of Y-1, ``rows.iclr_date``) and identified by its arXiv id
  (its title's hash when the row has none);
- the recognition probe (inside the pair samples, once per paper per run; no extra samples)
  shows the paper's abstract and asks for its title: the title is the answer key, so it is not
  shown (a probe that showed it would be answered by copying it). An abstract that contains
  the whole title names the paper (``identity_leak``): it is not probed and never clean;
- a pair counts in a twin only when BOTH its papers do (both orders of a pair show the same two
  papers, so a pair is in or out whole): ``accuracy_clean`` on the pairs whose
  two papers are after the run's clean cutoff and not recognised (``clean_pairs``), with
  ``clean_items`` the distinct clean papers of the kept rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from research_taste_evals.core.dates import parse_item_date
from research_taste_evals.core.recall_control import ShownItem


def pair_papers(metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The two papers of a row: arXiv id, date, the abstract the probe shows, the title."""
    return [
        ShownItem(
            item_id=str(paper["arxiv_id"]),
            date=parse_item_date(paper.get("date")),
            text=str(paper.get("abstract", "")),
            title=str(paper.get("title", "")),
            kind="paper",
        )
        for paper in (metadata.get("paper_a") or {}, metadata.get("paper_b") or {})
        if paper
    ]
