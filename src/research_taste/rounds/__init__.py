"""Rounds: open a frozen list of items before their labels exist, resolve labels as they
arrive, score the frozen answers (docs/rounds.md)."""

# Defaults the command line shows without importing the round modules (start-up stays fast).
JUDGE_DAYS = 7  # a round's judging window (``judge_by``): days from ``opened_at``
SAMPLE_SEED = 20261201  # the seed of ``round open --max-items`` (``rounds/sample.py``)
