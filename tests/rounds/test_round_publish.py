"""Issue 59, "Publication", done-when: a published folder loads with
``datasets.load_dataset("json", ...)`` and pandas, unresolved items are there with
``resolved: false``, and ``tastybench_round`` on the published snapshot gives the scored figures
the round's own folder gives."""

from __future__ import annotations

import json
import math
import stat
from pathlib import Path
from typing import Any

import datasets
import pandas as pd
import pytest
import yaml
from inspect_ai.log import read_eval_log
from log_metrics import metrics_of
from round_publication import MODELS, Published, judge, published_round

from research_taste.reporting.round_publish import MARKER, publish_rounds
from research_taste.reporting.round_publish_board import LEADERBOARD_COLUMNS
from research_taste.reporting.round_publish_card import features
from research_taste.rounds.score import score_round
from research_taste_evals.core.data import DataError

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Published:
    return published_round(tmp_path_factory.mktemp("pub"), "CC BY 4.0")


def _files(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.is_file())


def test_loads_with_datasets_and_pandas(published: Published, tmp_path: Path) -> None:
    out = published.out

    def load_dataset(kind: str, data_files: str, split: str) -> Any:
        table = data_files.rsplit("/", 1)[-1].removesuffix(".jsonl")
        return datasets.load_dataset(
            kind,
            data_files=data_files,
            split=split,
            features=features("resolutions" if table == "*" else table),
            cache_dir=str(tmp_path / "cache"),
        )

    items = load_dataset("json", data_files=str(out / "*" / "items.jsonl"), split="train")
    assert len(items) == 8 and set(items["text_published"]) == {True}
    assert all(items["abstract"]) and all(len(s) == 64 for s in items["abstract_sha256"])
    assert set(items["link"]) == {f"https://openreview.net/forum?id=p{i}" for i in range(1, 9)}
    resolutions = load_dataset(
        "json", data_files=str(out / "*" / "resolutions" / "*.jsonl"), split="train"
    ).to_pandas()
    by_version = dict(list(resolutions.groupby("labels_file")))
    assert set(by_version) == {"labels/2025-10-02.csv", "labels/2100-01-11.csv"}
    pending, labelled = by_version["labels/2025-10-02.csv"], by_version["labels/2100-01-11.csv"]
    # every item in every version: the unresolved ones kept, resolved false, no label
    assert len(pending) == len(labelled) == 8
    assert not pending["resolved"].any() and pending["label"].isna().all()
    assert pending["label_time"].isna().all() and labelled["label_time"].notna().all()
    assert set(pending["state"]) == {"pending"}
    assert labelled["resolved"].all() and labelled["label"].notna().all()
    picks = load_dataset("json", data_files=str(out / "*" / "picks.jsonl"), split="train")
    assert sorted(set(picks["model"])) == sorted(MODELS)
    assert len(picks) == 2 * 8  # two models, four pairs in both orders
    # the card's configs and features, as the Hub reads them
    card_read = datasets.load_dataset(str(out), "resolutions", cache_dir=str(tmp_path / "c2"))
    assert card_read["train"].to_pandas().equals(resolutions)
    rounds = pd.read_json(out / "rounds.jsonl", lines=True)
    assert rounds.loc[0, "round_id"].startswith("iclr-pub-")
    board = pd.read_csv(out / "leaderboard" / "tastybench_round.csv")
    assert list(board.columns) == LEADERBOARD_COLUMNS
    assert set(board["model"]) == set(MODELS)
    assert list(board["rank"]) == [1, 2] and board["ranked"].all()  # ranked best first
    assert board["share_at_first"].sum() == pytest.approx(1.0)  # one model first per replicate
    floor = board.set_index("model").loc["baseline/tastybench-longer"]
    assert math.isnan(floor["p_value_vs_floor"]) and 0 <= board["p_value_vs_floor"].max() <= 1


