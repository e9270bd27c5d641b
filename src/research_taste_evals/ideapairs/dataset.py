"""Load a pairs file (schema ``ideapairs/1``) as one Inspect sample per idea pair.

Both presentation orders of a pair live in one sample: the solver asks the model twice, and
the scorer sees both answers together, which is what the consistency-aware metric (section
6.1 of Mule et al.) needs and what keeps it correct under epochs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.text import fill_template
from research_taste_evals.ideapairs.pair_dates import check_dates, dates_note
from research_taste_evals.ideapairs.pairs_schema import PairRecord, read_pairs
from research_taste_evals.ideapairs.prompts import (
    FORECAST_PROMPT,
    PAPER_PROMPT,
    direction_fields,
)
from research_taste_evals.ideapairs.recall import idea_date

SplitChoice = Literal["test", "train", "all"]
PromptChoice = Literal["paper", "reasoning"]
ModeChoice = Literal["pairs", "ranking"]
PROMPTS: dict[str, str] = {"paper": PAPER_PROMPT, "reasoning": FORECAST_PROMPT}
SMALL_SPLIT_PAIRS = 100  # below this, the accuracy's CI is wide: the task warns
logger = logging.getLogger(__name__)
ALL_TIERS = (1, 2, 3)
RANKING_MIN_IDEAS = 3  # appendix B.10: leaderboards with at least 3 unique ideas
ORDERS = ("original", "swapped")


def parse_tiers(tiers: str | int | Sequence[int] | None) -> tuple[int, ...]:
    """Tiers from ``"1,2"``, ``2``, ``[1, 3]`` or None (all); raises ConfigError on others."""
    if tiers is None or tiers == "":
        return ALL_TIERS
    if isinstance(tiers, int):
        raw: list[Any] = [tiers]
    elif isinstance(tiers, str):
        raw = [part.strip() for part in tiers.split(",") if part.strip()]
    else:
        raw = list(tiers)
    try:
        parsed = tuple(sorted({int(t) for t in raw}))
    except ValueError as error:
        raise ConfigError(_tiers_message(tiers)) from error
    if not parsed or not set(parsed) <= set(ALL_TIERS):
        raise ConfigError(_tiers_message(tiers))
    return parsed


def _tiers_message(tiers: object) -> str:
    allowed = ", ".join(str(t) for t in ALL_TIERS)
    return (
        f"idea_pairs: argument 'tiers' got {tiers!r}; give tiers among {allowed}, "
        "e.g. -T tiers=1,2 (none: every tier)"
    )


def forecast_prompt(
    goal: str,
    idea_a: str,
    idea_b: str,
    prompt: str = "paper",
    lower_is_better: bool | None = None,
    metric: str | None = None,
) -> str:
    """The forecasting prompt (``paper`` or ``reasoning``) for one presentation order.

    ``lower_is_better``: the question says which way is better on a lower-is-better metric.
    """
    fields = direction_fields(lower_is_better, metric)
    if prompt == "paper":
        del fields["short_better"]
    else:
        del fields["did_better"]
    return fill_template(PROMPTS[prompt], goal=goal, idea_a=idea_a, idea_b=idea_b, **fields)


def _compare(a: float, b: float) -> bool | None:
    return None if a == b else a > b


def record_to_sample(original: PairRecord, swapped: PairRecord, prompt: str = "paper") -> Sample:
    """One sample holding both presentation orders of a pair.

    Reads from each record: ``pair_id``, ``benchmark_id``, ``benchmark``, ``goal``, ``tier``,
    ``delta_sigma``, ``split``, ``bucket``, ``label`` and, of ``idea_a``/``idea_b``:
    ``idea_id``, ``text``, ``text_source``, ``year``, ``paper_date``, ``unified_score``, and
    ``method``/``paper_title`` (never shown: the recognition probe's answer key); optional
    ``metric`` and ``lower_is_better`` (the prompt states the direction when lower is better).
    Each idea's ``date`` is its paper's, as precise as the file gives it (``paper_date``, else
    ``year``): a pair is post-cutoff when both are after the model's cutoff (``recall.py``).

    The input is the original order's prompt; the swapped prompt is rebuilt by the solver from
    the metadata. ``longer_better``/``newer_better`` (None on a tie) feed the bias report.
    """
    better = original.idea_a if original.label == "A" else original.idea_b
    worse = original.idea_b if original.label == "A" else original.idea_a
    ideas = {
        idea.idea_id: {
            "text": idea.text,
            "text_source": idea.text_source,
            "year": idea.year,
            "date": str(idea_date(idea.paper_date, idea.year, idea.idea_id)),
            "method": idea.method,
            "paper_title": idea.paper_title,
            "unified_score": idea.unified_score,
            "words": len(idea.text.split()),
        }
        for idea in (original.idea_a, original.idea_b)
    }
    orders = {
        record.order: {
            "idea_a": record.idea_a.idea_id,
            "idea_b": record.idea_b.idea_id,
            "label": record.label,
        }
        for record in (original, swapped)
    }
    return Sample(
        id=original.pair_id,
        input=forecast_prompt(
            original.goal,
            original.idea_a.text,
            original.idea_b.text,
            prompt,
            original.lower_is_better,
            original.metric,
        ),
        target=original.label,
        metadata={
            "pair_id": original.pair_id,
            "benchmark_id": original.benchmark_id,
            "benchmark": original.benchmark,
            "goal": original.goal,
            "tier": original.tier,
            "delta_sigma": original.delta_sigma,
            "split": original.split,
            "bucket": original.bucket,
            "prompt": prompt,
            "metric": original.metric,
            "lower_is_better": original.lower_is_better,
            "ideas": ideas,
            "orders": orders,
            "better_id": better.idea_id,
            "worse_id": worse.idea_id,
            "longer_better": _compare(len(better.text.split()), len(worse.text.split())),
            "newer_better": _compare(better.year, worse.year),
        },
    )


@dataclass(frozen=True)
class LoadedPairs:
    """The dataset and what the task records about where it came from."""

    dataset: MemoryDataset
    metadata: dict[str, Any]


def load_pairs(
    pairs_file: str | Path | None,
    split: SplitChoice,
    tiers: tuple[int, ...],
    prompt: PromptChoice = "paper",
    mode: ModeChoice = "pairs",
) -> LoadedPairs:
    """The pairs of ``split`` in ``tiers`` from a pairs file, one sample per pair.

    ``mode="ranking"`` (appendix B.10) instead asks every C(n, 2) pair of the ideas of each
    leaderboard (and split) with at least 3 ideas in the file, whatever their tier.

    Raises:
        DataError: no file given, an invalid file, or no pair left after filtering.
    """
    if prompt not in PROMPTS or mode not in ("pairs", "ranking"):
        raise ValueError(f"prompt must be paper|reasoning and mode pairs|ranking: {prompt}, {mode}")
    if pairs_file is None:
        raise DataError(
            "idea_pairs needs -T pairs_file=PAIRS.jsonl (no pair data was released; build one "
            "with: research-taste ideapairs build LEADERBOARDS... --out PAIRS.jsonl)"
        )
    path = Path(pairs_file).expanduser()
    records = read_pairs(path)
    check_dates(records, path)
    by_pair: dict[str, dict[str, PairRecord]] = {}
    for record in records:
        if (split == "all" or record.split == split) and record.tier in tiers:
            by_pair.setdefault(record.pair_id, {})[record.order] = record
    if mode == "ranking":
        samples = ranking_samples(
            [r for r in records if split == "all" or r.split == split], prompt
        )
    else:
        samples = [
            record_to_sample(orders["original"], orders["swapped"], prompt)
            for orders in by_pair.values()
        ]
    if not samples:
        raise DataError(f"{path}: no pairs with split={split}, tiers={list(tiers)}, mode={mode}")
    if len(samples) < SMALL_SPLIT_PAIRS:
        logger.warning(
            "idea_pairs: only %d pairs in split=%s (< %d): read the accuracy with its CI "
            "(accuracy/ci_low, accuracy/ci_high)",
            len(samples),
            split,
            SMALL_SPLIT_PAIRS,
        )
    sources = sorted(
        {r.idea_a.text_source for r in records} | {r.idea_b.text_source for r in records}
    )
    return LoadedPairs(
        dataset=MemoryDataset(samples=samples, name=f"idea-pairs-{split}", shuffled=False),
        metadata={
            "pairs_file": str(path),
            "pairs_file_sha256": sha256_of(path),
            "schema_version": records[0].schema_version,
            "split": split,
            "tiers": list(tiers) if mode == "pairs" else None,
            "mode": mode,
            "prompt": prompt,
            "pairs": len(samples),
            "small_split": len(samples) < SMALL_SPLIT_PAIRS,
            "idea_text_sources": sources,
            # Method name + paper title: the model can recognise the paper and recall its result.
            "identity_leak": "method_and_title" in sources,
            "item_dates": dates_note(records),
        },
    )


def ranking_samples(records: Sequence[PairRecord], prompt: str) -> list[Sample]:
    """Appendix B.10: every C(n, 2) pair of each leaderboard's ideas, boards with >= 3 ideas.

    Ideas are those of the (split's) records of a leaderboard; a pair of ideas with equal
    unified scores has no better idea and is not asked. Each pair is judged in both orders,
    the better idea shown first in the ``original`` order, as in the pairs file.
    """
    boards: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        board = boards.setdefault(
            (record.benchmark_id, record.split),
            {"record": record, "ideas": {}},
        )
        for idea in (record.idea_a, record.idea_b):
            board["ideas"][idea.idea_id] = idea
    samples = []
    for (_, split), board in boards.items():
        ideas = sorted(board["ideas"].values(), key=lambda idea: idea.idea_id)
        if len(ideas) < RANKING_MIN_IDEAS:
            continue
        base: PairRecord = board["record"]
        for i, first in enumerate(ideas):
            for second in ideas[i + 1 :]:
                if first.unified_score == second.unified_score:
                    continue
                better, worse = sorted((first, second), key=lambda idea: -idea.unified_score)
                shared = {"pair_id": f"rank-{base.benchmark_id}-{better.idea_id}-{worse.idea_id}"}
                original = base.model_copy(
                    update=shared
                    | {"order": "original", "label": "A", "y": 0, "split": split}
                    | {"idea_a": better, "idea_b": worse, "tier": base.tier}
                )
                swapped = original.model_copy(
                    update={"order": "swapped", "label": "B", "y": 1}
                    | {"idea_a": worse, "idea_b": better}
                )
                sample = record_to_sample(original, swapped, prompt)
                assert sample.metadata is not None
                sample.metadata.update({"tier": None, "delta_sigma": None, "bucket": None})
                samples.append(sample)
    return samples
