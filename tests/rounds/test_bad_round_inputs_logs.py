"""Issue 52 (items 4, 5, 7): a round's hand-edited pairs or deleted paper texts, and the
leaderboard over unscored or unreadable round logs, end in one sentence naming the cause."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arxiv_round_fakes import OPENED, arxiv_listing
from inspect_ai import eval as inspect_eval
from inspect_ai.log import write_eval_log
from openreview_round import quality_judge

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste.rounds.arxiv import open_arxiv
from research_taste_evals.aaar.dataset.weakness_round import WEAKNESS_FILE, load_weakness_round
from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.rounds import PAIRS_FILE, load_round
from research_taste_evals.tastybench.tastybench import tastybench_round


def _opened(folder: Path) -> Path:
    with arxiv_listing() as base:
        open_arxiv("cs.LG", 7, folder, window_months=3, base_url=base, now=lambda: OPENED)
    return folder


def _rewrite_pairs(folder: Path, edit: object) -> None:
    """Edit pairs.csv and its sha256 in round.json alike (a careful hand edit)."""
    path = folder / PAIRS_FILE
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")  # type: ignore[operator]
    manifest = json.loads((folder / "round.json").read_text())
    manifest["pairs_sha256"] = sha256_of(path)
    (folder / "round.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda lines: [*lines, lines[1]], "row 4: field 'pair_id': 0 repeats an earlier row"),
        (
            lambda lines: [
                lines[0],
                lines[1].replace(lines[1].split(",")[2], lines[1].split(",")[1]),
            ],
            "row 1: field 'item_2': the same item as item_1",
        ),
        (lambda lines: lines[:1], "no pair; a round is judged on its pairs"),
    ],
)
def test_a_repeated_self_or_missing_pair_is_one_sentence(
    tmp_path: Path, edit: object, named: str
) -> None:
    folder = _opened(tmp_path / "r")
    _rewrite_pairs(folder, edit)
    with pytest.raises(DataError) as raised:
        load_round(folder)
    assert f"{folder.resolve() / PAIRS_FILE}: {named}" in str(raised.value)
    assert len(str(raised.value).splitlines()) == 1


def test_a_deleted_weakness_file_is_not_called_opened_without_pdfs(tmp_path: Path) -> None:
    folder = _opened(tmp_path / "r")
    manifest = json.loads((folder / "round.json").read_text())
    (folder / WEAKNESS_FILE).write_text("{}\n")
    manifest.update(weakness_items=1, weakness_sha256=sha256_of(folder / WEAKNESS_FILE))
    (folder / "round.json").write_text(json.dumps(manifest))
    (folder / WEAKNESS_FILE).unlink()
    with pytest.raises(DataError, match="missing, though the round was opened with 1 PaperWeak"):
        load_weakness_round(folder)


def test_the_leaderboard_over_unscored_or_unreadable_round_logs_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, logs = _opened(tmp_path / "r"), tmp_path / "logs"
    [log] = inspect_eval(
        tastybench_round(round=str(folder)),
        model=quality_judge(),
        log_dir=str(logs),
        display="none",
    )
    log.eval.model = "openai/gpt-4o"  # judged by a provider's model (a mock one is a test log)
    write_eval_log(log, log.location)
    (logs / "empty.eval").write_bytes(b"")
    assert main(["leaderboard", "--log-dir", str(logs)]) == USAGE_ERROR_EXIT
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "no successful current-version logs: 1 round judgment logs, none scored yet" in line
    assert "research-taste round score <round>" in line and "1 unreadable logs" in line

    # a scored round log cut short: one sentence naming it, not a traceback
    (logs / "j-scored-2099-04-02.eval").write_text("cut")
    assert main(["leaderboard", "--log-dir", str(logs)]) == USAGE_ERROR_EXIT
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "j-scored-2099-04-02.eval: not an Inspect log" in line
