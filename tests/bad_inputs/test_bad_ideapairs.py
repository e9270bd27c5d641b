"""Bad idea-pairs inputs: a pairs file given to ``idea_pairs`` stops the run before any model
call, and a leaderboard file given to ``research-taste ideapairs build`` exits 2 with one line;
each error names the file, the line or path inside it, and the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bad_input_case import NOT_UTF8
from inspect_ai import eval as inspect_eval

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.demo import demo_leaderboards, write_demo_pairs

MAX_MESSAGE_LINES = 4
Records = list[dict[str, Any]]


def _drop_swapped(records: Records) -> Records:
    first = records[0]["pair_id"]
    return [r for r in records if not (r["pair_id"] == first and r["order"] == "swapped")]


def _same_label(records: Records) -> Records:
    first = records[0]["pair_id"]
    swapped = next(r for r in records if r["pair_id"] == first and r["order"] == "swapped")
    swapped["label"] = records[0]["label"]
    return records


def _set_tier(records: Records) -> Records:
    records[1]["tier"] = "high"
    return records


def _swapped_edit(path: tuple[str, ...], value: Any) -> Callable[[Records], Records]:
    """Change one field of the first pair's swapped record (its original left as it is)."""

    def edit(records: Records) -> Records:
        first = records[0]["pair_id"]
        swapped = next(r for r in records if r["pair_id"] == first and r["order"] == "swapped")
        target = swapped
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]]) if callable(value) else value
        return records

    return edit


# A swapped record differing from its original in anything but the order of the ideas: the
# sample is built from the original alone, so the difference used to be silently ignored.
SWAPPED_MISMATCHES = [
    ("benchmark", ("benchmark",), lambda v: v + " (other)", "benchmark"),
    ("goal", ("goal",), lambda v: v + " Also faster.", "goal"),
    ("tier", ("tier",), lambda v: 1 if v != 1 else 2, "tier"),
    ("idea-text", ("idea_b", "text"), lambda v: v + " With more data.", "idea_b.text"),
    ("score", ("idea_a", "unified_score"), lambda v: v - 0.001, "idea_a.unified_score"),
]

PAIR_EDITS: list[tuple[str, Callable[[Records], Records] | bytes, tuple[str, ...]]] = [
    ("not-utf8", NOT_UTF8, ("demo_pairs.jsonl", "line 1", "UTF-8")),
    ("bad-json-line", b'{"schema_version": ', ("demo_pairs.jsonl", "line 1", "invalid JSON")),
    ("invalid-record", _set_tier, ("demo_pairs.jsonl", "line 2", "field 'tier'")),
    ("missing-mirrored-pair", _drop_swapped, ("demo_pairs.jsonl", "pair ", "swapped")),
    # The record's own check (label against the scores) fires before the mirrored-pair check.
    ("both-orders-same-label", _same_label, ("demo_pairs.jsonl", "line 2", "record", "label")),
    *(
        (
            f"swapped-{name}-differs",
            _swapped_edit(path, value),
            ("demo_pairs.jsonl", "pair ", "(swapped)", f"field '{field}'", "(original)"),
        )
        for name, path, value, field in SWAPPED_MISMATCHES
    ),
]


@pytest.mark.parametrize(
    ("edit", "expected"), [e[1:] for e in PAIR_EDITS], ids=[e[0] for e in PAIR_EDITS]
)
def test_bad_pairs_file_fails_before_any_call(
    edit: Callable[[Records], Records] | bytes, expected: tuple[str, ...], tmp_path: Path
) -> None:
    path = write_demo_pairs(tmp_path / "data")
    if isinstance(edit, bytes):
        path.write_bytes(edit)
    else:
        records = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps(r) + "\n" for r in edit(records)))
    logs = tmp_path / "logs"
    with pytest.raises(DataError) as raised:
        inspect_eval(
            "research_taste_evals/idea_pairs",
            task_args={"pairs_file": str(path), "split": "all"},
            model="mockllm/model",
            log_dir=str(logs),
            display="none",
        )
    message = str(raised.value)
    for fragment in expected:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert len(message.splitlines()) <= MAX_MESSAGE_LINES, message
    assert not logs.exists() or not any(logs.iterdir()), "the failed run wrote a log"


def _rows_not_a_list(boards: Records) -> Records:
    boards[0]["datasets"][0]["sota"]["rows"] = {"model_name": "x"}
    return boards


def _title_not_text(boards: Records) -> Records:
    boards[1]["datasets"][0]["sota"]["rows"][2]["paper_title"] = 7
    return boards


LEADERBOARDS: list[tuple[str, str, Callable[[Records], Records] | bytes, tuple[str, ...]]] = [
    ("json-not-utf8", "boards.json", NOT_UTF8, ("boards.json", "UTF-8")),
    ("json-rows-not-a-list", "boards.json", _rows_not_a_list, ("boards.json", "rows", "a list")),
    (
        "json-title-not-text",
        "boards.json",
        _title_not_text,
        ("boards.json", "rows[2].paper_title", "expected a string"),
    ),
    ("markdown-not-utf8", "boards.md", NOT_UTF8, ("boards.md", "UTF-8")),
]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [b[1:] for b in LEADERBOARDS],
    ids=[b[0] for b in LEADERBOARDS],
)
def test_bad_leaderboard_file_exits_non_zero_with_one_line(
    name: str,
    content: Callable[[Records], Records] | bytes,
    expected: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    board = tmp_path / name
    if isinstance(content, bytes):
        board.write_bytes(content)
    else:
        board.write_text(json.dumps(content(demo_leaderboards())))
    out = tmp_path / "pairs.jsonl"
    argv = ["ideapairs", "build", str(board), "--out", str(out), "--no-extract"]
    assert main([*argv, "--log-dir", str(tmp_path / "logs")]) == USAGE_ERROR_EXIT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("research-taste ideapairs: error: "), err
    for fragment in expected:
        assert fragment in err, err
    assert not out.exists(), "a failed build wrote its pairs file"
