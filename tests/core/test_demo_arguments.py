"""``-T data_path=demo`` for every task (core/demo.py): the task's own demo data argument, no
argument for a task that ships its data, and the demo's offline embedding model by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste_evals.core.demo import resolve_demo_arguments
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.core.errors import ConfigError


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path))


def test_data_path_demo_names_the_pairs_file_of_idea_pairs(tmp_path: Path) -> None:
    resolved = resolve_demo_arguments(
        "research_taste_evals.ideapairs.ideapairs", "idea_pairs", {"data_path": "demo"}
    )
    assert "data_path" not in resolved
    assert Path(resolved["pairs_file"]).is_file()
    assert str(tmp_path) in resolved["pairs_file"]


def test_data_path_demo_is_nothing_for_lft_which_ships_its_rubrics() -> None:
    resolved = resolve_demo_arguments("research_taste_evals.lft.lft", "lft", {"data_path": "demo"})
    assert resolved == {}


def test_data_path_demo_beside_the_real_data_argument_is_one_sentence() -> None:
    with pytest.raises(ConfigError, match="give one of them") as info:
        resolve_demo_arguments(
            "research_taste_evals.ideapairs.ideapairs",
            "idea_pairs",
            {"data_path": "demo", "pairs_file": "x.jsonl"},
        )
    assert len(str(info.value).splitlines()) == 1


def test_demo_data_scores_with_the_packaged_minilm_unless_a_model_is_named() -> None:
    module = "research_taste_evals.aaar.paper_weakness"
    resolved = resolve_demo_arguments(module, "paper_weakness", {"data_path": "demo"})
    assert resolved["embedding_model"] == resolved["itf_idf_model"] == OFFLINE_MODEL
    named = {"data_path": "demo", "embedding_model": "offline-mpnet"}
    resolved = resolve_demo_arguments(module, "paper_weakness", named)
    assert resolved["embedding_model"] == "offline-mpnet"
    assert resolved["itf_idf_model"] == OFFLINE_MODEL
    # Not on the user's own data.
    assert resolve_demo_arguments(module, "paper_weakness", {"data_path": "x"}) == {
        "data_path": "x"
    }
