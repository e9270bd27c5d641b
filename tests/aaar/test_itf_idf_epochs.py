"""ITF-IDF under epochs, w, and the human-reviewer row (Lou et al. 2024, Section 5.3, Table 3)."""

from __future__ import annotations

import json
import logging
import random
import threading
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, Model
from log_metrics import metrics_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.demo import DEMO_WEAKNESS, write_demo_weakness
from research_taste_evals.aaar.itf_idf_metrics import ITF_IDF_EMBEDDINGS_KEY, unpack_embeddings
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.similarity import itf_idf
from research_taste_evals.aaar.solvers import human_reviewer_list
from research_taste_evals.core.embeddings import OFFLINE_MODEL, get_embedder

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
EPOCHS = 3
POOL = [
    "The method lacks an ablation of the attention module.",
    "Only two datasets are used in the evaluation.",
    "The baselines are outdated.",
    "The writing of section 3 is unclear.",
    "No statistical significance tests are reported.",
    "The compute cost is not discussed.",
    "The theoretical claim in section 4 is not proven.",
    "Hyperparameters are not reported.",
]


def test_epochs_give_itf_idf_from_every_epoch(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    rng = random.Random(7)
    lock = threading.Lock()

    def reviewer(messages: list[ChatMessage]) -> str:
        with lock:  # every call draws its own list, so each epoch's lists differ
            items = rng.sample(POOL, 2)
        return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))

    log = inspect_eval(
        paper_weakness(
            data_path=str(write_demo_weakness(tmp_path)),
            split="none",
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model=scripted_model(reviewer),
        epochs=EPOCHS,
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    metrics = metrics_of(log)
    assert log.samples is not None and len(log.samples) == EPOCHS * len(DEMO_WEAKNESS)
    by_epoch: dict[int, list[np.ndarray]] = defaultdict(list)
    for sample in log.samples:  # each epoch's own score, as written in the log
        score = next(iter(sample.scores.values())) if sample.scores else None
        assert score is not None and score.metadata is not None
        by_epoch[sample.epoch].append(unpack_embeddings(score.metadata[ITF_IDF_EMBEDDINGS_KEY]))
    per_epoch = [itf_idf(by_epoch[epoch]) for epoch in sorted(by_epoch)]
    assert len(per_epoch) == EPOCHS
    assert metrics["itf_idf_score"] == pytest.approx(float(np.mean(per_epoch)), rel=1e-9)
    assert metrics["itf_idf_score"] != pytest.approx(per_epoch[0], rel=1e-6)  # not epoch 1 only
    assert metrics["itf_idf_papers"] == len(DEMO_WEAKNESS)


def test_fewer_papers_than_the_full_set_warn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="research_taste_evals.aaar.itf_idf_metrics"):
        log = inspect_eval(
            paper_weakness(
                data_path=str(write_demo_weakness(tmp_path)),
                embedding_model=OFFLINE_MODEL,
                itf_idf_model=OFFLINE_MODEL,
            ),
            model="baseline/generic-weaknesses",
            display="none",
            log_dir=str(tmp_path / "logs"),
        )[0]
    assert metrics_of(log)["itf_idf_papers"] == len(DEMO_WEAKNESS)
    # Once per run: Inspect computes the metric mid-run and at the end (it warned three times).
    assert len([r for r in caplog.records if "not comparable" in r.getMessage()]) == 1
    provenance = (log.eval.metadata or {})["provenance"]
    assert provenance["paper_faithful"]["itf_idf_w"] is False


def test_human_reviewer_scores_one_seeded_reviewer_per_paper(tmp_path: Path) -> None:
    reviewers = [["1. a"], [], ["x", "y"]]
    pick = human_reviewer_list("paper-1", reviewers)
    assert pick in (["1. a"], ["x", "y"])
    assert human_reviewer_list("paper-1", reviewers) == pick  # seeded: same pick every run
    assert human_reviewer_list("p", [[], []]) == []

    log = inspect_eval(
        paper_weakness(
            data_path=str(write_demo_weakness(tmp_path)),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model="baseline/human-reviewer",
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    metrics = metrics_of(log)
    embedder = get_embedder(OFFLINE_MODEL)
    lists = [
        human_reviewer_list(p["ID"], p["output"])
        for p in sorted(DEMO_WEAKNESS, key=lambda p: p["ID"])
    ]
    assert metrics["itf_idf_score"] == pytest.approx(
        itf_idf([embedder.encode(items) for items in lists]), rel=1e-6
    )
    assert log.samples is not None
    assert sorted(json.dumps(s.output.completion) for s in log.samples) == sorted(
        json.dumps("\n".join(items)) for items in lists
    )
