"""Demo data the project writes: three invented papers with labelled reviews, upstream layout.

Nothing here comes from ReviewCritique; the papers, reviews, labels and explanations are made up
so the task runs offline with no licensed data. The file has the upstream shape (one paper per
line, one key per review) and, like upstream, a bare ``NaN`` for missing values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.reviewcritique.reviewcritique import review_critique

DEMO_FILENAME = "reviewcritique_demo.jsonl"

# (title, decision, paper text, {reviewer: [(segment, deficient?, error type, explanation)]})
_PAPERS: list[tuple[str, str, str, dict[str, list[tuple[str, bool, str, str]]]]] = [
    (
        "Sparse Adapters for Multilingual Parsing",
        "accepted",
        "We add sparse adapters to a multilingual dependency parser. On 12 treebanks the adapters "
        "improve labelled attachment score by 1.8 points on average while training 3% of the "
        "parameters. We compare with full fine-tuning and with dense adapters of equal size, and "
        "report results for low-resource languages separately in Table 3.",
        {
            "review#1": [
                ("Summary Of The Paper:", False, "", ""),
                ("The paper adds sparse adapters to a multilingual parser.", False, "", ""),
                (
                    "The paper does not compare with dense adapters.",
                    True,
                    "Neglect",
                    "The paper compares with dense adapters of equal size.",
                ),
                ("Results are reported on 12 treebanks.", False, "", ""),
                (
                    "The method is not novel.",
                    True,
                    "Vague Critique",
                    "The claim gives no reference or reason, so it cannot be checked.",
                ),
            ],
            "review#2": [
                ("The gains are consistent across treebanks.", False, "", ""),
                (
                    "Low-resource languages are ignored.",
                    True,
                    "Misunderstanding",
                    "Table 3 reports low-resource languages separately.",
                ),
                ("The writing is clear.", False, "", ""),
            ],
        },
    ),
    (
        "Curriculum Sampling for Retrieval Pretraining",
        "rejected",
        "We order retrieval pretraining examples from easy to hard by the score of a BM25 "
        "teacher. On three benchmarks the curriculum matches random sampling, and it speeds up "
        "convergence by 20% on one of them. We do not evaluate on multilingual retrieval.",
        {
            "review#1": [
                ("The idea of ordering examples by difficulty is simple.", False, "", ""),
                (
                    "The paper shows large accuracy gains on every benchmark.",
                    True,
                    "Inaccurate Summary",
                    "The paper reports that the curriculum matches random sampling.",
                ),
                ("The paper lacks multilingual experiments.", False, "", ""),
                (
                    "I would have written this paper differently.",
                    True,
                    "Out-of-scope",
                    "A personal preference is not a criticism of the submission.",
                ),
            ],
        },
    ),
    (
        "A Benchmark of Citation Intent in Reviews",
        "accepted",
        "We annotate 4,000 citations in peer reviews with their intent. Agreement between "
        "annotators is 0.71 kappa. Models fine-tuned on the data reach 64 macro-F1.",
        {
            "review#1": [
                ("The dataset is useful for the community.", False, "", ""),
                ("Annotator agreement is reported.", False, "", ""),
                (
                    "The annotation agreement is too low to trust the labels.",
                    True,
                    "Inexpert Statement",
                    "A kappa of 0.71 is substantial agreement for this kind of task.",
                ),
            ],
            "review#2": [
                ("The baselines are reasonable.", False, "", ""),
                ("More error analysis would help.", False, "", ""),
            ],
        },
    ),
]


def _segment(text: str, deficient: bool, error_type: str, explanation: str) -> dict[str, Any]:
    return {
        "segment_text": text,
        "topic_class_1": float("nan"),
        "topic_class_2": float("nan"),
        "reliability": "No" if deficient else "Yes",
        "explanation": explanation if deficient else float("nan"),
        "error_type": error_type if deficient else float("nan"),
    }


def demo_records() -> list[dict[str, Any]]:
    """The demo papers as upstream-layout records."""
    records = []
    for title, decision, text, reviews in _PAPERS:
        record: dict[str, Any] = {"decision": decision, "title": title, "body_text": text}
        for reviewer, segments in reviews.items():
            record[reviewer] = {
                "review": [_segment(*segment) for segment in segments],
                "score": {"Recommendation": " 6", "Confidence": " 3"},
            }
        records.append(record)
    return records


def write_demo_reviewcritique(directory: Path) -> Path:
    """Write the demo file into ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / DEMO_FILENAME
    # json.dumps writes NaN as a bare token, exactly as the upstream files have it.
    path.write_text("".join(json.dumps(r) + "\n" for r in demo_records()), encoding="utf-8")
    return path


# What ``research-taste demo`` runs for this family (collected by cli/demo.py).
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
