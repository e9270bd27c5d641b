"""Load SciJudgeBench rows (Hub split or local JSONL) as two Inspect samples per couple.

The paper asks every pair in both presentation orders and counts it right only when both
answers are (arXiv 2603.14473 section 4.1, "pairwise accuracy with position-swap
consistency"). A *couple* is a row and its swapped twin: the row's user turn with the two paper
blocks exchanged (``prompts.swap_paper_blocks``) and ``correct_answer`` flipped. Where the file
already holds that twin (the old main split: both orders of ~10 prompt variations a pair), the
twin row is the couple's second order and no third is asked; otherwise (today's files: one
order per pair) the swapped order is built from the row. Each order is one sample, the row's
own order (``order: given``) first and its twin (``order: swapped``) next, so ``--limit`` cuts
at most one couple.

A pair is the unordered pair of paper ids; a couple's ``variation`` is its position among its
pair's couples in file order. Reading one row, and why a row is left out: ``rows.py``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageUser

from research_taste_evals.core.data import (
    DataError,
    HubFile,
    ResolvedData,
    read_jsonl,
    resolve_data,
    sha256_of,
)
from research_taste_evals.core.dates import date_range, require_item_date
from research_taste_evals.core.network import OFFLINE_HINT
from research_taste_evals.core.text import content_id, fill_template
from research_taste_evals.scijudge.prompts import (
    TASTYBENCH_JUDGE,
    TASTYBENCH_PROJECT,
    swap_paper_blocks,
)
from research_taste_evals.scijudge.rows import (
    LEFT_OUT_REASONS,
    SIDES,
    Paper,
    left_out_reason,
    pair_key,
    read_messages,
    read_paper,
)

SplitChoice = Literal["test", "test_ood_iclr", "test_ood_year"]
PromptChoice = Literal["dataset", "tastybench"]
DATASET_ID = "OpenMOSS-Team/SciJudgeBench"
# Not pinned to a commit: the Hub cannot be reached from where this task was written, so the
# default is the branch; the log records the commit it resolved to (``data_revision``).
DEFAULT_REVISION = "main"
# The pairs each Hub split holds (README "Splits and data"): another count is another data
# version, a local file or a changed Hub file, and the run is not comparable with the tables.
EXPECTED_PAIRS: dict[str, dict[int, str]] = {
    "test": {1000: "main test split after the Hub refresh (dataset pull request #3)"},
    "test_ood_year": {
        904: "refreshed 2025 set (dataset pull request #5)",
        514: "2025 set before the refresh",
    },
    "test_ood_iclr": {611: "ICLR set"},
}
FLIP = {"A": "B", "B": "A"}


@dataclass(frozen=True)
class Row:
    """A kept row: its papers as shown (A first), its chat, its label, where it is."""

    number: int
    a: Paper
    b: Paper
    messages: list[ChatMessage]
    answer: str
    swapped_user: str

    @property
    def pair(self) -> str:
        return pair_key(self.a, self.b)

    def key(self, user: str) -> tuple[str, ...]:
        """The chat with its user turn replaced by ``user`` (twin rows share it)."""
        return (*(m.text for m in self.messages[:-1]), user)


@dataclass(frozen=True)
class LoadedRows:
    """The dataset and what the task records about where it came from."""

    dataset: MemoryDataset
    metadata: dict[str, Any]


def hub_file(split: str, revision: str) -> HubFile:
    """The split's JSONL file on the Hub (the card's ``configs``: ``<split>.jsonl``)."""
    return HubFile(repo_id=DATASET_ID, filename=f"{split}.jsonl", revision=revision)


def fetch(data_path: str | None, split: str, revision: str) -> ResolvedData:
    """The local file: ``data_path``, else the split from the Hub (or the Hub cache).

    Raises:
        DataError: in one sentence naming ``-T data_path=demo`` and the dataset id when the
            Hub file cannot be had (offline and not cached, or a bad revision).
    """
    if data_path is not None:
        return resolve_data(None, data_path)
    try:
        return resolve_data(hub_file(split, revision))
    except DataError as error:
        cause = str(error).replace(OFFLINE_HINT, "").strip().rstrip(".")
        raise DataError(
            f"scijudge: {cause}; run offline on the shipped demo rows with -T data_path=demo, "
            f"or download the {DATASET_ID} split elsewhere and pass -T data_path=<its JSONL>"
        ) from error


def tastybench_prompt(a: Paper, b: Paper) -> str:
    """The pair in TastyBench's judge wording, paper A as Project 1."""
    projects = {
        f"project_{n}": fill_template(
            TASTYBENCH_PROJECT, title=p.title, date=p.date, abstract=p.abstract
        )
        for n, p in ((1, a), (2, b))
    }
    return fill_template(TASTYBENCH_JUDGE, **projects)


