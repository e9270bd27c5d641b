"""An arXiv open interrupted part-way resumes from the full pages it cached, paced by one client
(issue "Rounds": "resuming an interrupted open")."""

from __future__ import annotations

from pathlib import Path

import pytest
from arxiv_round_fakes import OPENED, PAPERS, paged_listing

from research_taste.builders import http
from research_taste.rounds.arxiv import open_arxiv
from research_taste_evals.core.data import DataError

PACE = 1000.0  # seconds asked between two pages (recorded, never slept)


def test_an_interrupted_open_resumes_from_its_full_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(http, "_sleep", waits.append)
    folder = tmp_path / "rounds" / "cslg"

    def open_round() -> dict[str, object]:
        return open_arxiv(
            "cs.LG", 7, folder, base_url=base, now=lambda: OPENED, page_size=2, min_interval=PACE
        )

    # 7 entries (the 6 papers and one announced before the days): pages at 0, 2, 4 and 6
    with paged_listing(fail_once_at=4) as (base, asked):
        with pytest.raises(DataError, match="arXiv answered 400 to GET the arXiv listing"):
            open_round()
        assert asked == [0, 2, 4] and not (folder / "round.json").exists()
        manifest = open_round()
    assert asked == [0, 2, 4, 4, 6]  # pages 0 and 2 from the cache; 6, the partial one, fetched
    assert manifest["items"] == len(PAPERS)
    assert manifest["counts"]["left_out"] == {"outside_dates_or_no_abstract": 1}
    # each page after a run's first waited for the pace: one client for the whole listing
    assert len(waits) == 3 and min(waits) > PACE - 100
