"""The checks every ``round open`` shares, whatever the source: its arguments and ``--out``
(before any request), and each listed item (``ItemGate``: left out with its reason, counted in
``round.json``'s ``counts.left_out``).

One place for them, so a bad input is refused or counted the same way by every source.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.rounds import RoundItem
from research_taste_evals.core.velocity import SERIES_WEEKS

# The bounds a frozen item must fit: the tasks show title and abstract whole in every prompt,
# so a 200 kB title would make a round no model can read. Generous over real papers (arXiv caps
# abstracts at 1,920 characters, OpenReview's forms at 5,000).
MAX_TITLE_CHARS = 1_000
MAX_ABSTRACT_CHARS = 10_000
# The arguments' ranges: past them a date overflows or the round cannot be judged ahead of labels.
MAX_DAYS = 3_660
MAX_JUDGE_DAYS = 36_600  # a century: past it the window's end date nears datetime's limit
# An arXiv round's label is citation velocity over its first N month starts after publication,
# read from the 60-week citation series (core/velocity.py SERIES_WEEKS): a paper published the day
# after a month start has only 13 month starts in those 420 days (420 // 31), so a longer window
# has no series to read for some papers.
MAX_WINDOW_MONTHS = SERIES_WEEKS * 7 // 31
# arXiv's category ids: an archive (``cs``, ``hep-th``) and, in most, a subject (``LG``, ``CO``).
CATEGORY = re.compile(r"^[a-z][a-z-]*(\.[A-Za-z][A-Za-z-]*)?$")
# arXiv's archives as its category taxonomy lists them (arxiv.org/category_taxonomy): a round lists
# new papers, and every new paper is filed under one of these.
ARCHIVES = (
    "astro-ph", "cond-mat", "cs", "econ", "eess", "gr-qc", "hep-ex", "hep-lat", "hep-ph",
    "hep-th", "math", "math-ph", "nlin", "nucl-ex", "nucl-th", "physics", "q-bio", "q-fin",
    "quant-ph", "stat",
)  # fmt: skip
# OpenReview group ids: parts of letters, digits and ``._-`` joined by single slashes.
VENUE = re.compile(r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$")
QUERY_MARK = "query.json"


def check_range(flag: str, value: int, low: int, high: int, why: str = "") -> None:
    """Refuse ``value`` outside ``low..high`` in one sentence naming ``flag`` (and ``why``)."""
    if not low <= value <= high:
        raise DataError(f"{flag} {value}: a whole number from {low} to {high}{why}")


# Why --window-months stops at MAX_WINDOW_MONTHS, said where it is refused.
WINDOW_WHY = (
    f" (the label is read from the {SERIES_WEEKS}-week citation series, which holds "
    f"{MAX_WINDOW_MONTHS} month starts after any publication day)"
)


def check_category(category: str) -> None:
    if not CATEGORY.match(category):
        raise DataError(
            f"--category {category!r}: not an arXiv category id (like cs.LG, stat.ML, hep-th)"
        )
    archive = category.split(".", 1)[0]
    if archive not in ARCHIVES:
        raise DataError(
            f"--category {category!r}: {archive!r} is not an arXiv archive (one of "
            f"{', '.join(ARCHIVES)}; categories like cs.LG, stat.ML, hep-th)"
        )


def check_venue(venue: str) -> None:
    """A venue id is a conference's ``<host>/<year>/<kind>`` (``ICLR.cc/2027/Conference``) or a
    journal's bare id (``TMLR``: no slash); an invitation id (``.../-/Submission``) or a group
    path with spaces or empty parts is neither, and would list nothing."""
    if "/-/" in venue:
        raise DataError(
            f"--venue {venue!r}: an invitation id, not a venue id; give the part before '/-/' "
            f"({venue.split('/-/', 1)[0]!r})"
        )
    if not VENUE.match(venue):
        raise DataError(
            f"--venue {venue!r}: not an OpenReview venue id (like ICLR.cc/2027/Conference, or a "
            "journal's, like TMLR)"
        )


def prepare_out(out: Path, identity: dict[str, Any]) -> None:
    """Make ``out`` ready for a new round before any request: refused if it is a file, lies
    under a file, cannot be written, or already holds anything but this same query's resume
    cache (``cache/open``, marked with ``identity``); the mark is written for a later resume.

    Raises:
        DataError: in one sentence naming ``--out``.
    """
    if out.exists() and not out.is_dir():
        raise DataError(f"--out {out}: a file, not a folder (the round's new folder)")
    mark = out / "cache" / "open" / QUERY_MARK
    if (out / "round.json").is_file():  # a finished open: its cache is no resume point
        raise DataError(
            f"--out {out}: already holds an opened round (its round.json); a new round opens in "
            f"a new folder, and this one's labels come with `research-taste round resolve {out}`"
        )
    if out.is_dir():
        held = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
        ours = all(name.startswith(os.path.join("cache", "open", "")) for name in held)
        if held and (not ours or not mark.is_file() or _read_mark(mark) != identity):
            raise DataError(
                f"--out {out}: not empty (holds {held[0]}); a round opens in a new folder, or "
                "resumes in the folder of the same query's interrupted open"
            )
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.write_text(json.dumps(identity, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as error:
        raise DataError(f"--out {out}: cannot be written ({error.strerror or error})") from error


def _read_mark(mark: Path) -> Any:
    try:
        return json.loads(mark.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class ItemGate:
    """The checks of each listed item, shared by the sources: an item is left out, with its
    reason counted in ``counts``, when it repeats an id already kept (a listing paged twice over
    an item), has no title, or a title or abstract past the bounds, or a date that is missing,
    unreadable, or later than the open (a clock error upstream, not a submission)."""

    def __init__(self, opened: dt.date, counts: dict[str, int]) -> None:
        self.opened = opened
        self.counts = counts
        self.seen: set[str] = set()

    def leave(self, reason: str) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1

    def reason(self, item_id: str, title: str, abstract: str, day: object) -> str | None:
        """Why the item is left out (None: kept; its id is then taken)."""
        if item_id in self.seen:
            return "duplicate"
        if not title:
            return "no_title"
        if len(title) > MAX_TITLE_CHARS:
            return "title_too_long"
        if len(abstract) > MAX_ABSTRACT_CHARS:
            return "abstract_too_long"
        date = parse_day(day)
        if date is None:
            return "no_date" if not day else "unparseable_date"
        if date > self.opened:
            return "future_date"
        self.seen.add(item_id)
        return None


def parse_day(day: object) -> dt.date | None:
    if isinstance(day, dt.date):
        return day
    try:
        return dt.date.fromisoformat(str(day)[:10]) if day else None
    except ValueError:
        return None


def no_pairs_cause(items: Sequence[RoundItem], left_out: dict[str, int]) -> str:
    """Why no two items could be paired, in words: the reasons the others were left out, and
    how the kept ones fall into groups (pairs are made within a group)."""
    listed = len(items) + sum(left_out.values())
    if listed == 0:
        return "the listing returned no submission (check the venue, category or dates)"
    left = ", ".join(f"{n} {reason}" for reason, n in sorted(left_out.items(), key=lambda x: -x[1]))
    causes = [f"{listed} listed, {sum(left_out.values())} left out ({left or 'none'})"]
    groups = {item.group for item in items}
    if len(items) >= 2 and len(groups) == len(items):
        causes.append(f"each of the {len(items)} kept is alone in its group (primary area)")
    return "; ".join(causes)


def check_manifest(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` (``round.json`` at ``path``) if it holds what resolve and score read, else
    one sentence naming the file and the field (a hand-edited or truncated manifest).

    Raises:
        DataError: a field missing or of the wrong type.
    """

    def refuse(field: str, want: str) -> DataError:
        return DataError(f"{path}: field '{field}' must be {want} (got {manifest.get(field)!r})")

    source = manifest.get("source")
    if not isinstance(source, str) or not source:
        raise refuse("source", "a text such as 'openreview' or 'arxiv'")
    for field in ("query", "label_plan"):
        if not isinstance(manifest.get(field), dict):
            raise refuse(field, "an object")
    if not isinstance(manifest.get("label_versions", []), list):
        raise refuse("label_versions", "a list")
    for field in ("opened_at", "items_sha256"):
        if not isinstance(manifest.get(field), str):
            raise refuse(field, "a text")
    plan, query = manifest["label_plan"], manifest["query"]
    if source == "arxiv":
        window = plan.get("window_months")
        if not isinstance(window, int) or isinstance(window, bool):
            raise DataError(
                f"{path}: field 'label_plan.window_months' must be a whole number (got {window!r})"
            )
        check_range(
            f"{path}: field 'label_plan.window_months'", window, 1, MAX_WINDOW_MONTHS, WINDOW_WHY
        )
    elif source == "openreview" and not isinstance(query.get("venue"), str):
        raise DataError(f"{path}: field 'query.venue' must be a text (got {query.get('venue')!r})")
    return manifest


