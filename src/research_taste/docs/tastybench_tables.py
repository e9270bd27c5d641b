"""The figures of the TastyBench README, computed from logs (never typed by hand).

Three generated blocks, each between ``<!-- BEGIN generated: NAME -->`` and
``<!-- END generated: NAME -->`` in ``README.md``:

- ``upstream-runs``: upstream's 18 stored runs (``rankings.csv``: winner, loser in order;
  ``correlation.json``: their rho), rated by the same functions the metrics use
  (``ratings.py``), against upstream, windowed and common-window velocity.
- ``baselines``: Inspect logs of the offline baselines on the real curated set
  (:data:`BASELINE_RUNS`), read with :func:`baseline_row`.
- ``data-facts``: properties of the ground truth computed from the upstream files.

``bench/tastybench_readme.py`` runs the baselines and rewrites the blocks.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from research_taste_evals.core.data import read_csv
from research_taste_evals.core.resampling import rank_correlation_with_ci
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    spearman,
)
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.tastybench.dataset import (
    DEFAULT_WINDOW_MONTHS,
    UPSTREAM_DATA_DIR,
    Paper,
    load_papers,
)
from research_taste_evals.tastybench.parsing import parse_extractor_reply, parse_judge_answer
from research_taste_evals.tastybench.ratings import (
    RunJudgements,
    partial_rho,
    publication_month,
    rate_run,
    reliability_summary,
    upstream_rank_pearson,
)

RUN_FOLDER = re.compile(r"(?P<prompt>[a-z-]*?)-?curated/(?P<model>[^/]+)/(?P<epochs>\d+)-epochs")
PROMPT_LABELS = {"": "curated (normal)", "goodhart": "goodhart", "max-goodhart": "max-goodhart"}


@dataclass(frozen=True)
class BaselineRun:
    """One offline baseline run of the README's table: model and task arguments."""

    model: str
    label: str
    args: dict[str, Any]


BASELINE_RUNS: tuple[BaselineRun, ...] = (
    BaselineRun("baseline/citation-oracle", "oracle: knows velocity", {}),
    BaselineRun("baseline/random", "seeded coin per pair", {}),
    BaselineRun("baseline/tastybench-longer", "longer idea wins", {}),
    BaselineRun("baseline/tastybench-longer", "longer idea wins", {"velocity": "upstream"}),
    BaselineRun("baseline/tastybench-longer", "longer idea wins", {"velocity": "common_window"}),
    BaselineRun("baseline/tastybench-first", "always Project 1", {}),
    BaselineRun("baseline/tastybench-first", "always Project 1", {"schedule": "adjacent"}),
)
BASELINE_DEFAULTS: dict[str, Any] = {"schedule": "all_pairs", "velocity": "windowed"}


def _num(value: float, digits: int = 3) -> str:
    return "NaN" if math.isnan(value) else f"{value:.{digits}f}"


def _ci(low: float, high: float) -> str:
    return "" if math.isnan(low) else f" [{low:.2f}, {high:.2f}]"


def _reliability(half: float, corrected: float) -> str:
    return f"{_num(half, 2)} ({_num(corrected, 2)})"


