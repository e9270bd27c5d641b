"""Shared by the README generators: saved log headers, and printing or writing a block.

Header-only copies of the logs behind README figures are kept in ``tests/readme_logs/<family>``.

The README generators (``bench/aaar_paper_table.py``, ``bench/tastybench_readme.py``, the LFT
figures) keep each run's header (eval spec, metadata with provenance, results; no samples: a
few kB instead of MBs); ``tests/test_readme_figures.py`` re-renders every generated README block
from them and fails when the README differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from research_taste_evals.core.text import replace_block

ROOT = Path(__file__).resolve().parents[1] / "tests" / "readme_logs"


def save_headers(logs: Mapping[str, EvalLog], family: str) -> Path:
    """Replace ``tests/readme_logs/<family>/*.json`` with the logs' headers, named by key."""
    folder = ROOT / family
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    for key, log in logs.items():
        header = log.model_copy(update={"samples": None, "reductions": None})
        write_eval_log(header, str(folder / f"{key}.json"), format="json")
    return folder


def load_headers(family: str) -> dict[str, EvalLog]:
    """The saved headers of ``family``, by key."""
    return {path.stem: read_eval_log(str(path)) for path in sorted((ROOT / family).glob("*.json"))}


def show_block(readme: Path, name: str, content: str, write: bool) -> None:
    """Print a generated README block; with ``write``, replace block ``name`` in ``readme``."""
    print(content)
    if write:
        text = readme.read_text(encoding="utf-8")
        readme.write_text(replace_block(text, name, content), encoding="utf-8")
