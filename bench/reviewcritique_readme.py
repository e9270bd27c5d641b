"""The ReviewCritique README's data figures, counted by the package's own loader.

    python bench/reviewcritique_readme.py [--upstream ../shared/datasets/upstream] [--write]

Reads the upstream copies in ``../shared/datasets/upstream/reviewcritique`` (the pinned LLM
file and the derived 36-paper subset of the human file) with ``load_reviewcritique`` and
prints the README's "Data" block: papers, reviews, segments and deficient segments per file,
the flag-all baseline's precision (the deficient base rate) and the longest paper in words
(what ``paper_words``' default must keep whole). The human file (100 papers) is not among the
copies: its row quotes AAAR-1.0 Section 3.4 and says so. ``tests/test_readme_figures.py``
fails when the README's block differs from this output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from readme_logs import show_block
from research_taste_evals.reviewcritique.dataset import (
    DEFAULT_PAPER_WORDS,
    PINNED_FILES,
    load_reviewcritique,
)
from research_taste_evals.reviewcritique.records import ReviewRecord

REPO = Path(__file__).resolve().parents[1]
README = REPO / "src" / "research_taste_evals" / "reviewcritique" / "README.md"
UPSTREAM = REPO.parent / "shared" / "datasets" / "upstream"
BLOCK = "data-facts"
LLM_FILE = Path("reviewcritique/data/ReviewCritique_LLM.jsonl")
DERIVED_DIR = Path("reviewcritique/derived_partial_keene-ng")
# AAAR-1.0 (Lou et al., 2024) Section 3.4: "100 papers with 380 human reviews ... 11,376
# review segments"; the human file is not among the upstream copies, so these are quoted.
HUMAN_FILE_AS_REPORTED = {"papers": 100, "reviews": 380, "segments": 11_376}


def _counts(reviews: list[ReviewRecord]) -> tuple[int, int, int, int]:
    segments = [segment for review in reviews for segment in review.segments]
    deficient = sum(1 for segment in segments if segment.reliability == "No")
    return len({review.title for review in reviews}), len(reviews), len(segments), deficient


def data_facts(upstream: Path) -> str:
    """The README's "Data" block from the upstream copies in ``upstream``."""
    llm, _, _ = load_reviewcritique("llm", str(upstream / LLM_FILE))
    derived, _, _ = load_reviewcritique("human", str(upstream / DERIVED_DIR))
    human = HUMAN_FILE_AS_REPORTED
    llm_papers, llm_reviews, llm_segments, llm_deficient = _counts(llm)
    d_papers, d_reviews, d_segments, d_deficient = _counts(derived)
    reviewers = ", ".join(sorted({review.reviewer for review in llm}))
    blob = PINNED_FILES["human"].git_blob[:8]
    pinned = PINNED_FILES["llm"]
    llm_pin = f"sha256 {(pinned.sha256 or '')[:8]}..., git blob {pinned.git_blob[:8]}..."
    longest = max(len(review.paper_text.split()) for review in [*llm, *derived])
    return "\n".join(
        [
            "| subset | file (pinned at 629932bc) | papers | reviews (samples) | segments "
            "| deficient |",
            "|---|---|---|---|---|---|",
            f"| `human` (default) | `data/ReviewCritique.jsonl`, git blob {blob}... "
            f"| {human['papers']} | {human['reviews']} | {human['segments']:,} | - |",
            f"| `llm` | `data/ReviewCritique_LLM.jsonl`, {llm_pin} | {llm_papers} "
            f"| {llm_reviews} ({reviewers}) | {llm_segments:,} | {llm_deficient:,} |",
            f"| a local copy (`-T data_path=`) | the derived subset of the human file "
            f"(`{DERIVED_DIR.name}`, 4 files) | {d_papers} | {d_reviews} | {d_segments:,} "
            f"| {d_deficient:,} |",
            "",
            "The `human` row quotes AAAR-1.0 Section 3.4 (that file is not among this "
            "repository's test copies); the other rows are counted by the loader "
            "(`bench/reviewcritique_readme.py`). "
            f"Deficient base rate of the LLM file (`baseline/flag-all`'s precision): "
            f"{llm_deficient:,}/{llm_segments:,} = {llm_deficient / llm_segments:.4f}. "
            f"Longest paper of these files: {longest:,} words (`paper_words` default "
            f"{DEFAULT_PAPER_WORDS:,} keeps every one whole).",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--upstream", type=Path, default=UPSTREAM)
    parser.add_argument("--write", action="store_true", help="replace the block in the README")
    args = parser.parse_args()
    show_block(README, BLOCK, data_facts(args.upstream), args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
