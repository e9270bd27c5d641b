"""``research-taste round`` user errors: one sentence naming the argument, no traceback."""

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


@pytest.mark.parametrize("given", ["1", "many"])
def test_max_items_below_two_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    argv = ["round", "open", "--venue", "V", "--out", str(tmp_path / "r"), "--max-items", given]
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith(f"--max-items {given}: a whole number of at least 2")
    assert not (tmp_path / "r").exists()
