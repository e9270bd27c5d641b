"""The date range of each dated family's items, and which current models have none after their
knowledge cutoff (the READMEs' "Recall and contamination" blocks; no date is typed by hand).

- idea pairs: the reference build (sota-extractor ``nlp-progress.json``, ``--no-extract``,
  default seed), each idea dated as the task dates it (``paper_date``, else ``year``); a pair
  counts as post-cutoff when both papers are after the cutoff;
- AAAR-1.0: PaperWeakness is dated by its venue folder (ICLR 2023) without its data;
  ExpDesign's arXiv ids need the Hugging Face data (``--aaar PATH``, the dataset root): without
  it the block says it was not computed.

Cutoffs are Inspect's (``get_model_info``) for the models in :data:`CURRENT_MODELS`.

Run: ``python bench/recall_dates.py --upstream ../shared/datasets/upstream [--write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.model import get_model_info

from readme_logs import show_block
from research_taste.builders.ideapairs.builder import build
from research_taste.docs.ideapairs_tables import REFERENCE_SOURCE
from research_taste_evals.aaar.dataset.expdesign import load_expdesign_records
from research_taste_evals.aaar.dataset.paper_weakness import WEAKNESS_FOLDER
from research_taste_evals.aaar.recall import arxiv_dates, venue_year
from research_taste_evals.core.dates import ItemDate, date_range, is_post_cutoff
from research_taste_evals.ideapairs.pairs_schema import read_pairs
from research_taste_evals.ideapairs.recall import idea_date

ROOT = Path(__file__).resolve().parents[1] / "src/research_taste_evals"
CURRENT_MODELS = (
    "openai/gpt-4o",
    "openai/o3",
    "openai/gpt-5",
    "anthropic/claude-sonnet-4-5",
    "anthropic/claude-opus-4-5",
    "google/gemini-2.5-pro",
)
BLOCK = "recall-dates"


def cutoffs() -> dict[str, dt.date]:
    """Each current model's knowledge cutoff as Inspect's model database gives it."""
    found = {}
    for name in CURRENT_MODELS:
        info = get_model_info(name)
        if info is not None and info.knowledge_cutoff_date is not None:
            date = info.knowledge_cutoff_date
            found[name] = date.date() if isinstance(date, dt.datetime) else date
    return found


def model_lines(count: str, items: Sequence[Sequence[ItemDate]]) -> list[str]:
    """One line per current model: its cutoff and how many items are after it."""
    lines = []
    for name, cutoff in cutoffs().items():
        after = sum(all(is_post_cutoff(d, cutoff) for d in dates) for dates in items)
        lines.append(f"- `{name}` (cutoff {cutoff.isoformat()}): {after} {count} after it")
    return lines


def idea_pairs_block(upstream: Path, work: Path) -> str:
    """Dates of the reference build's ideas, and post-cutoff pairs per current model."""
    pairs = work / "pairs.jsonl"
    build([upstream / REFERENCE_SOURCE], pairs, extract=False, log_dir=str(work / "logs"))
    records = [r for r in read_pairs(pairs) if r.order == "original"]
    ideas = {i.idea_id: i for r in records for i in (r.idea_a, r.idea_b)}
    dated = {k: idea_date(i.paper_date, i.year, k) for k, i in ideas.items()}
    span = date_range(dated.values())
    with_day = sum(1 for i in ideas.values() if i.paper_date)
    head = (
        f"Reference build ({len(records)} pairs, {len(ideas)} ideas; {with_day} ideas dated "
        f"by `paper_date`, the rest by year): papers of {span[0]} to {span[1]}."
        if span
        else "Reference build: no ideas."
    )
    pair_dates = [[dated[r.idea_a.idea_id], dated[r.idea_b.idea_id]] for r in records]
    return "\n".join([head, "", *model_lines("pairs", pair_dates)])


def aaar_block(aaar: Path | None) -> str:
    """PaperWeakness by its venue year; ExpDesign from its arXiv ids when the data is here."""
    year = venue_year(WEAKNESS_FOLDER)
    lines = [f"PaperWeakness: every paper is dated {year} (the venue year of `{WEAKNESS_FOLDER}`)."]
    lines += model_lines("PaperWeakness papers", [[year]])
    if aaar is None:
        lines += [
            "",
            "ExpDesign: not computed here (its data is on Hugging Face only; run with "
            "`--aaar <dataset root>`).",
        ]
        return "\n".join(lines)
    records, _ = load_expdesign_records(aaar)
    dates = arxiv_dates([r.id for r in records], aaar) or {}
    span = date_range(dates.values())
    lines += ["", f"ExpDesign: {len(dates)} papers of {span[0]} to {span[1]}." if span else ""]
    lines += model_lines("ExpDesign papers", [[d] for d in dates.values()])
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", type=Path, required=True)
    parser.add_argument("--aaar", type=Path, help="AAAR-1.0 dataset root (Hugging Face copy)")
    parser.add_argument("--write", action="store_true", help="rewrite the READMEs' blocks")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        pairs_block = idea_pairs_block(args.upstream, Path(scratch))
    show_block(ROOT / "ideapairs/README.md", BLOCK, pairs_block, args.write)
    show_block(ROOT / "aaar/README.md", BLOCK, aaar_block(args.aaar), args.write)


if __name__ == "__main__":
    main()
