"""The README's real-model table is exactly what bench/local_model_table.py computes from the
committed logs in docs/local-model/logs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "local_model_table.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("local_model_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_readme_table_is_the_scripts_output_on_the_committed_logs() -> None:
    script = _script()
    rows = script.read_rows(script.LOG_DIR)
    assert {row.task for row in rows} >= {
        "eqinfer", "expdesign", "paper_weakness", "review_critique", "lft",
        "lft_grader_check", "tastybench", "tastybench_extract", "idea_pairs", "scijudge",
    }  # fmt: skip
    readme = (ROOT / "docs" / "offline-real-model.md").read_text(encoding="utf-8")
    assert script.replace_in(readme, script.table(rows)) == readme, (
        "docs/offline-real-model.md's real-model table differs from the logs: "
        "run python bench/local_model_table.py --write"
    )


def test_replace_in_rewrites_only_the_marked_block() -> None:
    script = _script()
    text = f"a\n{script.BEGIN}\nold\n{script.END}\nb"
    assert script.replace_in(text, "new") == f"a\n{script.BEGIN}\nnew\n{script.END}\nb"
    with pytest.raises(SystemExit):
        script.replace_in("no block", "new")


def test_the_committed_logs_name_no_path_of_the_machine_that_ran_them() -> None:
    """They are published: ``--import`` makes every recorded path a ``<local>/...``."""
    from inspect_ai.log import read_eval_log

    from research_taste.reporting.paths import header_paths, local_paths

    script = _script()
    for path in sorted(script.LOG_DIR.glob("*.eval")):
        log = read_eval_log(str(path))
        metadata = [sample.metadata for sample in log.samples or []]
        assert header_paths(log) | local_paths(metadata) == set(), path.name
