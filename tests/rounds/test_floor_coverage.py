"""Issue 59, item 5: the floor, ``baseline/tastybench-longer``, picks on every ordered pair of
every shipped round (the two demo rounds, a simulated round) and of the test fakes' rounds (a
conference's, TMLR's), so its coverage is 1.0: equal lengths are broken by the texts' sha256."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openreview import serving
from fake_tmlr import VENUE as TMLR
from fake_tmlr import fake_tmlr
from inspect_ai import eval as inspect_eval
from openreview_round import T0, venue_with_pdfs
from tmlr_round import papers as tmlr_papers

from research_taste.rounds.openreview import open_openreview
from research_taste.rounds.simulated import open_simulated_round
from research_taste_evals.aaar.demo import write_demo_weakness_round
from research_taste_evals.core.rounds import load_round
from research_taste_evals.tastybench.baselines import project_texts
from research_taste_evals.tastybench.demo import write_demo_round
from research_taste_evals.tastybench.parsing import parse_judge_answer
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow


def _conference(folder: Path) -> Path:
    venue = venue_with_pdfs(lambda: T0)
    with serving(venue):
        open_openreview(venue.venue, folder, base_url=venue.base_url, now=lambda: T0, pdfs=False)
    return folder


def _tmlr(folder: Path) -> Path:
    journal = fake_tmlr(lambda: T0, tmlr_papers())
    with serving(journal):
        open_openreview(TMLR, folder, base_url=journal.base_url, now=lambda: T0, pdfs=False)
    return folder


ROUNDS: dict[str, Callable[[Path], Path]] = {
    "demo": write_demo_round,
    "demo_weakness": write_demo_weakness_round,
    "simulated": lambda folder: open_simulated_round(folder, max_items=24) and folder,
    "openreview_fake": _conference,
    "tmlr_fake": _tmlr,
}


def test_the_floor_picks_on_every_ordered_pair_of_every_round(tmp_path: Path) -> None:
    equal_lengths = 0
    for name, write in ROUNDS.items():
        folder = write(tmp_path / name)
        [log] = inspect_eval(
            tastybench_round(round=str(folder)),
            model="baseline/tastybench-longer",
            log_dir=str(tmp_path / "logs" / name),
            display="none",
        )
        samples = log.samples or []
        assert len(samples) == 2 * len(load_round(folder).pairs), name
        picks = [parse_judge_answer(sample.output.completion) for sample in samples]
        assert all(pick in (1, 2) for pick in picks), (name, picks)
        for sample in samples:
            texts = project_texts(str(sample.input))
            assert texts is not None
            equal_lengths += len(texts[0].split()) == len(texts[1].split())
    # the tie-break is exercised (the fake TMLR's abstracts all have one length)
    assert equal_lengths > 0
