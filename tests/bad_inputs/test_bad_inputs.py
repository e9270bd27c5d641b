"""Every bad input stops the run before any model call with one short error naming file,
record and field, and leaves the log folder and the download cache as they were."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bad_input_case import Case
from bad_input_corpus import TASK_CASES
from bad_input_corpus_content import CONTENT_CASES
from inspect_ai import eval as inspect_eval

from research_taste_evals.core.data import DataError

MAX_MESSAGE_LINES = 4


def _snapshot(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


CASES = [*TASK_CASES, *CONTENT_CASES]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_bad_input_fails_before_any_call_naming_file_record_and_field(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task_args = case.build(tmp_path / "data")
    logs, cache = tmp_path / "logs", tmp_path / "cache"
    cache.mkdir()
    (cache / "kept.txt").write_text("an earlier download")
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(cache))
    before = (_snapshot(logs), _snapshot(cache))

    with pytest.raises(DataError) as raised:
        inspect_eval(
            f"research_taste_evals/{case.task}",
            task_args=task_args,
            model=case.model,
            model_roles=case.model_roles or None,  # type: ignore[arg-type]
            log_dir=str(logs),
            display="none",
        )

    message = str(raised.value)
    for fragment in case.expected:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert len(message.splitlines()) <= MAX_MESSAGE_LINES, message
    assert (_snapshot(logs), _snapshot(cache)) == before, "the failed run wrote files"


def test_corpus_names_are_unique() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


def test_no_case_reads_the_user_cache() -> None:
    assert os.environ["RESEARCH_TASTE_CACHE_DIR"], "conftest isolates the cache"