def check_labels_file(path: Path, entry: dict[str, Any]) -> Path:
    """``path``, the labels file of ``round.json``'s ``entry``, if it is as resolve wrote it: its
    sha256 the one the entry records (a hand-edited label would be scored silently otherwise)
    and its header holding ``item_id``, ``label`` and ``label_time``.

    Raises:
        DataError: missing, edited since resolve, or without a needed column.
    """
    if not path.is_file():
        raise DataError(f"{path}: labels file does not exist (listed in round.json)")
    recorded = entry.get("labels_sha256")
    if recorded is not None and sha256_of(path) != recorded:
        raise DataError(
            f"{path}: changed since `round resolve` wrote it (its sha256 is not the one "
            "round.json's label_versions records); resolve again for a new labels version"
        )
    with path.open(encoding="utf-8", newline="") as handle:
        header = next(csv.reader(handle), [])
    missing = [c for c in ("item_id", "label", "label_time") if c not in header]
    if missing:
        raise DataError(f"{path}: column '{missing[0]}' is missing (header: {header})")
    return path


def rating_scale(plan: dict[str, Any]) -> tuple[float, float]:
    """The venue's rating scale: the review form's options where open read them
    (``label_plan.rating_scale``), else the readers' default range (``forms.RATING_RANGE``)."""
    from research_taste.builders.openreview.forms import RATING_RANGE

    scale = plan.get("rating_scale")
    if isinstance(scale, list) and len(scale) == 2 and all(_is_number(x) for x in scale):
        return float(scale[0]), float(scale[1])
    return RATING_RANGE


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class ReviewCheck:
    """The checks of each review a resolve reads, counted by reason in ``left_out``: a review
    with no date, or dated after the resolve, has no label time a scorer can trust (an empty or
    future ``label_time`` reads as prospective), and a rating off the venue's scale is not a
    rating of that venue (averaging a -3 or a 99 would move the label). Both OpenReview paths
    use it: a conference's reviews (``rounds/openreview.py``) and a journal's reviews and, where
    it gives the label's time, its decision (``rounds/journal.py``)."""

    def __init__(self, resolved_at: dt.datetime, scale: tuple[float, float]) -> None:
        self.resolved_at = resolved_at
        self.scale = scale
        self.left_out: dict[str, int] = {}

    def _leave(self, reason: str) -> None:
        self.left_out[reason] = self.left_out.get(reason, 0) + 1

    def dated(self, stamp: dt.datetime | None, kind: str = "review") -> bool:
        """Whether ``stamp`` is a time a label may take; if not, counted as ``<kind>_undated``
        or ``<kind>_dated_in_future``."""
        if stamp is None:
            self._leave(f"{kind}_undated")
        elif stamp > self.resolved_at:
            self._leave(f"{kind}_dated_in_future")
        return stamp is not None and stamp <= self.resolved_at

    def rating(self, raw: Any) -> float | None:
        from research_taste.builders.openreview.forms import number

        rating = number(raw)
        if rating is not None and not self.scale[0] <= rating <= self.scale[1]:
            self._leave("rating_outside_scale")
            return None
        return rating