def read_row(row: Mapping[str, Any], number: int, where: str) -> tuple[Row | str, str]:
    """A kept row, or the reason it is left out (``rows.LEFT_OUT_REASONS``), and its pair."""
    a, b = (read_paper(row, side, where) for side in SIDES)
    messages = read_messages(row, where)
    reason = left_out_reason(row.get("correct_answer"), a, b)
    swapped = swap_paper_blocks(messages[-1].text)
    if reason is None and swapped is not None:
        answer = str(row["correct_answer"]).strip().upper()
        return Row(number, a, b, messages, answer, swapped), pair_key(a, b)
    return reason or "unswappable_prompt", pair_key(a, b)


def couples_of(rows: list[Row], source: str) -> list[tuple[Row, Row | None]]:
    """Each row with its swapped twin row (None: the swap is built), in file order."""
    waiting: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        waiting[row.key(row.messages[-1].text)].append(index)
    matched: set[int] = set()
    couples: list[tuple[Row, Row | None]] = []
    for index, row in enumerate(rows):
        if index in matched:
            continue
        matched.add(index)
        twins = [j for j in waiting[row.key(row.swapped_user)] if j not in matched]
        twin = rows[twins[0]] if twins else None
        if twin is not None:
            matched.add(twins[0])
            if twin.answer == row.answer:
                raise DataError(
                    f"{source}: rows {row.number} and {twin.number} show one pair in swapped "
                    f"orders with the same field 'correct_answer' ({row.answer})"
                )
        couples.append((row, twin))
    return couples


def _order(
    row: Row, twin: Row | None, swapped: bool, prompt: PromptChoice
) -> tuple[str | list[ChatMessage], str, Paper, Paper, str]:
    """One order of a couple: input, target, papers as shown, where the order comes from."""
    if not swapped:
        a, b, chat, answer, origin = row.a, row.b, row.messages, row.answer, "row"
    elif twin is not None:
        a, b, chat, answer, origin = twin.a, twin.b, twin.messages, twin.answer, "twin_row"
    else:
        chat = [*row.messages[:-1], ChatMessageUser(content=row.swapped_user)]
        a, b, answer, origin = row.b, row.a, FLIP[row.answer], "built"
    shown: str | list[ChatMessage] = chat if prompt == "dataset" else tastybench_prompt(a, b)
    return shown, answer, a, b, origin


def samples_of(couples: list[tuple[Row, Row | None]], prompt: PromptChoice) -> list[Sample]:
    """Two samples per couple (its given order, then its swapped one)."""
    per_pair: dict[str, int] = defaultdict(int)
    for row, _ in couples:
        per_pair[row.pair] += 1
    seen: dict[str, int] = defaultdict(int)
    ids: set[str] = set()
    samples: list[Sample] = []
    for row, twin in couples:
        variation = seen[row.pair]
        seen[row.pair] += 1
        for order in ("given", "swapped"):
            shown, answer, a, b, origin = _order(row, twin, order == "swapped", prompt)
            text = shown if isinstance(shown, str) else [m.text for m in shown]
            sample_id = content_id(row.pair, text, answer)
            if sample_id in ids:  # the same row twice: keep both, told apart by their place
                sample_id = f"{sample_id}-{len(samples)}"
            ids.add(sample_id)
            category = " / ".join(sorted({a.category, b.category}))  # one name in both orders
            samples.append(
                Sample(
                    id=sample_id,
                    input=shown,
                    target=answer,
                    metadata={
                        "pair_id": row.pair,
                        "couple_id": f"{row.pair}#{variation}",
                        "variation": variation,
                        "couples": per_pair[row.pair],
                        "order": order,
                        "order_source": origin,
                        "row": (twin or row).number if origin == "twin_row" else row.number,
                        "category": category,
                        "prompt": prompt,
                        "paper_a": a.as_metadata(),
                        "paper_b": b.as_metadata(),
                    },
                )
            )
    return samples


def _counts(split: str | None, pairs_in_file: int) -> dict[str, Any]:
    """The expected pair counts of the split and what this file's count means."""
    expected = EXPECTED_PAIRS.get(split or "", {})
    version = expected.get(pairs_in_file)
    if split is None:
        meaning = "a local file: compare its pair count with the README's split counts"
    elif version is None:
        listed = ", ".join(f"{n} ({what})" for n, what in expected.items())
        meaning = (
            f"{pairs_in_file} pairs is not a count the README lists for {split} ({listed}): "
            "another data version or a changed Hub file, not comparable with the paper's tables"
        )
    else:
        meaning = version
    return {"expected_pairs": sorted(expected), "data_version": meaning}


