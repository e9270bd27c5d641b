"""The round cycle's steps on one source or one round (``cli/cycle_run.py`` runs them in order):
when a source is due, open it; when a round needs a resolve, resolve it; which labels version
its judgments are scored with.

Each decision reads the round folders alone (``round.json`` and the labels files), so a second
run on the same day finds the work done and asks nothing again:

- **open**: a source is due when its newest round opened ``cadence_days`` or more calendar days
  (UTC) ago, or it has none; the round's folder is ``<source name>-<YYYY-MM-DD>``. An open
  interrupted midway leaves that folder without ``round.json``: the next run resumes it from
  its cache (``round open`` does).
- **resolve**: at most once a day (UTC) per round; not on the day it opened (open has just
  found no label); never again once its newest labels version is ``resolved`` with every
  item's horizon reached (a conference's or journal's decision, an arXiv window's end: the
  labels cannot change any more), nor after ``resolve_days``.
- **score**: with the earliest labels version whose labels (each item's label, label time and
  drop) equal the newest's, so a night that changed no label scores nothing again; no version
  with a label or a drop yet: nothing to score.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_taste.rounds.cycle_config import ArxivSource, CycleConfig, OpenReviewSource
from research_taste_evals.core.data import DataError, read_csv
from research_taste_evals.core.rounds import is_round, parse_time, read_manifest

DATE = r"\d{4}-\d{2}-\d{2}"


def round_folder(config: CycleConfig, name: str, day: dt.date) -> Path:
    """The folder of the source ``name``'s round opened on ``day``."""
    return Path(config.rounds_dir) / f"{name}-{day.isoformat()}"


def source_rounds(config: CycleConfig, name: str) -> list[Path]:
    """The source's round folders, oldest first (an interrupted open's folder included)."""
    folder = Path(config.rounds_dir)
    if not folder.is_dir():
        return []
    pattern = re.compile(rf"{re.escape(name)}-({DATE})")
    return sorted(path for path in folder.iterdir() if pattern.fullmatch(path.name))


def opened_on(folder: Path) -> dt.date | None:
    """The UTC day the round opened (None: its open has not finished)."""
    if not is_round(folder):
        return None
    opened = parse_time(read_manifest(folder)["opened_at"])
    return None if opened is None else opened.astimezone(dt.UTC).date()


def next_open(config: CycleConfig, name: str) -> dt.date | None:
    """The day the source is next due (None: due now, it has no finished round)."""
    days = [day for folder in source_rounds(config, name) if (day := opened_on(folder))]
    return max(days) + dt.timedelta(days=config.cadence_days) if days else None


def open_source(
    source: OpenReviewSource | ArxivSource,
    config: CycleConfig,
    now: dt.datetime,
    min_interval: float | None,
) -> tuple[Path, dict[str, Any]]:
    """Open today's round of ``source`` (resuming an interrupted open of it); its manifest."""
    unfinished = [path for path in source_rounds(config, source.name) if not is_round(path)]
    out = unfinished[-1] if unfinished else round_folder(config, source.name, now.date())
    if isinstance(source, ArxivSource):
        from research_taste.rounds.arxiv import open_arxiv

        manifest = open_arxiv(
            source.category,
            source.days,
            out,
            window_months=source.window_months,
            base_url=source.api_base,
            now=lambda: now,
            judge_days=source.judge_days,
            min_interval=min_interval,
        )
    else:
        from research_taste.builders.openreview.client import MIN_INTERVAL
        from research_taste.rounds.openreview import open_openreview

        manifest = open_openreview(
            source.venue,
            out,
            base_url=source.api_base,
            now=lambda: now,
            pdfs=source.pdfs,
            max_items=source.max_items,
            seed=source.seed,
            judge_days=source.judge_days,
            min_interval=MIN_INTERVAL if min_interval is None else min_interval,
        )
    return out, manifest


def latest_version(folder: Path) -> dict[str, Any] | None:
    versions = read_manifest(folder).get("label_versions") or []
    return versions[-1] if versions else None


def settled(entry: dict[str, Any] | None) -> bool:
    """Whether a labels version's entry says the labels cannot change any more."""
    return bool(entry and entry.get("resolved") and entry.get("horizon_reached_share") == 1)


def resolve_reason(folder: Path, config: CycleConfig, now: dt.datetime) -> str | None:
    """Why the round is not resolved this run (module docstring), or None: resolve it."""
    opened = opened_on(folder)
    if opened == now.date():
        return "opened today (no label yet)"
    entry = latest_version(folder)
    if settled(entry):
        return "settled (every item labelled and past its horizon)"
    if opened is not None and (now.date() - opened).days > config.resolve_days:
        return f"past resolve_days ({config.resolve_days} days after open)"
    if entry is not None and str(entry["version"]).startswith(now.date().isoformat()):
        return f"already resolved today ({entry['file']})"
    return None


def resolver(folder: Path) -> Callable[..., dict[str, Any]]:
    """The resolve function of the round's source.

    Raises:
        DataError: a source the cycle cannot resolve (a demo round's), naming the field.
    """
    from research_taste.rounds.arxiv import resolve_arxiv
    from research_taste.rounds.openreview import resolve_openreview

    resolvers: dict[str, Callable[..., dict[str, Any]]] = {
        "openreview": resolve_openreview,
        "arxiv": resolve_arxiv,
    }
    source = read_manifest(folder).get("source")
    if source not in resolvers:
        raise DataError(
            f"{folder}/round.json: field 'source' is {source!r}: the cycle resolves rounds of "
            f"{' or '.join(resolvers)}"
        )
    return resolvers[str(source)]


def resolve_round(folder: Path, now: dt.datetime, min_interval: float | None) -> dict[str, Any]:
    """Resolve the round as it stands at ``now``; the new labels version's entry."""
    pacing = {} if min_interval is None else {"min_interval": min_interval}
    return resolver(folder)(folder, now=lambda: now, **pacing)


def _labels_key(path: Path) -> list[tuple[str, str, str, str]]:
    return sorted(
        (row["item_id"], row.get("label", ""), row.get("label_time", ""), row.get("dropped", ""))
        for row in read_csv(path)
    )


def scoring_version(folder: Path) -> str | None:
    """The labels version the round's judgments are scored with (module docstring)."""
    versions = read_manifest(folder).get("label_versions") or []
    if not versions:
        return None
    keys = [_labels_key(folder / str(versions[-1]["file"]))]
    if not any(label or dropped for _, label, _, dropped in keys[0]):
        return None
    chosen = versions[-1]
    for entry in reversed(versions[:-1]):
        if _labels_key(folder / str(entry["file"])) != keys[0]:
            break
        chosen = entry
    return str(chosen["version"])


def judge_by(folder: Path) -> dt.datetime | None:
    return parse_time(read_manifest(folder).get("judge_by"))
