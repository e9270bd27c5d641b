"""What the TastyBench loaders check for the recall controls: dates and names in the texts.

Both loaders (upstream files, ``dataset.py``; built sets, ``built_set.py``) call
:func:`recall_facts`, so every paper set has checked ``pub_date``s (the post-cutoff metrics
read them) and an ``identity_leak`` list (texts that name their paper: the recognition probe
is moot for them; ``recall.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from research_taste_evals.core.dates import date_range, require_item_date

logger = logging.getLogger(__name__)


class DatedText(Protocol):
    """What the checks read of a ``dataset.Paper``."""

    @property
    def paper_id(self) -> str: ...
    @property
    def pub_date(self) -> str: ...
    @property
    def identity_leak(self) -> tuple[str, ...]: ...


def recall_facts(papers: Sequence[DatedText], papers_path: Path, text_path: Path) -> dict[str, Any]:
    """Checked ``pub_date`` range and ``identity_leak`` per paper (logged) for the task metadata.

    Raises:
        DataError: a paper's ``pub_date`` is missing or not a date (naming file, paper, field).
    """
    dates = [
        require_item_date(p.pub_date, f"{papers_path}: paper {p.paper_id}: field 'pub_date'")
        for p in papers
    ]
    leaks = {paper.paper_id: list(paper.identity_leak) for paper in papers if paper.identity_leak}
    if leaks:
        logger.warning(
            "%s: %d of %d texts name their own paper (identity_leak; not counted in "
            "recognized_rate): %s",
            text_path,
            len(leaks),
            len(papers),
            "; ".join(f"{pid}: {', '.join(found)}" for pid, found in leaks.items()),
        )
    if leaks and len(leaks) == len(papers):
        logger.warning("%s: every text names its paper: recognized_rate will be NaN", text_path)
    return {"identity_leak": leaks, "pub_date_range": date_range(dates)}