def label_kind(rows: list[Row], source: str) -> Literal["citations", "rating"]:
    """Whether the rows are labelled by citations or (the ICLR split) by review rating.

    Raises:
        DataError: the file mixes the two kinds, naming the first row of each.
    """
    iclr = [row.number for row in rows if row.a.year is not None]
    dated = [row.number for row in rows if row.a.year is None]
    if iclr and dated:
        raise DataError(
            f"{source}: rows of two kinds in one file (row {dated[0]} is a citation row with "
            f"paper dates, row {iclr[0]} an ICLR row with a 'year' and ratings); the two labels "
            "are different questions, so split the file and run each part on its own"
        )
    return "rating" if iclr else "citations"


def load_rows(
    data_path: str | None,
    split: SplitChoice = "test",
    revision: str = DEFAULT_REVISION,
    prompt: PromptChoice = "dataset",
) -> LoadedRows:
    """The kept rows of a split (or of ``data_path``), two samples per couple.

    Raises:
        DataError: the data cannot be had, a row is broken, no row is a valid pair, or the
            TastyBench wording is asked of the ICLR rows (their label is not citations).
    """
    resolved = fetch(data_path, split, revision)
    if resolved.path.is_dir():
        raise DataError(f"{resolved.path}: data_path must be a JSONL file, not a folder")
    records = read_jsonl(resolved.path)
    source = str(resolved.path)
    kept: list[Row] = []
    left_out = dict.fromkeys(LEFT_OUT_REASONS, 0)
    all_pairs: set[str] = set()
    first_of: dict[str, int] = {}  # a row's canonical JSON -> the number of its first copy
    for number, record in enumerate(records, start=1):
        where = f"{source}: row {number}"
        if not isinstance(record, Mapping):
            raise DataError(f"{where}: expected a JSON object, got {type(record).__name__}")
        row, pair = read_row(record, number, where)
        all_pairs.add(pair)
        verbatim = json.dumps(record, sort_keys=True, ensure_ascii=False)
        if verbatim in first_of:
            left_out["duplicate_row"] += 1
            continue
        first_of[verbatim] = number
        if isinstance(row, str):
            left_out[row] += 1
        else:
            kept.append(row)
    if not kept:
        raise DataError(
            f"{source}: no row is a valid pair ({len(records)} rows; left out by reason: "
            f"{left_out}); give rows with both abstracts, different citations (or ratings), "
            "answer A or B naming the paper with more (the higher rating), and one 'Paper A' "
            "and one 'Paper B' block in the user turn"
        )
    iclr = label_kind(kept, source) == "rating"
    if iclr and prompt == "tastybench":
        raise DataError(
            f"{source}: -T prompt=tastybench asks about citations, but these ICLR rows are "
            "labelled by review rating; use -T prompt=dataset (the rows' own prompt)"
        )
    couples = couples_of(kept, source)
    samples = samples_of(couples, prompt)
    dated = date_range(
        require_item_date(s.metadata[side]["date"], "kept row")
        for s in samples
        if s.metadata
        for side in ("paper_a", "paper_b")
    )
    shown_split = split if data_path is None else None
    return LoadedRows(
        dataset=MemoryDataset(samples=samples, name=f"scijudge-{split}", shuffled=False),
        metadata={
            "dataset_id": DATASET_ID,
            "split": shown_split,
            "data_path": source if data_path is not None else None,
            "revision_requested": revision if data_path is None else None,
            "data_revision": resolved.revision,
            "data_sha256": sha256_of(resolved.path),
            "prompt": prompt,
            "label": "higher review rating (ICLR)" if iclr else "more citations",
            "rows": len(records),
            "kept_rows": len(kept),
            "left_out": sum(left_out.values()),
            "left_out_by_reason": left_out,
            "pairs_in_file": len(all_pairs),
            "pairs": len({row.pair for row in kept}),
            "couples": len(couples),
            "twin_rows": sum(twin is not None for _, twin in couples),
            "built_swaps": sum(twin is None for _, twin in couples),
            "orders_asked": len(samples),
            **_counts(shown_split, len(all_pairs)),
            "item_dates": (
                f"papers {'by ICLR year Y, dated 1 September of Y-1' if iclr else 'by day'}, "
                f"{dated[0]} to {dated[1]}"
                if dated
                else "none"
            ),
        },
    )