def _table(header: Sequence[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _velocity_maps(papers: list[Paper]) -> dict[str, dict[str, float]]:
    return {
        mode: {paper.paper_id: paper.velocity(mode) for paper in papers}
        for mode in ("upstream", "windowed", "common_window")
    }


def upstream_run_row(
    folder: Path, papers: list[Paper], resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES
) -> list[str]:
    """One row of the upstream-runs table for a stored run folder."""
    match = RUN_FOLDER.search(folder.as_posix())
    if match is None:
        raise ValueError(f"{folder}: not an upstream curated run folder")
    comparisons = [
        (r["better_paper_id"], r["worse_paper_id"]) for r in read_csv(folder / "rankings.csv")
    ]
    truth = _velocity_maps(papers)
    months = {paper.paper_id: publication_month(paper.pub_date) for paper in papers}
    run = RunJudgements(
        decisions=[(winner, loser, winner) for winner, loser in comparisons],
        paper_ids=[paper.paper_id for paper in papers],
        truth=truth["windowed"],
        pub_month=months,
    )
    ratings = rate_run(run)
    bt, elo = ratings["bt"], ratings["elo"]
    finite = {mode: {k: v for k, v in m.items() if math.isfinite(v)} for mode, m in truth.items()}
    windowed = rank_correlation_with_ci(
        bt, truth["windowed"], seed=DEFAULT_BOOTSTRAP_SEED, resamples=resamples
    )
    common = rank_correlation_with_ci(bt, truth["common_window"], resamples=1)
    reliability = reliability_summary(run, DEFAULT_BOOTSTRAP_SEED)
    scheduled = int(match["epochs"]) * (len(papers) - 1)
    stored = json.loads((folder / "correlation.json").read_text(encoding="utf-8"))["correlation"]
    keys = sorted(bt)
    return [
        f"{PROMPT_LABELS[match['prompt']]} {match['model']} {match['epochs']}",
        f"{len(comparisons)} / {scheduled}",
        _num(stored),
        _num(upstream_rank_pearson(elo, finite["upstream"])),
        _num(spearman([bt[k] for k in keys], [truth["upstream"][k] for k in keys])),
        _num(windowed["rho"]) + _ci(windowed["ci_low"], windowed["ci_high"]),
        _num(partial_rho(bt, truth["windowed"], months)),
        f"{_num(common['rho'])} ({int(common['n'])})",
        _reliability(reliability["bt_split_half"], reliability["bt_spearman_brown"]),
    ]


UPSTREAM_HEADER = (
    "upstream run",
    "used / scheduled",
    "upstream rho (Elo, `b`)",
    "our Elo replay",
    "BT rho (`b`)",
    "**BT rho (windowed)** [95% CI]",
    "BT partial rho (windowed, publication month)",
    f"BT rho (common {DEFAULT_WINDOW_MONTHS} months) (papers)",
    "BT reliability (Spearman-Brown)",
)


def upstream_runs_table(upstream: Path, resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES) -> str:
    """The upstream-runs table: every stored curated run with a correlation.json."""
    papers = load_papers("curated", "idea", upstream).papers
    data = upstream / UPSTREAM_DATA_DIR
    folders = sorted(path.parent for path in data.glob("*curated/*/*-epochs/correlation.json"))
    return _table(UPSTREAM_HEADER, [upstream_run_row(f, papers, resamples) for f in folders])


def _metrics(log: EvalLog) -> dict[str, float]:
    return log_results(log)


def baseline_row(log: EvalLog, label: str) -> list[str]:
    """One row of the baselines table from a finished ``tastybench`` log."""
    m = _metrics(log)
    args = {**BASELINE_DEFAULTS, **(log.eval.task_args or {})}
    return [
        f"`{log.eval.model}` ({label})",
        str(args["velocity"]),
        str(args["schedule"]),
        _num(m["bt_spearman"]) + _ci(m["bt_spearman_ci_low"], m["bt_spearman_ci_high"]),
        _num(m["elo_spearman"]) + _ci(m["elo_spearman_ci_low"], m["elo_spearman_ci_high"]),
        _num(m["bt_partial_spearman"]),
        str(int(m["papers_correlated"])),
        _num(m["position_bias"], 2),
        _num(m["order_consistency"], 2),
        _reliability(m["bt_split_half"], m["bt_spearman_brown"]),
    ]


BASELINE_HEADER = (
    "judge",
    "velocity",
    "schedule",
    "**BT rho** [95% CI]",
    "Elo rho (upstream-comparable) [95% CI]",
    "BT partial rho",
    "papers",
    "position bias",
    "consistency",
    "BT reliability (S-B)",
)


def baselines_table(logs: Sequence[tuple[EvalLog, str]]) -> str:
    """The baselines table from (log, label) pairs, in the given order."""
    return _table(BASELINE_HEADER, [baseline_row(log, label) for log, label in logs])


def data_facts(upstream: Path) -> str:
    """Ground-truth facts of the curated set, as a markdown list."""
    papers = load_papers("curated", "idea", upstream).papers
    ids = [paper.paper_id for paper in papers]
    truth = _velocity_maps(papers)
    rows = {
        row["paperId"]: row
        for row in read_csv(upstream / UPSTREAM_DATA_DIR / "llm_rl_yix_curate.csv")
    }
    flat = sum(
        paper.months_observed < len(json.loads(rows[paper.paper_id]["citation_dates"]))
        for paper in papers
    )
    observed = [float(paper.months_observed) for paper in papers]
    windowed = [truth["windowed"][k] for k in ids]
    months = [publication_month(paper.pub_date) for paper in papers]
    with_window = sum(math.isfinite(truth["common_window"][k]) for k in ids)
    facts = [
        f"{len(papers)} curated papers; {flat} have months after the 2025-11-08 fetch "
        "(flat-filled in upstream's `b`).",
        f"Months observed per paper: {min(observed):.0f} to {max(observed):.0f}.",
        "Spearman between windowed velocity and upstream `b`: "
        f"{_num(spearman(windowed, [truth['upstream'][k] for k in ids]), 2)}.",
        "Spearman between windowed velocity and months observed: "
        f"{_num(spearman(windowed, observed), 2)}; with publication month: "
        f"{_num(spearman(windowed, months), 2)}.",
        f"Common window of {DEFAULT_WINDOW_MONTHS} months: {with_window} of {len(papers)} "
        "papers have it; Spearman of common-window velocity with publication month: "
        f"{_num(spearman(*_finite_pairs(truth['common_window'], months, ids)), 2)}.",
    ]
    return "\n".join(f"- {fact}" for fact in facts)


def _finite_pairs(
    values: dict[str, float], months: list[float], ids: list[str]
) -> tuple[list[float], list[float]]:
    kept = [
        (values[k], month) for k, month in zip(ids, months, strict=True) if math.isfinite(values[k])
    ]
    return [v for v, _ in kept], [m for _, m in kept]


LOGGED_EXCHANGE = re.compile(
    r"<transcript>\n(.*?)\n</transcript>\nResponse:\n(.*?)\n={80}", re.DOTALL
)


def parser_facts(upstream: Path) -> str:
    """How our parser reads the judge answers quoted in upstream's ``ranking.log`` files,
    against upstream's extractor replies to the same answers."""
    exchanges = []
    for log in sorted((upstream / UPSTREAM_DATA_DIR).rglob("ranking.log")):
        text = log.read_text(encoding="utf-8")
        exchanges += [(m.group(1), m.group(2)) for m in LOGGED_EXCHANGE.finditer(text)]
    decided = agree = contradict = 0
    for answer, reply in exchanges:
        reference, _ = parse_extractor_reply(reply)
        if reference is None:
            continue
        decided += 1
        parsed = parse_judge_answer(answer)
        agree += parsed == reference
        contradict += parsed is not None and parsed != reference
    return (
        f"- {len(exchanges)} judge answers quoted in upstream's logs; upstream's extractor "
        f"decided {decided}; our parser agrees on {agree}, contradicts {contradict} and "
        f"defers the other {decided - agree - contradict} to the extractor."
    )
