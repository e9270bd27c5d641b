"""``research-taste round score`` on a log folder that is not there: one sentence, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste.cli import main


def test_a_missing_log_folder_is_one_sentence_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-logs"
    assert main(["round", "score", str(tmp_path / "round"), "--log-dir", str(missing)]) != 0
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        f"research-taste round: error: --log-dir {missing}: no such folder "
        "(the judgment logs' folder)"
    )
    assert captured.out == "" and not missing.exists()
