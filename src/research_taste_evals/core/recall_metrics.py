"""A run's recall figures, built from a task's declaration and its family's own statistic.

:func:`recall_summary` (``core/recall_control.py`` declares, this module measures) turns a
:class:`~research_taste_evals.core.spec.TaskSpec` and the family's statistic
(``list[SampleScore] -> {H, H_ci_low, H_ci_high[, n, <subset_counts>]}``, the headline H as
the family computes it; ``n`` is the twin's count, by default the number of samples) into one
function over the run's scores returning, from the same answers as the headline:

- three twins of H, each on the samples whose EVERY item is in the subset:
  ``H_post_cutoff`` (published after the stated cutoff), ``H_unrecognized`` (probed, not
  recognised) and ``H_clean`` (after the run's clean cutoff, and, when probed, not recognised;
  an item whose text names it is never probed, so never clean), with CIs and counts
  (``<post_cutoff_count>``, ``<unrecognized_count>``, ``clean_items``);
- ``recognized_rate``, ``recognized_items``, ``probed_items``, ``leaked_items``;
- ``estimated_cutoff`` (YYYYMM), ``estimated_cutoff_agreement``, ``estimated_cutoff_items``
  (``core/cutoff_estimate.py``), ``post_cutoff_recognized`` (items after the stated cutoff
  the model recognised) and ``clean_cutoff`` (YYYYMM of the cutoff the clean twin used: the
  later of the stated and the estimated one).

Undefined is NaN with its reason logged once (no cutoff, no dates, nothing probed, too few
items), never 0. When the model recognises items after the stated cutoff, one warning line
per run says the stated cutoff is contradicted and by how many items. The run's items (date,
recognised, identity leak) and its stated cutoff are read from the scores by
``core/recall_items.py``.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Callable, Mapping

from inspect_ai.scorer import SampleScore

from research_taste_evals.core.cutoff_estimate import (
    CutoffEstimate,
    estimate_cutoff,
    month_end,
    month_number,
    month_text,
)
from research_taste_evals.core.dates import is_post_cutoff
from research_taste_evals.core.recall_control import RECALL_FIELD
from research_taste_evals.core.recall_items import (
    ItemRecord,
    item_records,
    recognition_values,
    stated_cutoff,
)
from research_taste_evals.core.spec import TaskSpec
from research_taste_evals.core.stats import NAN

logger = logging.getLogger(__name__)

Statistic = Callable[[list[SampleScore]], Mapping[str, float]]
SUBSETS = ("post_cutoff", "unrecognized", "clean")
CUTOFF_KEYS = (
    "estimated_cutoff",
    "estimated_cutoff_agreement",
    "estimated_cutoff_items",
    "post_cutoff_recognized",
    "clean_cutoff",
)
RECOGNITION_KEYS = ("recognized_rate", "recognized_items", "probed_items", "leaked_items")


def recall_keys(control: TaskSpec) -> list[str]:
    """Every key :func:`recall_summary` returns for ``control`` (for a metric's NaN fallback)."""
    counts = {
        "post_cutoff": control.post_cutoff_count,
        "unrecognized": control.unrecognized_count,
        "clean": control.clean_count,
    }
    keys = []
    for subset in SUBSETS:
        keys += [f"{control.headline}_{subset}{s}" for s in ("", "_ci_low", "_ci_high")]
        keys += [counts[subset]] + [f"{subset}_{extra}" for extra in control.subset_counts]
    return keys + list(RECOGNITION_KEYS) + list(CUTOFF_KEYS)


def recall_summary(
    control: TaskSpec, statistic: Statistic, run_lines: bool = True
) -> Callable[[list[SampleScore]], dict[str, float]]:
    """The run's recall figures for ``control`` from ``statistic`` (module docstring).

    ``run_lines=False`` logs only the lines about this headline's twins (a second headline of
    the same run: the cutoff lines are said once, by the first).

    The returned function logs each reason and the contradiction warning once per run: Inspect
    also computes metrics while samples are still running (its progress display), so a line
    is said the first time its kind is seen, and the counts it gives are those of that moment;
    the logged metrics are the run's.
    """
    said: set[str] = set()

    def say(level: int, message: str, kind: str | None = None) -> None:
        if not run_lines and f"{control.headline}_" not in message:
            return
        if (kind or message) not in said:
            said.add(kind or message)
            logger.log(level, message)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result: dict[str, float] = dict.fromkeys(recall_keys(control), NAN)
        items = item_records(scores)
        stated = stated_cutoff(scores)
        recognition = recognition_values(items)
        result |= recognition
        probed = not math.isnan(recognition["probed_items"])
        if probed and recognition["probed_items"] == 0 and recognition["leaked_items"] > 0:
            say(
                logging.INFO,
                f"{control.task}: recognized_rate is NaN: all {int(recognition['leaked_items'])} "
                "probed items name their own paper in the text the judge reads "
                "(identity_leak), so the probe is moot",
            )
        estimate = estimate_cutoff((r.date, r.recognized) for r in items.values())
        clean_date, source = _clean_cutoff(stated, estimate if probed else None)
        if probed:
            result |= _cutoff_figures(control, items, stated, estimate, say)
        result["clean_cutoff"] = (
            month_number((clean_date.year, clean_date.month)) if clean_date else NAN
        )
        dated = control.dated and any(r.date is not None for r in items.values())
        if not dated:
            say(
                logging.INFO,
                f"{control.task}: no post-cutoff or clean twins: the items carry no dates",
            )
            return result
        if clean_date is not None:
            say(
                logging.INFO, f"{control.task}: clean items are dated after {clean_date} ({source})"
            )
        if not probed:
            say(
                logging.INFO,
                f"{control.task}: nothing was probed: clean items are the items after the "
                "stated cutoff",
            )

        def post(record: ItemRecord) -> bool:
            return (
                record.date is not None
                and stated is not None
                and is_post_cutoff(record.date, stated)
            )

        def clean(record: ItemRecord) -> bool:
            after = (
                record.date is not None
                and clean_date is not None
                and is_post_cutoff(record.date, clean_date)
            )
            return after and (record.recognized is False if probed else True)

        subsets: dict[str, tuple[Callable[[ItemRecord], bool], str | None]] = {
            "post_cutoff": (post, None if stated else "no cutoff: none stated"),
            "unrecognized": (
                lambda r: r.recognized is False,
                None if probed else "nothing was probed",
            ),
            "clean": (clean, None if clean_date else "no cutoff: none stated, none estimated"),
        }
        for subset, (keep, missing) in subsets.items():
            if missing:
                say(logging.INFO, f"{control.task}: {control.headline}_{subset} is NaN: {missing}")
                continue
            result |= _twin(control, subset, scores, items, keep, statistic, say)
        return result

    return compute


def _clean_cutoff(
    stated: dt.date | None, estimate: CutoffEstimate | None
) -> tuple[dt.date | None, str]:
    """The later of the stated cutoff and the month the answers show recall through."""
    shown = month_end(estimate.through) if estimate and estimate.through else None
    if shown is None:
        return stated, "the stated cutoff" if stated else "none"
    if stated is not None and stated >= shown:
        return stated, "the stated cutoff, later than the estimated one"
    how = (
        "the estimated cutoff"
        if estimate and estimate.month
        else estimate.reason
        if estimate
        else ""
    )
    return shown, f"{how}; stated {stated or 'none'}"


def _cutoff_figures(
    control: TaskSpec,
    items: Mapping[str, ItemRecord],
    stated: dt.date | None,
    estimate: CutoffEstimate,
    say: Callable[..., None],
) -> dict[str, float]:
    """The estimate's figures and ``post_cutoff_recognized`` (with its warning)."""
    if estimate.month is None:
        say(
            logging.INFO,
            f"{control.task}: estimated_cutoff is NaN: the model {estimate.reason}"
            if estimate.through
            else f"{control.task}: estimated_cutoff is NaN: {estimate.reason}",
        )
    figures = {
        "estimated_cutoff": estimate.yyyymm,
        "estimated_cutoff_agreement": estimate.agreement,
        "estimated_cutoff_items": float(estimate.n),
    }
    if stated is None:
        return figures
    after = [r for r in items.values() if r.date is not None and is_post_cutoff(r.date, stated)]
    known = sum(1 for r in after if r.recognized is True)
    if known:
        shown = month_text(estimate.through) if estimate.through else "unknown"
        say(
            logging.WARNING,
            f"{control.task}: the stated knowledge cutoff {stated} is contradicted: the model "
            f"recognised {known} of the {len(after)} items published after it scored so far "
            f"(its answers show recall through {shown}; post_cutoff_recognized counts the run's)",
            "contradicted",
        )
    return figures | {"post_cutoff_recognized": float(known)}


def _twin(
    control: TaskSpec,
    subset: str,
    scores: list[SampleScore],
    items: Mapping[str, ItemRecord],
    keep: Callable[[ItemRecord], bool],
    statistic: Statistic,
    say: Callable[..., None],
) -> dict[str, float]:
    """The headline on the samples whose every item is kept, its CI and counts."""
    count_key = {
        "post_cutoff": control.post_cutoff_count,
        "unrecognized": control.unrecognized_count,
        "clean": control.clean_count,
    }[subset]
    chosen = []
    for score in scores:
        shown = list((score.score.metadata or {}).get(RECALL_FIELD) or {})
        if shown and all(keep(items[str(item)]) for item in shown):
            chosen.append(score)
    name = f"{control.headline}_{subset}"
    values: Mapping[str, float] = statistic(chosen) if chosen else {}
    result = {
        f"{name}{suffix}": float(values.get(f"{control.headline}{suffix}", NAN))
        for suffix in ("", "_ci_low", "_ci_high")
    }
    result[count_key] = float(values.get("n", len(chosen)))
    for extra in control.subset_counts:
        result[f"{subset}_{extra}"] = float(values.get(extra, 0.0))
    if math.isnan(result[name]):
        say(
            logging.INFO,
            f"{control.task}: {name} is NaN: too few items ({count_key} = "
            f"{int(result[count_key])} when first computed)",
            f"too few {name}",
        )
    return result
