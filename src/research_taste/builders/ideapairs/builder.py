"""``research-taste ideapairs build``: leaderboards -> pairs file + report (Mule et al. app. A).

:func:`build` reads every leaderboard, runs appendix A (``scoring``: A.1-A.2, ``splitting``:
A.3 and the split, ``pairing``: A.4), attaches texts (extracted through Inspect, or the method
name and paper title with ``extract=False``), and writes the pairs file and a report that
accounts for every entry read: kept, or dropped with its reason. Nothing is written until
everything succeeded; the pairs file is written atomically.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import Model

from research_taste.builders.ideapairs.build_inputs import (
    check_extractor,
    check_outputs,
    check_pairs_made,
)
from research_taste.builders.ideapairs.build_plan import (
    BuildInputs,
    BuildPlan,
    plan_pairs,
    read_inputs,
)
from research_taste.builders.ideapairs.extraction import Extracted, extract_pairs
from research_taste.builders.ideapairs.pairing import PlannedPair
from research_taste.builders.ideapairs.paper_sources import (
    Fetched,
    fetch_full_texts,
    fetch_metadata,
)
from research_taste.builders.ideapairs.papers import ArxivFetcher
from research_taste.builders.ideapairs.pwc_archive import (
    source_report,
)
from research_taste.builders.ideapairs.records import (
    pair_records,
    ranked_by,
    template_goal,
)
from research_taste.builders.ideapairs.records import paper_texts as paper_texts_in
from research_taste.builders.ideapairs.scoring import DROP_REASONS, Drop, score_board
from research_taste.builders.ideapairs.splitting import Splitter, parse_cutoff
from research_taste_evals.core.data import sha256_of
from research_taste_evals.ideapairs.pairs_schema import (
    SCHEMA_VERSION,
    PairRecord,
    write_pairs,
)

DEFAULT_SEED = 20260521
REPORT_VERSION = "ideapairs-report/1"


@dataclass(frozen=True)
class BuildResult:
    """The records written and the report (also written as JSON when a path was given)."""

    records: list[PairRecord]
    report: dict[str, Any]


def build(
    leaderboards: Sequence[str | Path],
    out: str | Path,
    report_path: str | Path | None = None,
    *,
    extract: bool = True,
    extractor: str | Model | None = None,
    paper_texts: str | Path | None = None,
    test_after: str | int | None = None,
    seed: int = DEFAULT_SEED,
    log_dir: str = "logs",
    source: str | None = None,
    fetch_papers: bool = False,
    abstracts: str | Path | None = None,
    fetcher: ArxivFetcher | None = None,
) -> BuildResult:
    """Build a pairs file from leaderboard files (PapersWithCode JSON or NLP-progress markdown).

    Args:
        leaderboards: Files or folders of ``.json`` / ``.md`` leaderboards.
        out: The pairs JSONL to write.
        report_path: Where to write the report JSON (optional; it is also returned).
        extract: Extract idea texts and goals with ``extractor``; False uses method name and
            paper title for ideas and a template goal (recorded in each record).
        extractor: The extractor model (required when ``extract``).
        paper_texts: Folder of paper texts named ``<arXiv id>.md|.txt`` (else a hash of the
            paper URL; the report lists the names it looked for); ideas without one use the
            method name and title.
        test_after: Time split: papers after this year (``YYYY``) or month (``YYYY-MM``) are
            test, the rest train.
        seed: Seed of the 80/20 split.
        log_dir: Where the extraction run writes its Inspect log.
        source: ``"pwc-archive"``: the paper's source, the pinned HF evaluation tables
            (downloaded into the cache; ``leaderboards`` must be empty), NLP tasks only;
            ``"file"``: ``leaderboards`` is a copy of those tables, NLP tasks only too;
            None: every leaderboard in ``leaderboards``.
        fetch_papers: Fetch each idea's paper (arXiv abstract and date, full text where arXiv
            renders HTML; ``papers.py``) into the cache for extraction and ``paper_date``.
        abstracts: A local copy of PapersWithCode ``papers-with-abstracts`` (JSON or parquet),
            the fallback for papers not on arXiv (with ``fetch_papers``).
        fetcher: The arXiv client (default: bases from the environment, the cache folder).
    """
    check_outputs(out, report_path)
    parse_cutoff(test_after)  # a malformed --test-after stops before anything is read
    check_extractor(extract, extractor)
    inputs = read_inputs(leaderboards, source)
    papers = paper_texts_in(Path(paper_texts) if paper_texts else None)
    scored_boards = [(board, *score_board(board)) for board in inputs.boards]
    fetched = Fetched()
    if fetch_papers:
        fetcher = fetcher or ArxivFetcher()
        fetched = fetch_metadata([r for _, r, _ in scored_boards], fetcher, abstracts)
    plan = plan_pairs(scored_boards, Splitter(seed, test_after, fetched.dates()))
    check_pairs_made(
        len(plan.pairs),
        len(inputs.boards),
        sum(len(b.entries) for b in inputs.boards),
        _drops_by_reason(plan.drops),
        inputs.paths,
    )
    extracted, without_paper = Extracted(), list[dict[str, str]]()
    if fetcher is not None and plan.pairs:
        papers = fetch_full_texts(plan.pairs, fetched, fetcher) | papers  # --paper-texts win
    if extract and plan.pairs:
        assert extractor is not None  # check_extractor: extraction names its model
        extracted, without_paper = extract_pairs(
            plan.pairs, plan.scored, papers, extractor, log_dir
        )
    records = _records(plan.pairs, extracted, fetched)
    report = {
        "report_version": REPORT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "inputs": [
            {"path": str(p), "sha256": sha256_of(p) if p.is_file() else None} for p in inputs.paths
        ],
        "seed": seed,
        "split": f"time: test = paper date after {test_after}"
        if test_after is not None
        else "random 80/20 by paper",
        "papers": fetched.report(fetcher, plan.pairs),
        "extraction": _extraction_report(extract, extractor, extracted, without_paper, records),
        **_counts_report(inputs, plan, source, records),
    }
    write_pairs(records, Path(out))
    if report_path is not None:
        Path(report_path).parent.mkdir(parents=True, exist_ok=True)
        Path(report_path).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return BuildResult(records=records, report=report)


def _records(pairs: list[PlannedPair], extracted: Extracted, fetched: Fetched) -> list[PairRecord]:
    """Step 3: the pair records, with the extracted goal or the template one."""
    records: list[PairRecord] = []
    for pair in pairs:
        scored_board = pair.board
        goal = extracted.goals.get(scored_board.board.board_id)
        if goal:
            goal += ranked_by(scored_board.columns, scored_board.rank_column)
        records += pair_records(
            pair,
            goal
            or template_goal(scored_board.board, scored_board.columns, scored_board.rank_column),
            "extracted" if goal else "template",
            extracted.ideas,
            fetched.dates(),
        )
    return records


def _drops_by_reason(drops: list[Drop]) -> dict[str, int]:
    return {reason: sum(d.reason == reason for d in drops) for reason in DROP_REASONS}


def _extraction_report(
    extract: bool,
    extractor: str | Model | None,
    extracted: Extracted,
    without_paper: list[dict[str, str]],
    records: list[PairRecord],
) -> dict[str, Any]:
    return {
        "mode": "extracted" if extract else "none (method name and paper title)",
        "extractor": str(extractor) if extract else None,
        "ideas_extracted": len(extracted.ideas),
        "goals_extracted": len(extracted.goals),
        "withheld_for_leaks": extracted.withheld,
        "failed": extracted.failed,
        "ideas_without_paper_text": without_paper,
        # Method name + paper title reveal the paper: a model can recall its result.
        "identity_leak": any(
            idea.text_source == "method_and_title"
            for record in records
            for idea in (record.idea_a, record.idea_b)
        ),
    }


def _counts_report(
    inputs: BuildInputs, plan: BuildPlan, source: str | None, records: list[PairRecord]
) -> dict[str, Any]:
    """Step 4: every entry read accounted for (kept or dropped with its reason), and the pairs."""
    boards, pairs, drops = inputs.boards, plan.pairs, plan.drops
    read = sum(len(b.entries) for b in boards)
    return {
        "entries_read": read,
        "kept": read - len(drops),
        # Kept entries need not be in a pair: their deltas may fall outside every tier window.
        "kept_in_pairs": len(
            {
                (p.board.board.board_id, p.board.entries[i].position)
                for p in pairs
                for i in (p.better, p.worse)
            }
        ),
        "dropped": len(drops),
        "dropped_by_reason": _drops_by_reason(drops),
        "source": source_report(
            source, inputs.nlp_only, sum(len(b.entries) >= 2 for b in boards), len(pairs)
        ),
        "leaderboards_read": len(boards),
        # A board name found in several files is read from one (the rest are not counted).
        "boards_read_once": inputs.read_once,
        # Files inside a leaderboard folder that could not be read (a named file must read).
        "files_skipped": inputs.skipped,
        "leaderboards_with_pairs": len({p.board.board.board_id for p in pairs}),
        "pairs": len(pairs),
        "records": len(records),
        "pairs_by_split": dict(Counter(p.split for p in pairs)),
        "pairs_by_tier": {str(k): v for k, v in sorted(Counter(p.tier for p in pairs).items())},
        "pairs_left_out_metrics_disagree": plan.disagree,
        # Boards listed worst-first (or otherwise against their metric's meaning): their
        # direction came from the metric name, so their labels are right (issue #18).
        "row_order_contradicts_polarity": [c for b in plan.scored for c in b.contradictions],
        "leaderboards": plan.board_reports,
        "drops": [d.as_dict() for d in drops],
    }
