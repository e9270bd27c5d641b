"""Small EqInfer, ExpDesign and PaperWeakness demo sets written by the project (not upstream data).

The data lives in ``demo_data/`` beside this module (``equation.demo.json``, ``expdesign.json``,
``paper_weakness.json``). The papers are invented; their experiment lists, explanations and
reviewer weaknesses were written for the demo and the tests. Each EqInfer instance is a textbook
ML equation in a short, paper-like context, with three wrong variants of the kind the AAAR-1.0
authors synthesised (a flipped sign, a wrong normaliser, a swapped operand); the correct
equation sits at different letters across instances. The writers save the sets in the upstream
layout (``equation.demo.json``, ``Experiment_Design/<id>/data_text.json``,
``Paper_Weakness/ICLR_2023/<id>/data_text.json``), so the demo exercises the same loaders as
real data.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

from research_taste_evals.aaar.dataset.expdesign import EXPDESIGN_FOLDER
from research_taste_evals.aaar.dataset.paper_folders import RECORD_FILE
from research_taste_evals.aaar.dataset.paper_weakness import WEAKNESS_FOLDER
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.paper_weakness_round import paper_weakness_round
from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.core.rounds import RoundItem, is_round
from research_taste_evals.core.simulated_venue import Submission, future_of, write_simulated_round

DEMO_DATA = Path(__file__).with_name("demo_data")
EQINFER_FILE = "equation.demo.json"


def _load(name: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads((DEMO_DATA / name).read_text(encoding="utf-8"))
    return records


DEMO_EQINFER = _load(EQINFER_FILE)
DEMO_EXPDESIGN = _load("expdesign.json")
DEMO_WEAKNESS = _load("paper_weakness.json")


def _write_records(root: Path, folder: str, records: list[dict[str, Any]], key: str) -> Path:
    for record in records:
        paper_dir = root.joinpath(*Path(folder).parts, record[key])
        paper_dir.mkdir(parents=True, exist_ok=True)
        (paper_dir / RECORD_FILE).write_text(json.dumps(record, indent=2), encoding="utf-8")
    return root


def write_demo_expdesign(directory: Path) -> Path:
    """Write the ExpDesign demo as ``directory/Experiment_Design/<id>/data_text.json``.

    Returns ``directory``.
    """
    return _write_records(directory, EXPDESIGN_FOLDER, DEMO_EXPDESIGN, "id")


def write_demo_weakness(directory: Path) -> Path:
    """Write the PaperWeakness demo as ``directory/Paper_Weakness/ICLR_2023/<id>/data_text.json``.

    Returns ``directory``.
    """
    return _write_records(directory, WEAKNESS_FOLDER, DEMO_WEAKNESS, "ID")


# The seed of the demo weakness round's simulated reviews (the same ratings and times each time).
DEMO_ROUND_SEED = 20260105


def write_demo_weakness_round(directory: Path) -> Path:
    """Write a round of the PaperWeakness demo papers (texts frozen, no reviews) on the
    simulated venue (``core/simulated_venue.py``) into ``directory`` unless one is there;
    returns ``directory``. It opens now (the demo's answers are prospective); each paper's
    simulated reviewers post the weaknesses the demo file lists for it (its ``output``) as the
    venue's clock moves (``research-taste round resolve <round> --advance-days 28``)."""
    if is_round(directory):
        return directory
    opened = dt.datetime.now(dt.UTC).replace(microsecond=0)
    rng = random.Random(DEMO_ROUND_SEED)
    submissions, records = [], []
    for index, record in enumerate(DEMO_WEAKNESS):
        day = (opened.date() - dt.timedelta(days=7 * (index + 1))).isoformat()
        paper = record["input"]
        item = RoundItem(record["ID"], paper["title"], day, paper["abstractText"], "")
        future = future_of(rng.random(), rng, opened, weaknesses=record["output"])
        submissions.append(Submission(item, [], future))
        records.append({**{k: record[k] for k in ("ID", "track", "input")}, "submission_date": day})
    write_simulated_round(directory, submissions, opened, 7, {"demo": "paper_weakness"}, records)
    return directory


def write_demo_eqinfer(directory: Path) -> Path:
    """Write the demo set as ``equation.demo.json`` in ``directory``; returns the file."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / EQINFER_FILE
    path.write_text(json.dumps(DEMO_EQINFER, indent=2), encoding="utf-8")
    return path


# What ``research-taste demo`` runs for this family (found by core/families.py).
DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun(
        name="eqinfer",
        build=lambda data_dir: eqinfer(data_path=str(write_demo_eqinfer(data_dir / "eqinfer"))),
        model="baseline/all-positive",
        data_arg="data_path",
        write_data=write_demo_eqinfer,
    ),
    # The embedding metrics use the packaged MiniLM explicitly (recorded in the log metadata):
    # the paper's all-mpnet-base-v2 needs the Hub, so these are not paper numbers.
    DemoRun(
        name="expdesign",
        build=lambda data_dir: expdesign(
            data_path=str(write_demo_expdesign(data_dir / "expdesign")),
            embedding_model=OFFLINE_MODEL,
        ),
        model="baseline/copy-input",
        model_roles={"grader": "baseline/word-overlap-judge"},
        data_arg="data_path",
        write_data=write_demo_expdesign,
        # -T data_path=demo scores with it too unless the user names a model (offline).
        demo_arguments={"embedding_model": OFFLINE_MODEL},
    ),
    DemoRun(
        name="paper_weakness",
        build=lambda data_dir: paper_weakness(
            data_path=str(write_demo_weakness(data_dir / "paper_weakness")),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model="baseline/generic-weaknesses",
        data_arg="data_path",
        write_data=write_demo_weakness,
        demo_arguments={"embedding_model": OFFLINE_MODEL, "itf_idf_model": OFFLINE_MODEL},
    ),
    # The same papers as a round: their weaknesses listed before any review exists.
    DemoRun(
        name="paper_weakness_round",
        build=lambda data_dir: paper_weakness_round(
            round=str(write_demo_weakness_round(data_dir / "paper_weakness_round")),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model="baseline/generic-weaknesses",
        data_arg="round",
        write_data=write_demo_weakness_round,
        demo_arguments={"embedding_model": OFFLINE_MODEL, "itf_idf_model": OFFLINE_MODEL},
    ),
)
