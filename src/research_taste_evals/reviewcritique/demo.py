"""Demo data the project writes: three invented papers with labelled reviews, upstream layout.

Nothing here comes from ReviewCritique; the papers, reviews, labels and explanations are made up
so the task runs offline with no licensed data. They live in ``demo_records.jsonl`` beside this
module, in the upstream shape (one paper per line, one key per review) and, like upstream, with
a bare ``NaN`` for missing values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.reviewcritique.reviewcritique import review_critique

DEMO_FILENAME = "reviewcritique_demo.jsonl"

# The records in the upstream shape, one paper per line (written by hand for the demo).
DEMO_RECORDS_FILE = Path(__file__).with_name("demo_records.jsonl")


def demo_records() -> list[dict[str, Any]]:
    """The demo papers as upstream-layout records (``NaN`` read back as a float, as upstream)."""
    lines = DEMO_RECORDS_FILE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def write_demo_reviewcritique(directory: Path) -> Path:
    """Write the demo file into ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / DEMO_FILENAME
    # json.dumps writes NaN as a bare token, exactly as the upstream files have it.
    path.write_text("".join(json.dumps(r) + "\n" for r in demo_records()), encoding="utf-8")
    return path


# What ``research-taste demo`` runs for this family (found by core/families.py).
DEMO_RUNS: tuple[DemoRun, ...] = (
    # Three invented papers with labelled reviews; every segment flagged (recall 1, precision =
    # base rate). BERTScore uses the packaged MiniLM explicitly (logged as not paper-faithful).
    DemoRun(
        name="review_critique",
        build=lambda data_dir: review_critique(
            data_path=str(write_demo_reviewcritique(data_dir / "review_critique")),
            bertscore_model=OFFLINE_MODEL,
            bootstrap_resamples=200,
        ),
        model="baseline/flag-all",
        data_arg="data_path",
        write_data=write_demo_reviewcritique,
        demo_arguments={"bertscore_model": OFFLINE_MODEL},  # -T data_path=demo: offline too
    ),
)