def test_card_front_matter_names_configs_and_licence(published: Published) -> None:
    text = (published.out / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---")[1])
    configs = {c["config_name"]: c["data_files"][0]["path"] for c in front["configs"]}
    assert configs["resolutions"] == "*/resolutions/*.jsonl"
    assert {"rounds", "items", "pairs", "picks", "leaderboard"} <= set(configs)
    for pattern in configs.values():  # every config's files exist
        assert list(published.out.glob(pattern)), pattern
    assert "**openreview**" in text and "CC BY 4.0" in text


def test_no_local_path_and_files_readable(published: Published) -> None:
    root = str(published.root)
    for path in _files(published.out):
        assert root not in path.read_text(encoding="utf-8", errors="replace"), path
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


def test_snapshot_judged_gives_the_round_folders_figures(published: Published) -> None:
    snapshot, logs = published.out / "iclr-pub", published.root / "snapshot-logs"
    judge(str(snapshot), logs)
    again = score_round(snapshot, logs, "2100-01-11", say=lambda _: None)
    original = score_round(published.round, published.logs, "2100-01-11", say=lambda _: None)
    assert not original  # already scored with that version by the set-up
    figures = {}
    for entry in again:
        figures[entry.model] = metrics_of(read_eval_log(entry.scored))
    mine = {}
    for path in published.logs.glob("*-scored-2100-01-11.eval"):
        log = read_eval_log(str(path))
        mine[log.eval.model] = metrics_of(log)
    assert set(figures) == set(mine) == set(MODELS)
    for model in MODELS:
        assert figures[model].keys() == mine[model].keys()
        for name, value in mine[model].items():
            other = figures[model][name]
            assert (math.isnan(value) and math.isnan(other)) or other == value, (model, name)
    assert mine["baseline/tastybench-longer"]["pairs"] == 4


def test_republish_updates_its_own_files_only(published: Published, tmp_path: Path) -> None:
    out = tmp_path / "again"
    out.mkdir()
    (out / ".gitattributes").write_text("*.jsonl filter=lfs\n", encoding="utf-8")
    first = publish_rounds([published.round], None, out)
    assert first.version == 1 and not (out / "leaderboard").exists()
    (out / "NOTES.md").write_text("ours\n", encoding="utf-8")
    second = publish_rounds([published.round], str(published.logs), out, min_pairs=1)
    assert second.version == 2 and (out / "leaderboard" / "tastybench_round.csv").is_file()
    assert (out / "NOTES.md").read_text(encoding="utf-8") == "ours\n"
    assert (out / ".gitattributes").read_text(encoding="utf-8") == "*.jsonl filter=lfs\n"
    publish_rounds([published.round], None, out)  # the leaderboard is no longer published
    assert not (out / "leaderboard").exists() and (out / "NOTES.md").is_file()
    marker = json.loads((out / MARKER).read_text(encoding="utf-8"))
    assert "NOTES.md" not in marker["files"] and marker["version"] == 3


def test_foreign_folder_refused(published: Published, tmp_path: Path) -> None:
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "data.csv").write_text("a\n1\n", encoding="utf-8")
    with pytest.raises(DataError, match="not a previous publication"):
        publish_rounds([published.round], None, out)
    assert [p.name for p in out.iterdir()] == ["data.csv"]


def test_cli_publishes_and_names_the_withheld(published: Published, tmp_path: Path) -> None:
    from research_taste.cli import main

    out = tmp_path / "by-cli"
    argv = ["round", "publish", str(published.round), "--out", str(out)]
    assert main([*argv, "--log-dir", str(published.logs), "--min-pairs", "1"]) == 0
    assert (out / "leaderboard" / "tastybench_round.csv").read_bytes() == (
        published.out / "leaderboard" / "tastybench_round.csv"
    ).read_bytes()  # the seeded bootstrap: the same figures every time
    assert main([*argv[:2], str(published.round), str(published.round), "--out", str(out)]) != 0


def test_a_file_it_did_not_write_is_never_overwritten(published: Published, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    publish_rounds([published.round], None, out)  # no picks: no picks.jsonl
    theirs = out / "iclr-pub" / "picks.jsonl"
    theirs.write_text("hand-made\n", encoding="utf-8")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(DataError, match="picks.jsonl is there and the previous publication"):
        publish_rounds([published.round], str(published.logs), out, min_pairs=1)
    assert theirs.read_text(encoding="utf-8") == "hand-made\n"
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # nothing written
