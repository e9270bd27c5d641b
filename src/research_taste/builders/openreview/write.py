"""Writing a built OpenReview folder: the sets, the set-aside list and ``build_report.json``."""

from __future__ import annotations

import csv
import datetime as dt
import itertools
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.client import OpenReviewClient
from research_taste.builders.openreview.venue import Screened, Submission, VenueRequest
from research_taste_evals.core.data import sha256_of

SOURCE = "OpenReview API v2 (public notes: submissions with replies, PDFs)"
PAPER_COLUMNS = (
    "paper_id",
    "title",
    "pub_date",
    "abstract",
    "keywords",
    "primary_area",
    "label",
    "mean_rating",
    "ratings",
    "confidences",
    "decision",
    "license",
    "fetch_date",
)
SET_ASIDE_COLUMNS = ("paper_id", "title", "submitted", "status", "venueid", "reason")
LABEL_MEANINGS = {
    "mean_rating": "mean of the official reviewers' ratings (the number each rating starts with)",
    "decision": "the decision as an ordinal: oral 3, spotlight 2, other accept 1, reject 0",
}
WEAKNESS_NOTE = (
    "each review's weaknesses come from the first listed weaknesses field it has; a review "
    "with none of them but OpenReview's default single 'review' field gives that whole text "
    "(counted under 'weaknesses_from_whole_review'); 'none': no weaknesses, no reference items"
)
TERMS = (
    "OpenReview's terms of use (https://openreview.net/legal/terms) govern the API; each note "
    "carries its own 'license' (counted under 'licenses'). Share a built set's ids, labels and "
    "counts freely; share texts, reviews and PDF text only as each note's licence allows."
)


@dataclass
class WeaknessItems:
    """PaperWeakness records and the papers left out of them, by reason."""

    records: list[dict[str, Any]] = field(default_factory=list)
    dropped: dict[str, list[str]] = field(default_factory=dict)


def weakness_folder(venue: str) -> str:
    """The built folder's PaperWeakness root, e.g. ``Paper_Weakness/ICLR.cc_2026_Conference``."""
    return f"Paper_Weakness/{re.sub(r'[^A-Za-z0-9.-]+', '_', venue)}"


def _paper_row(paper: Submission, fetch_date: dt.date) -> dict[str, Any]:
    ratings = paper.ratings
    return {
        "paper_id": paper.paper_id,
        "title": paper.title,
        "pub_date": paper.submitted.isoformat(),
        "abstract": paper.abstract,
        "keywords": json.dumps(paper.keywords),
        "primary_area": paper.primary_area,
        "label": repr(paper.label),
        "mean_rating": repr(sum(ratings) / len(ratings)) if ratings else "",
        "ratings": json.dumps(ratings),
        "confidences": json.dumps([review.confidence for review in paper.reviews]),
        "decision": paper.decision,
        "license": paper.license,
        "fetch_date": fetch_date.isoformat(),
    }


def _write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def area_pairs(kept: list[Submission]) -> list[tuple[str, str]]:
    """Every pair of papers sharing a primary area, in both presentation orders."""
    by_area: dict[str, list[str]] = defaultdict(list)
    for paper in kept:
        if paper.primary_area:
            by_area[paper.primary_area].append(paper.paper_id)
    pairs = []
    for area in sorted(by_area):
        for first, second in itertools.combinations(sorted(by_area[area]), 2):
            pairs += [(first, second), (second, first)]
    return pairs


def _write_weakness(out: Path, venue: str, weak: WeaknessItems) -> str:
    root = out / weakness_folder(venue)
    for record in weak.records:
        folder = root / record["ID"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data_text.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return str(root.relative_to(out))


def write_outputs(
    out: Path,
    request: VenueRequest,
    client: OpenReviewClient,
    screened: Screened,
    weak: WeaknessItems | None,
    fetch_date: dt.date,
) -> dict[str, Any]:
    """Write every file of the folder; returns the build report (also written)."""
    out.mkdir(parents=True, exist_ok=True)
    kept = sorted(screened.kept, key=lambda paper: (paper.submitted, paper.paper_id))
    papers = out / "papers.csv"
    _write_csv(papers, PAPER_COLUMNS, [_paper_row(paper, fetch_date) for paper in kept])
    pairs = area_pairs(kept)
    if pairs:
        with (out / "pairs_within_area.csv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(("paper_1", "paper_2"))
            writer.writerows(pairs)
    _write_csv(out / "set_aside.csv", SET_ASIDE_COLUMNS, screened.set_aside)
    with (out / "reviews.jsonl").open("w", encoding="utf-8") as handle:
        for paper in kept:
            for review in paper.reviews:
                handle.write(json.dumps({"paper_id": paper.paper_id, **vars(review)}) + "\n")
    weakness: dict[str, Any] = {"built": False, "reason": "--skip-pdfs"}
    if weak is not None:
        weakness = {
            "built": bool(weak.records),
            "folder": _write_weakness(out, request.venue, weak) if weak.records else None,
            "kept": len(weak.records),
            "dropped": {reason: len(ids) for reason, ids in sorted(weak.dropped.items())},
            "dropped_ids": dict(sorted(weak.dropped.items())),
        }
    unread = screened.ratings_left_unread
    report = {
        "source": SOURCE,
        "api_base": client.base_url,
        "venue": request.venue,
        "fetch_date": fetch_date.isoformat(),
        "label": request.label,
        "label_meaning": LABEL_MEANINGS[request.label],
        "after": request.after.isoformat() if request.after else None,
        "pub_date": "the submission note's cdate (else tcdate, else pdate), UTC day",
        "kept": len(kept),
        "dropped": {reason: len(ids) for reason, ids in sorted(screened.dropped.items())},
        "dropped_ids": dict(sorted(screened.dropped.items())),
        "set_aside": len(screened.set_aside),
        "pairs_within_area": len(pairs) // 2,
        "papers_without_primary_area": sum(1 for paper in kept if not paper.primary_area),
        "reviews": {
            "kept_papers_reviews": screened.reviews,
            "without_rating": screened.reviews_without_rating,
            "without_weaknesses": screened.reviews_without_weaknesses,
            "rating_fields": screened.rating_fields,
            "rating_range": list(forms.RATING_RANGE),
            "ratings_left_unread": {k: len(v) for k, v in sorted(unread.items())},
            "ratings_left_unread_ids": dict(sorted(unread.items())),
            "weakness_fields": screened.weakness_fields,
            "weakness_field_note": WEAKNESS_NOTE,
            "weaknesses_from_whole_review": screened.weakness_fields.get(
                forms.WHOLE_REVIEW_FIELD, 0
            ),
        },
        "licenses": screened.licenses,
        "terms": TERMS,
        "paper_weakness": weakness,
        "logged_in": client.logged_in,
        "requests": client.counts.as_report(),
        "papers_sha256": sha256_of(papers),
    }
    (out / "build_report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report
