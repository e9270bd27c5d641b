"""Rounds: open a frozen list of items before their labels exist, resolve labels as they
arrive, score the frozen answers (docs/rounds.md)."""
