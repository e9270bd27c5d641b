"""Demo rows the project writes, in the main split's row format: invented papers, no real row.

Six invented pairs (four fields, 2019 to 2025), one presentation order each, as the Hub's
main split holds them today (its user turn is ``prompts.MAIN_USER_TEMPLATE``); the task asks
each in both orders. Three answers are "A" and three "B": the citation oracle scores 1, the
always-A baseline 0 (right in one order of every pair; ``accuracy_single_order`` 0.5). One
more row has equal citations and is left out (``left_out_by_reason``). The rows are shipped as
``demo_rows.jsonl`` beside this module (``python -m research_taste_evals.scijudge.demo`` writes
it again; tests/scijudge/test_prompts_and_demo.py fails if it drifts). Nothing here is real
research.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.text import fill_template
from research_taste_evals.scijudge.prompts import MAIN_USER_TEMPLATE
from research_taste_evals.scijudge.scijudge import scijudge

DEMO_FILE = Path(__file__).with_name("demo_rows.jsonl")
TODAY = "2025-12-10"
SYSTEM = (
    "You are a helpful assistant. You first think about the reasoning process in your mind "
    "and then provide the user with the answer."
)
# (arxiv id, title, abstract, date, citations, category, subcategory)
Paper = tuple[str, str, str, str, int, str, str]
FIELDS = (("title", 1), ("abstract", 2), ("date", 3))  # MAIN_USER_TEMPLATE's paper fields
_CS, _PHYS, _MATH, _OTHER = "Computer Science", "Physics", "Mathematics", "Others"
PAPERS: dict[str, Paper] = {
    "d1": ("demo.0001", "Routing tokens through sparse experts in small encoders",
           "We route each token of a small encoder to one of several feed-forward experts and "
           "train the router with a load-balancing loss; the encoder matches a dense one at a "
           "third of the compute.", "2019-03-04", 512, _CS, "cs.CL cs.LG"),
    "d2": ("demo.0002", "A note on tokenizer artefacts in character counts",
           "We list cases where subword tokenizers split numbers and dates unevenly and count "
           "how often this changes a character-level answer.", "2019-03-21", 14, _CS, "cs.CL"),
    "d3": ("demo.0003", "Cold-atom lattices with tunable next-neighbour hopping",
           "A two-colour optical lattice makes next-neighbour hopping tunable in sign and "
           "size; we map the resulting phase diagram.", "2020-06-02", 230, _PHYS,
           "cond-mat.quant-gas"),
    "d4": ("demo.0004", "Thermal drift corrections for a table-top interferometer",
           "We model the thermal drift of a table-top interferometer and correct it with two "
           "reference arms.", "2020-06-15", 9, _PHYS, "physics.ins-det"),
    "d5": ("demo.0005", "Sharp bounds for sums over sparse random graphs",
           "We prove matching upper and lower bounds for edge sums over sparse random graphs "
           "and show where the bound is attained.", "2022-01-10", 88, _MATH, "math.PR"),
    "d6": ("demo.0006", "An elementary proof of a lattice counting identity",
           "We give a short elementary proof of a known identity for counting lattice points "
           "in dilated polygons.", "2022-01-28", 3, _MATH, "math.CO"),
    "d7": ("demo.0007", "Open tools for tracking river sediment from satellite images",
           "We release tools that estimate river sediment load from public satellite images "
           "and validate them on three basins.", "2024-02-05", 61, _OTHER, "q-bio.QM"),
    "d8": ("demo.0008", "Survey responses on lab notebook habits",
           "We survey lab members about how they keep notebooks and report the answers.",
           "2024-02-19", 2, _OTHER, "physics.soc-ph"),
    "d9": ("demo.0009", "Verifier-guided sampling for program synthesis",
           "A learned verifier reranks sampled programs during decoding, raising pass rates on "
           "synthesis benchmarks without more samples.", "2025-04-01", 140, _CS, "cs.LG"),
    "d10": ("demo.0010", "Notes on caching compiled kernels across runs",
            "We describe a cache for compiled GPU kernels keyed by source and device.",
            "2025-04-22", 6, _CS, "cs.DC"),
    "d11": ("demo.0011", "Magnon transport in a layered antiferromagnet",
            "We measure how far spin waves travel in a layered antiferromagnetic crystal and "
            "fit a diffusion model.", "2025-05-06", 21, _PHYS, "cond-mat.mes-hall"),
    "d12": ("demo.0012", "Graphene plasmons pushed to the ultraviolet",
            "Doping and strain shift graphene plasmons into the ultraviolet, opening sensors "
            "for short wavelengths.", "2025-05-14", 97, _PHYS, "cond-mat.mtrl-sci"),
    "d13": ("demo.0013", "A curated list of benchmark licences",
            "We collect the licences of two hundred public benchmarks.", "2023-07-03", 40, _CS,
            "cs.CL"),
    "d14": ("demo.0014", "Licence terms of public speech corpora",
            "We collect the licence terms of public speech corpora.", "2023-07-11", 40, _CS,
            "cs.SD"),
}  # fmt: skip
# (paper shown as A, paper shown as B): one order per pair, in file order.
ROWS: tuple[tuple[str, str], ...] = (
    ("d1", "d2"), ("d4", "d3"), ("d5", "d6"), ("d8", "d7"), ("d9", "d10"), ("d11", "d12"),
    ("d13", "d14"),  # equal citations: left out
)  # fmt: skip


def _side(side: str, paper: Paper) -> dict[str, Any]:
    arxiv_id, title, abstract, date, citations, category, subcategory = paper
    return {
        f"paper_{side}_citations": citations,
        f"paper_{side}_title": title,
        f"paper_{side}_abstract": abstract,
        f"paper_{side}_date": date,
        f"paper_{side}_category": category,
        f"paper_{side}_subcategory": subcategory,
        f"paper_{side}_arxiv_id": arxiv_id,
    }


def demo_row(a: Paper, b: Paper) -> dict[str, Any]:
    """One row in the main split's format: messages, correct_answer, both papers' fields."""
    user = fill_template(
        MAIN_USER_TEMPLATE,
        today=TODAY,
        **{f"{key}_{side}": str(p[i]) for side, p in (("a", a), ("b", b)) for key, i in FIELDS},
    )
    return {
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": user},
        ],
        "correct_answer": "A" if a[4] > b[4] else "B",
        **_side("a", a),
        **_side("b", b),
    }


def demo_rows() -> list[dict[str, Any]]:
    """Every demo row, in file order."""
    return [demo_row(PAPERS[a], PAPERS[b]) for a, b in ROWS]


def demo_text() -> str:
    """The demo file's bytes as text: one JSON object per line."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in demo_rows())


def write_demo(folder: Path) -> Path:
    """Copy the shipped demo rows into ``folder`` and return the file."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "scijudge_demo.jsonl"
    shutil.copyfile(DEMO_FILE, target)
    return target


DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun(
        name="scijudge",
        build=lambda data_dir: scijudge(data_path=str(write_demo(data_dir))),
        model="baseline/scijudge-oracle",
        data_arg="data_path",
        write_data=write_demo,
    ),
)

if __name__ == "__main__":
    DEMO_FILE.write_text(demo_text(), encoding="utf-8")
