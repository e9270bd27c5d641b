"""``research-taste openreview build``: a venue's submissions -> a TastyBench-style review-label
set and PaperWeakness items in one folder.

Written into ``--out`` (see ``docs/openreview.md``):

- ``papers.csv``: the kept submissions (``paper_id, title, pub_date`` = submission date,
  ``abstract, keywords, primary_area, label, mean_rating, ratings, confidences, decision,
  license, fetch_date``); ``tastybench -T data_path=DIR`` judges them with ``label`` as truth;
- ``pairs_within_area.csv``: every pair of kept papers sharing a primary area, in both
  orders, for ``-T schedule=file -T pairs_file=DIR/pairs_within_area.csv``;
- ``reviews.jsonl``: every kept paper's official reviews (rating as written and as read,
  confidence, weaknesses and the form field each came from);
- ``set_aside.csv``: withdrawn and desk-rejected submissions with their stated reason;
- ``Paper_Weakness/<venue>/<paper id>/data_text.json``: AAAR-1.0's record layout (the PDF's
  text one page per section, each reviewer's weaknesses as the reference), plus the
  ``submission_date``; ``paper_weakness -T data_path=DIR`` reads them;
- ``build_report.json``: venue, fetch date, label, counts kept and dropped by reason, licences,
  review form fields met, requests; ``cache/``: the API answers (resumable).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from pathlib import Path
from typing import Any

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.client import OpenReviewClient
from research_taste.builders.openreview.pdf_text import UnreadablePdf, pdf_pages
from research_taste.builders.openreview.venue import (
    PAGE_SIZE,
    Label,
    Screened,
    Submission,
    VenueRequest,
    screen,
    submissions,
    with_duplicates,
)
from research_taste.builders.openreview.write import WeaknessItems, write_outputs
from research_taste.builders.out_dir import out_folder
from research_taste_evals.core.data import DataError

CACHE_DIR = "cache"
WRITTEN_NAMES = frozenset(
    {
        "papers.csv",
        "pairs_within_area.csv",
        "reviews.jsonl",
        "set_aside.csv",
        "Paper_Weakness",
        "build_report.json",
        CACHE_DIR,
    }
)
_VENUE = re.compile(r"^[A-Za-z0-9][\w.\-]*(/[\w.\-]+)+$")


def parse_after(text: str | None) -> dt.date | None:
    """``--after YYYY-MM`` (through that month's last day) or ``YYYY-MM-DD`` as a date."""
    if text is None:
        return None
    try:
        if re.fullmatch(r"\d{4}-\d{2}", text):
            year, month = map(int, text.split("-"))
            return dt.date(year, month, calendar.monthrange(year, month)[1])
        return dt.date.fromisoformat(text)
    except ValueError:
        raise DataError(f"--after {text!r} is not a month YYYY-MM or a day YYYY-MM-DD") from None


def check_request(request: VenueRequest) -> None:
    """Refuse a malformed venue id or a bad page size (``--out``: ``builders/out_dir.py``).

    Raises:
        DataError: naming the flag.
    """
    if not _VENUE.match(request.venue):
        raise DataError(
            f"--venue {request.venue!r} is not an OpenReview venue id "
            "(e.g. ICLR.cc/2026/Conference)"
        )
    if not 1 <= request.page_size <= 1000:
        raise DataError(f"--page-size must be 1..1000 (the API's limit), got {request.page_size}")


def read_venue(
    venue: str,
    cache_dir: str | Path,
    base_url: str | None = None,
    label: Label = "mean_rating",
    after: dt.date | None = None,
    page_size: int = PAGE_SIZE,
) -> Screened:
    """A venue's submissions read and screened (kept with their reviews, set apart, dropped
    by reason), with nothing written but the cache: for callers that want the records, not
    the folder (``base_url``: default ``OPENREVIEW_API_BASE``)."""
    check_request(VenueRequest(venue, label, after, page_size=page_size))
    client = OpenReviewClient(cache_dir, base_url=base_url)
    listing = submissions(client, venue, page_size)
    return with_duplicates(screen(listing, label, after, client.today()), listing)


def weakness_record(paper: Submission, pages: list[str], venue: str) -> dict[str, Any]:
    """AAAR-1.0's ``data_text.json`` layout for one paper, with its submission date."""
    return {
        "ID": paper.paper_id,
        "track": paper.primary_area or None,
        "input": {
            "title": paper.title,
            "abstractText": paper.abstract,
            "sections": [
                {"heading": f"Page {number}", "text": page}
                for number, page in enumerate(pages, start=1)
            ],
        },
        "output": [forms.weakness_items(review.weaknesses) for review in paper.reviews],
        "reviewer_ids": [review.review_id for review in paper.reviews],
        "submission_date": paper.submitted.isoformat(),
        "venue": venue,
    }


def weakness_items(
    client: OpenReviewClient, kept: list[Submission], venue: str, progress: bool
) -> WeaknessItems:
    """Fetch and read each kept paper's PDF; papers without weaknesses or a readable PDF are
    left out with their reason."""
    from tqdm import tqdm

    items = WeaknessItems()
    for paper in tqdm(kept, desc="pdfs", unit="paper", disable=not progress):
        reason = None
        if not any(review.weaknesses for review in paper.reviews):
            reason = "no_reviewer_weaknesses"
        elif not paper.pdf:
            reason = "no_pdf"
        else:
            data = client.get_pdf(paper.paper_id)
            if data is None:
                reason = "pdf_missing"
            else:
                try:
                    items.records.append(weakness_record(paper, pdf_pages(data), venue))
                except UnreadablePdf as error:
                    reason = error.reason
        if reason is not None:
            items.dropped.setdefault(reason, []).append(paper.paper_id)
    return items


def build(
    request: VenueRequest,
    out: str | Path,
    client: OpenReviewClient | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Build the folder (cache in ``out/cache``); returns the build report.

    Raises:
        DataError: a bad flag, an unreachable API, a bad answer, or no submission kept.
    """
    folder = Path(out)
    check_request(request)
    with out_folder(folder, WRITTEN_NAMES):  # checked before any request; no empty folder left
        return _build(request, folder, client or OpenReviewClient(folder / CACHE_DIR), progress)


def _build(
    request: VenueRequest, folder: Path, client: OpenReviewClient, progress: bool
) -> dict[str, Any]:
    from tqdm import tqdm

    listing = submissions(client, request.venue, request.page_size)
    notes = tqdm(listing, desc="submissions", unit="note", disable=not progress)
    screened = with_duplicates(
        screen(iter(notes), request.label, request.after, client.today()), listing
    )
    if len(screened.kept) < 2:
        dropped = ", ".join(f"{k} {len(v)}" for k, v in sorted(screened.dropped.items()))
        raise DataError(
            f"--venue {request.venue}: {len(screened.kept)} submissions kept (dropped: "
            f"{dropped or 'none'}); check the venue id, --after and --label"
        )
    weak = weakness_items(client, screened.kept, request.venue, progress) if request.pdfs else None
    fetch_date = min(dt.date.fromisoformat(day) for day in client.fetch_dates)
    return write_outputs(folder, request, client, screened, weak, fetch_date)
