"""``round open|resolve --budget/--pdf-budget``: a budget that is not ``N/PERIOD`` is one
sentence naming the option, before any request or folder; on an arXiv round it is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste.cli import main


@pytest.mark.parametrize(("flag", "given"), [("--budget", "90"), ("--pdf-budget", "0/1h")])
def test_a_bad_budget_is_one_sentence_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, given: str
) -> None:
    argv = ["round", "open", "--venue", "V", "--out", str(tmp_path / "r"), flag, given]
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"{flag} '{given}': not a request budget; give N/PERIOD" in err
    assert not (tmp_path / "r").exists()


def test_an_openreview_budget_on_an_arxiv_open_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["round", "open", "--source", "arxiv", "--category", "cs.LG"]
    assert main([*argv, "--out", str(tmp_path / "r"), "--budget", "10/30m"]) != 0
    assert "--budget: a --source openreview option" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
