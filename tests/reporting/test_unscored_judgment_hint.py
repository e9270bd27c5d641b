"""An unscored round judgment's reason (excluded.csv, the leaderboard's excluded list) is the
command that scores it, runnable as printed: its round and log folder filled in (it printed
``<round>`` and ``<log dir>`` though both were known), placeholders only where the folder is
absolute or remote (a published file names no folder of the machine)."""

from __future__ import annotations

import shlex

from research_taste.reporting.round_logs import split_round_logs
from research_taste.reporting.runs import ROUND_REASON, Excluded


def _judgment(round_folder: str) -> Excluded:
    return Excluded("j.eval", "tastybench_round", "m", ROUND_REASON, "j.eval", round_folder)


def test_the_hint_names_the_round_and_log_folder_it_was_read_from() -> None:
    _, (entry,) = split_round_logs([_judgment("rounds/iclr2027-a")], "logs/rounds")
    commands = [part.split("`")[0] for part in entry.reason.split("`")[1::2]]
    assert commands == [
        "research-taste round resolve rounds/iclr2027-a",
        "research-taste round score rounds/iclr2027-a --log-dir logs/rounds",
    ]
    assert shlex.split(commands[1])[-1] == "logs/rounds"


def test_an_absolute_or_remote_folder_stays_a_placeholder() -> None:
    _, (entry,) = split_round_logs([_judgment("/home/me/rounds/a")], "s3://bucket/logs")
    assert "/home/me" not in entry.reason and "s3://" not in entry.reason
    assert "round score <round> --log-dir <log dir>" in entry.reason


def test_a_folder_with_a_space_is_quoted_as_a_shell_needs_it() -> None:
    _, (entry,) = split_round_logs([_judgment("my rounds/a")], "logs")
    assert "round score 'my rounds/a' --log-dir logs" in entry.reason
