"""Issue 61: a scored round whose labels are all pending (an arXiv round before its citation
windows end) has no frame pair yet; the report lists it with undefined figures, no crash."""

from __future__ import annotations

import math

from research_taste.reporting.round_board import Decision, RoundFrame, board, judgment


def test_a_round_with_no_resolved_pair_has_undefined_figures() -> None:
    frame = RoundFrame("r", frozenset(), resolved=False)
    decisions = [Decision("r", "0", "m", None, True), Decision("r", "0", "m", None, True)]
    found = judgment(decisions, frame, "m")
    assert found.pairs == 0
    assert math.isnan(found.headline) and math.isnan(found.coverage)
    result = board(decisions, [frame], min_pairs=1, resamples=10)
    [line] = result.models
    assert not line.ranked and math.isnan(line.headline)
    assert result.rounds[0].reason == "not resolved (items pending)"
