"""Demo data the project writes: a small invented leaderboard file and the pairs built from it.

:func:`write_demo_leaderboards` writes two invented leaderboards in the PapersWithCode
evaluation-tables format (one higher-is-better accuracy board, one with a lower-is-better
error column the direction check must invert); :func:`write_demo_pairs` writes the pairs the
real builder (``research-taste ideapairs build``, no extraction: idea texts are method name and
paper title) made from them, shipped as ``demo_pairs.jsonl`` beside this module because the
builder is tooling the evals do not import; ``tests/research_taste/test_ideapairs_demo_pairs.py``
rebuilds the file and fails if it drifts (``python -m research_taste.builders.ideapairs.demo_pairs``
writes it again).
Nothing here is real research; it only lets ``research-taste demo`` run the task offline.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.ideapairs.ideapairs import idea_pairs

DEMO_SEED = 7
# (method, paper title, year, accuracy, error): rows best-first, as leaderboards list them.
_TAGGING_ROWS = [
    (
        "Span Graph Tagger (Demo et al., 2021)",
        "Span graphs for sequence labelling",
        2021,
        93.9,
        4.1,
    ),
    (
        "Contrastive Tagger (Demo et al., 2020)",
        "Contrastive pretraining for taggers",
        2020,
        93.1,
        4.6,
    ),
    ("Lattice Tagger (Demo et al., 2020)", "Word lattices for tagging", 2020, 92.0, 5.2),
    ("Char CNN Tagger (Demo et al., 2019)", "Character convolutions for tagging", 2019, 91.2, 6.0),
    ("Stacked BiLSTM (Demo et al., 2019)", "Stacked recurrent encoders", 2019, 90.1, 6.8),
    ("CRF Tagger (Demo et al., 2018)", "Structured output layers for taggers", 2018, 89.0, 7.9),
    ("Window MLP (Demo et al., 2018)", "Window features for tagging", 2018, 87.8, 8.8),
    ("Feature HMM (Demo et al., 2017)", "Feature-rich hidden Markov models", 2017, 86.2, 10.1),
    ("Perceptron Tagger (Demo et al., 2017)", "Averaged perceptrons for tagging", 2017, 85.1, 11.0),
    ("Lexicon Baseline (Demo et al., 2016)", "Lexicon lookup baselines", 2016, 83.0, 12.9),
    ("Rule Tagger (Demo et al., 2016)", "Hand-written tagging rules", 2016, 81.9, 14.2),
    ("Majority Tagger (Demo et al., 2016)", "Majority-class tagging", 2016, 79.5, 16.0),
]
_RETRIEVAL_ROWS = [
    ("Late Interaction Ranker (Demo et al., 2021)", "Late interaction for retrieval", 2021, 41.2),
    ("Distilled Dual Encoder (Demo et al., 2021)", "Distilling cross-encoders", 2021, 39.8),
    ("Dual Encoder (Demo et al., 2020)", "Dense passage encoders", 2020, 37.0),
    ("Query Expansion (Demo et al., 2019)", "Learned query expansion", 2019, 33.5),
    ("Neural Reranker (Demo et al., 2019)", "Neural reranking of candidates", 2019, 31.9),
    ("Term Weighting (Demo et al., 2018)", "Learned term weights", 2018, 28.4),
    ("BM25 Tuned (Demo et al., 2017)", "Tuning lexical retrieval", 2017, 25.1),
    ("TF-IDF (Demo et al., 2016)", "Lexical retrieval baselines", 2016, 22.3),
]


def _row(method: str, title: str, year: int, metrics: dict[str, float]) -> dict[str, object]:
    slug = title.lower().replace(" ", "-")
    return {
        "model_name": method,
        "paper_title": title,
        "paper_url": f"https://example.org/demo/{slug}",
        "paper_date": f"{year}-06-01",
        "code_links": [],
        "model_links": [],
        "metrics": metrics,
    }


def demo_leaderboards() -> list[dict[str, object]]:
    """Two invented leaderboards in the PapersWithCode evaluation-tables format."""
    tagging = [_row(m, t, y, {"Accuracy": a, "Error": e}) for m, t, y, a, e in _TAGGING_ROWS]
    retrieval = [_row(m, t, y, {"MRR@10": s}) for m, t, y, s in _RETRIEVAL_ROWS]
    return [
        {
            "task": "Sequence Tagging",
            "description": "Assign a label to every token of a sentence.",
            "subtasks": [],
            "datasets": [
                {
                    "dataset": "DemoTag",
                    "description": "An invented tagging benchmark scored by token accuracy.",
                    "subdatasets": [],
                    "sota": {"metrics": ["Accuracy", "Error"], "rows": tagging},
                }
            ],
        },
        {
            "task": "Passage Retrieval",
            "description": "Rank passages by relevance to a query.",
            "subtasks": [],
            "datasets": [
                {
                    "dataset": "DemoRetrieve",
                    "description": "An invented retrieval benchmark scored by MRR@10.",
                    "subdatasets": [],
                    "sota": {"metrics": ["MRR@10"], "rows": retrieval},
                }
            ],
        },
    ]


def write_demo_leaderboards(folder: Path) -> Path:
    """Write the demo leaderboard file and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo_leaderboards.json"
    path.write_text(json.dumps(demo_leaderboards(), indent=2) + "\n", encoding="utf-8")
    return path


# The builder's output on demo_leaderboards() with DEMO_SEED (see the module docstring).
DEMO_PAIRS_FILE = Path(__file__).with_name("demo_pairs.jsonl")


def write_demo_pairs(folder: Path) -> Path:
    """Write the demo leaderboards and the pairs built from them; return the pairs file."""
    write_demo_leaderboards(folder)
    out = folder / "demo_pairs.jsonl"
    shutil.copyfile(DEMO_PAIRS_FILE, out)
    return out


DEMO_RUNS: tuple[DemoRun, ...] = (
    # Pairs built by the real builder from two invented leaderboards; both splits, since a
    # demo-sized board leaves few test pairs. The length prior answers.
    DemoRun(
        name="idea_pairs",
        build=lambda data_dir: idea_pairs(
            pairs_file=str(write_demo_pairs(data_dir / "idea_pairs")),
            split="all",
            bootstrap_resamples=1000,
        ),
        model="baseline/longer",
        data_arg="pairs_file",
        write_data=write_demo_pairs,
    ),
)
