"""How a round command asks OpenReview (:class:`Fetching`), what it will ask, said before it
asks, and its progress while it works.

:func:`estimate_line` is the one line ``round open`` and ``round resolve`` print before a phase
of their work: how many requests, and how long they take at the service's budget
(``builders/limits.py``). :func:`progress` steps through a phase's items with a bar showing the
time left at the budget (rich's progress bar, which Inspect depends on, on a terminal; a plain
line every tenth of the way otherwise, so a log file of a scheduled run stays readable).
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from research_taste.builders.http import announce
from research_taste.builders.limits import Budget, duration_text
from research_taste.builders.openreview.client import OpenReviewClient

T = TypeVar("T")
PLAIN_STEPS = 10  # plain lines per phase when not on a terminal


def estimate_line(command: str, requests: int, parts: str, seconds: float, budget: Budget) -> str:
    """``round resolve: about 1,650 requests (<parts>), about 9 h 10 min at the budget of 90 per
    30 min``."""
    took = duration_text(seconds)
    return (
        f"{command}: about {requests:,} requests ({parts}), about {took} at the budget of {budget}"
    )


def progress(
    items: Iterable[T],
    label: str,
    shown: bool,
    left: Callable[[int], float] | None = None,
    say: Callable[[str], None] | None = None,
) -> Iterator[T]:
    """``items`` one by one; with ``shown`` a bar (terminal) or plain lines (else) saying how
    many are done and, with ``left`` (seconds the remaining ``n`` items take at the budget),
    the time left."""
    if not shown:
        yield from items
        return
    total = len(items) if isinstance(items, Sized) else None
    remaining = (lambda done: duration_text(left(total - done))) if left and total else None
    if sys.stderr.isatty():
        yield from _bar(items, label, total, remaining)
        return
    tell = say or (lambda line: print(line, file=sys.stderr, flush=True))
    step = max(1, (total or 0) // PLAIN_STEPS) if total else 100
    for done, item in enumerate(items, start=1):
        yield item
        if done % step == 0 or done == total:
            of = f"/{total}" if total else ""
            more = f", about {remaining(done)} left at the budget" if remaining else ""
            tell(f"{label}: {done}{of}{more}")


def _bar(
    items: Iterable[T], label: str, total: int | None, remaining: Callable[[int], str] | None
) -> Iterator[T]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn()]
    if remaining is not None:
        columns.append(TextColumn("about {task.fields[left]} left at the budget"))
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(label, total=total, left=remaining(0) if remaining else "")
        for done, item in enumerate(items, start=1):
            yield item
            bar.update(task, advance=1, left=remaining(done) if remaining else "")


# A guess of the reviews a conference item will have, for the estimate before the listing is
# read (conferences on OpenReview assign 3 to 5 reviewers a submission); the exact count is
# printed once the listing is read.
REVIEWS_PER_ITEM = 4
FORM_REQUESTS = 3  # GET /invitations: Official_Review, Review, Decision (rounds/plan.py)


def pages_of(listed: int | None, page_size: int) -> int:
    """Listing pages for ``listed`` notes (unknown: one)."""
    return max(1, -(-listed // page_size)) if listed else 1


def open_estimate(
    pages: int, pdfs: int, budget: Budget, pdf_budget: Budget, min_interval: float
) -> str:
    """``round open``'s line: the listing's pages, the forms and the sample's PDFs."""
    requests = pages + FORM_REQUESTS + pdfs
    seconds = max(budget.duration(requests, min_interval), pdf_budget.duration(pdfs))
    parts = f"{pages} listing pages, {FORM_REQUESTS} forms, up to {pdfs} PDFs at {pdf_budget}"
    return estimate_line("round open", requests, parts, seconds, budget)


def resolve_estimate(
    pages: int, edits: int, how: str, budget: Budget, min_interval: float, command: str
) -> str:
    """``round resolve``'s line: the listing's pages (0: read already) and the review edits not
    kept yet (``how``: how they were counted)."""
    listing = f"{pages} listing pages, " if pages else ""
    requests = pages + edits
    parts = f"{listing}{edits} review edits: {how}"
    seconds = budget.duration(requests, min_interval)
    return estimate_line(command, requests, parts, seconds, budget)


@dataclass(frozen=True)
class Fetching:
    """How a round command asks OpenReview: its budgets (the command line's ``--budget`` and
    ``--pdf-budget``; None: ``OPENREVIEW_BUDGET``, ``OPENREVIEW_PDF_BUDGET``, else the
    defaults), its clock (epoch seconds) and sleep (tests share a fake one with their server),
    and where its lines go (estimates, waits: stderr)."""

    budget: str | Budget | None = None
    pdf_budget: str | Budget | None = None
    clock: Callable[[], float] = time.time
    sleep: Callable[[float], None] | None = None
    say: Callable[[str], None] = announce

    def client(
        self, cache: Path, base_url: str | None, min_interval: float, today: Callable[[], dt.date]
    ) -> OpenReviewClient:
        return OpenReviewClient(
            cache,
            base_url,
            min_interval,
            clock=self.clock,
            today=today,
            notice=self.say,
            budget=self.budget,
            pdf_budget=self.pdf_budget,
            sleep=self.sleep,
        )
