"""The report's rounds table (docs/rounds.md): per model and round, the scored figures.

Rows come from the scored logs ``research-taste round score`` writes (``*-scored-<labels
version>.eval``): for each judgment log the newest labels version. Columns: judged at (the
judgment's start), labels as of (the labels version), labelled share, prospective share and the
headline ``pairwise_accuracy`` with its CI. The pooled figure pools the pairs of every resolved
round (no pending item) per model and bootstraps over pairs; it counts prospective decisions
only, so a model judged after a round's labels existed is not ranked on that round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from research_taste.reporting.leaderboard import markdown_table

SCORED_MARK = "-scored-"


@dataclass
class RoundRow:
    model: str
    round: str
    judged_at: str
    labels: str
    metrics: dict[str, float]
    scores: list[Any]  # SampleScore of every sample, pair ids made unique per round


def _figure(value: float | None) -> str:
    return "nan" if value is None or not math.isfinite(value) else f"{value:.3g}"


def _headline(figures: dict[str, float]) -> str:
    low, high = figures.get("pairwise_accuracy_ci_low"), figures.get("pairwise_accuracy_ci_high")
    return f"{_figure(figures.get('pairwise_accuracy'))} [{_figure(low)}, {_figure(high)}]"


def _sample_scores(log: Any, round_name: str) -> list[Any]:
    from inspect_ai.scorer import SampleScore

    out = []
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            metadata = dict(sample.metadata or {})
            metadata["pair_id"] = f"{round_name}/{metadata.get('pair_id')}"
            out.append(SampleScore(score=score, sample_id=sample.id, sample_metadata=metadata))
    return out


def round_rows(log_dir: str) -> list[RoundRow]:
    """The newest scored log of every judgment log under ``log_dir``."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    newest: dict[str, tuple[str, Any]] = {}
    for info in list_eval_logs(log_dir):
        name = info.name.rsplit("/", 1)[-1]
        if SCORED_MARK not in name:
            continue
        stem, version = name.removesuffix(".eval").split(SCORED_MARK, 1)
        if stem not in newest or version > newest[stem][0]:
            newest[stem] = (version, info.name)
    rows = []
    for version, location in newest.values():
        log = read_eval_log(location)
        round_info = (log.eval.metadata or {}).get("round") or {}
        name = str(round_info.get("name") or "?")
        metrics = {
            key: metric.value
            for score in (log.results.scores if log.results else [])
            for key, metric in score.metrics.items()
        }
        rows.append(
            RoundRow(
                model=log.eval.model,
                round=name,
                judged_at=log.eval.created[:16],
                labels=version,
                metrics=metrics,
                scores=_sample_scores(log, name),
            )
        )
    return sorted(rows, key=lambda row: (row.round, row.model))


def pooled(rows: list[RoundRow]) -> dict[str, dict[str, float]]:
    """Per model: the headline over the pairs of every resolved round, prospective only."""
    from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
    from research_taste_evals.tastybench.round_scorer import round_summary

    by_model: dict[str, list[Any]] = {}
    for row in rows:
        if row.metrics.get("pending_items") == 0:
            by_model.setdefault(row.model, []).extend(row.scores)
    return {
        model: round_summary(scores, DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED)
        for model, scores in by_model.items()
    }


def rounds_markdown(log_dir: str) -> str:
    """The report's "Rounds" section; empty when the folder holds no scored round log."""
    rows = round_rows(log_dir)
    if not rows:
        return ""
    lines = [
        [
            "model",
            "round",
            "judged at",
            "labels as of",
            "labelled share",
            "prospective share",
            "pairwise_accuracy [95% CI]",
        ]
    ]
    for row in rows:
        m = row.metrics
        lines.append(
            [
                row.model,
                row.round,
                row.judged_at,
                row.labels,
                _figure(m.get("labelled_share")),
                _figure(m.get("prospective_share")),
                _headline(m),
            ]
        )
    ranked = sorted(
        pooled(rows).items(),
        key=lambda item: (
            -item[1]["pairwise_accuracy"]
            if math.isfinite(item[1]["pairwise_accuracy"])
            else math.inf
        ),
    )
    pooled_lines = [["model", "pairs", "pairwise_accuracy [95% CI]"]] + [
        [
            model,
            str(int(figures["pairs"])),
            _headline(figures),
        ]
        for model, figures in ranked
    ]
    return (
        "## Rounds\n\nJudged before their labels existed (docs/rounds.md); the headline counts "
        "prospective decisions only.\n\n"
        + markdown_table(lines)
        + "\n\nPooled over resolved rounds (pairs pooled, CI over pairs), ranked:\n\n"
        + markdown_table(pooled_lines)
        + "\n"
    )
