"""A round: items frozen before their labels exist, judged now, scored when labels arrive.

A round folder (``research-taste round open``, docs/rounds.md) holds ``round.json``
(``opened_at``, ``source``, ``query``, ``items``, the sha256 of the item and pairs files, the
``label_plan``, the ``label_versions`` resolved so far), ``items.csv`` (``item_id, title,
pub_date, abstract, group``; no label), ``pairs.csv`` (``pair_id, item_1, item_2, gap_days,
same_month``: label-blind pairs fixed at open, each judged in both orders) and
``labels/<YYYY-MM-DD>[.<n>].csv`` (``item_id, label, label_time, ...`` as each resolve found
them; an empty ``label``: not labelled yet).

What the tasks and re-scoring scorers need of a round: recognise it, check it is unchanged since
open, read its items, pairs and a labels file, and when a sample's decision was made.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, read_csv, read_json, sha256_of
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.round_manifest import (
    check_labels_version,
    check_round_manifest,
    parse_time,
    resolve_command,
)
from research_taste_evals.core.round_snapshot import round_folder

ROUND_FILE = "round.json"
ITEMS_FILE = "items.csv"
PAIRS_FILE = "pairs.csv"
LABELS_DIR = "labels"
ITEM_COLUMNS = ("item_id", "title", "pub_date", "abstract", "group")
PAIR_COLUMNS = ("pair_id", "item_1", "item_2", "gap_days", "same_month")


@dataclass(frozen=True)
class RoundItem:
    """One frozen item: its id, title, first public date, abstract and pairing group."""

    item_id: str
    title: str
    pub_date: str
    abstract: str
    group: str


@dataclass(frozen=True)
class RoundPair:
    """Two items judged in both orders; ``item_1`` is shown first in the pair's first sample."""

    pair_id: int
    item_1: str
    item_2: str
    gap_days: int
    same_month: bool


@dataclass(frozen=True)
class Round:
    """A checked round folder."""

    folder: Path
    manifest: dict[str, Any]
    items: list[RoundItem]
    pairs: list[RoundPair]

    @property
    def name(self) -> str:
        return str(self.manifest.get("name") or self.folder.name)

    @property
    def prompt(self) -> str:
        """The judging prompt's name (``label_plan.prompt``)."""
        if "prompt" not in self.manifest["label_plan"]:
            raise DataError(f"{self.folder / ROUND_FILE}: field 'label_plan.prompt' is missing")
        return str(self.manifest["label_plan"]["prompt"])


def is_round(path: str | Path | None) -> bool:
    """Whether ``path`` is a round folder (it holds ``round.json``)."""
    return path is not None and (Path(path).expanduser() / ROUND_FILE).is_file()


def refuse_a_round(data_path: str | Path | None, round_task: str) -> None:
    """Refuse a round folder given to a task that judges sets, naming the round's own task.

    Raises:
        ConfigError: ``data_path`` is a round folder, in one sentence.
    """
    if is_round(data_path):
        raise ConfigError(
            f"data_path={str(data_path)!r} is a round folder (it holds {ROUND_FILE}); judge it "
            f"with `inspect eval research_taste_evals/{round_task} -T round={data_path}`"
        )


def open_round(value: str | None, task: str) -> Round:
    """The round a round task's ``round`` argument names (a round folder, one ``round publish``
    wrote too, or a published round on the Hub at a pinned commit: ``core/round_snapshot.py``),
    checked against its manifest.

    Raises:
        ConfigError: no value, no ``round.json`` there, or an unpinned Hub round (naming it).
        DataError: the round's files changed since open or are malformed (naming the file).
    """
    if value is None:
        raise ConfigError(
            f"{task}: argument 'round' is required: a folder written by `research-taste round open`"
        )
    folder = round_folder(value)
    manifest = folder / ROUND_FILE
    if not manifest.is_file():
        raise ConfigError(
            f"round={value!r}: {manifest} does not exist, so it is not a round folder (one "
            "written by `research-taste round open` or `round publish`)"
        )
    try:
        return load_round(folder)
    except DataError as error:
        raise DataError(f"round={value!r}: {error}") from error


def round_identity(round_: Round) -> dict[str, Any]:
    """What a judgment log records of its round (``eval.metadata["round"]``): the name, folder,
    id (None for a round opened before rounds had one), opening time and items' sha256, by
    which ``research-taste round score`` finds the round's judgments, and its state."""
    manifest = round_.manifest
    return {
        "name": round_.name,
        "round_id": manifest.get("round_id"),
        "folder": str(round_.folder),
        "opened_at": manifest.get("opened_at"),
        "items_sha256": manifest.get("items_sha256"),
        "state": "pending",
    }


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """``round.json`` of ``folder`` as a dict, its shared fields checked (core/round_manifest.py).

    Raises:
        DataError: missing, not a JSON object, or a field of the wrong type.
    """
    path = Path(folder).expanduser() / ROUND_FILE
    return check_round_manifest(path, read_json(path))


def check_frozen(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse a round whose item or pairs file changed since it was opened (one sentence)."""
    for name, key in ((ITEMS_FILE, "items_sha256"), (PAIRS_FILE, "pairs_sha256")):
        path = folder / name
        if not path.is_file():
            raise DataError(f"{path}: missing; the round {folder} is incomplete")
        if sha256_of(path) != manifest.get(key):
            raise DataError(
                f"{path}: its sha256 no longer matches '{key}' in {folder / ROUND_FILE}, so the "
                "round is not the one that was opened; restore the file or open a new round"
            )


def load_round(folder: str | Path) -> Round:
    """The round in ``folder``, checked against its manifest.

    Raises:
        DataError: a missing file, a changed item or pairs file, or a malformed row.
    """
    root = Path(folder).expanduser().resolve()
    manifest = read_manifest(root)
    check_frozen(root, manifest)
    items_path, pairs_path = root / ITEMS_FILE, root / PAIRS_FILE
    items = []
    for index, row in enumerate(read_csv(items_path)):
        missing = [column for column in ITEM_COLUMNS if column not in row]
        if missing:
            raise DataError(f"{items_path}: row {index + 1}: field '{missing[0]}' is missing")
        items.append(RoundItem(**{column: str(row[column]) for column in ITEM_COLUMNS}))
    known = {item.item_id for item in items}
    pairs: list[RoundPair] = []
    for index, row in enumerate(read_csv(pairs_path)):
        try:
            pair = RoundPair(
                int(row["pair_id"]),
                str(row["item_1"]),
                str(row["item_2"]),
                int(row["gap_days"]),
                str(row["same_month"]).lower() == "true",
            )
        except (KeyError, ValueError) as error:
            raise DataError(f"{pairs_path}: row {index + 1}: field {error}") from error
        for field, item_id in (("item_1", pair.item_1), ("item_2", pair.item_2)):
            if item_id not in known:
                raise DataError(f"{pairs_path}: row {index + 1}: field '{field}': unknown item")
        # pairs are disjoint (rounds/manifest.label_blind_pairs): a repeat is a hand edit
        problem = pair_problem(pair, pairs)
        if problem:
            raise DataError(f"{pairs_path}: row {index + 1}: {problem}")
        pairs.append(pair)
    if not pairs:  # open refuses such a round; Inspect would only say "dataset is empty"
        raise DataError(f"{pairs_path}: no pair; a round is judged on its pairs (open a new one)")
    return Round(folder=root, manifest=manifest, items=items, pairs=pairs)


def pair_problem(pair: RoundPair, earlier: list[RoundPair]) -> str:
    """Why ``pair`` cannot follow ``earlier`` in a round's pairs ("" if it can)."""
    if pair.item_1 == pair.item_2:
        return f"field 'item_2': the same item as item_1 ({pair.item_1}): a pair of one paper"
    if any(other.pair_id == pair.pair_id for other in earlier):
        return f"field 'pair_id': {pair.pair_id} repeats an earlier row"
    taken = {item for other in earlier for item in (other.item_1, other.item_2)}
    for field, item_id in (("item_1", pair.item_1), ("item_2", pair.item_2)):
        if item_id in taken:
            return f"field '{field}': {item_id} is already in an earlier pair (pairs are disjoint)"
    return ""


@dataclass(frozen=True)
class Label:
    """An item's label in one labels version: its value (NaN: none yet), when it existed, and
    why the item is dropped from scoring ("" for none: it left the round with no label)."""

    value: float
    time: dt.datetime | None  # the first moment the label (or any part of it) was public
    dropped: str = ""


@dataclass(frozen=True)
class Labels:
    """One labels file: its version (the file's stem), the label of each item, and the round's
    ``judge_by`` (``round.json`` two folders up; None for a round opened without one): a
    decision after it is not prospective."""

    version: str
    path: Path
    by_item: dict[str, Label]
    judge_by: dt.datetime | None = None

    def share_labelled(self, item_ids: Iterable[str]) -> float:
        ids = list(item_ids)
        labelled = [i for i in ids if math.isfinite(self.label(i).value)]
        return len(labelled) / len(ids) if ids else math.nan

    def label(self, item_id: str) -> Label:
        return self.by_item.get(item_id, Label(math.nan, None))


@lru_cache(maxsize=32)
def _read_labels(path: Path, _mtimes: tuple[float, float]) -> Labels:
    by_item = {}
    for index, row in enumerate(read_csv(path)):
        try:
            value = math.nan if row.get("label") in (None, "") else float(row["label"])
            time, dropped = parse_time(row.get("label_time")), str(row.get("dropped") or "")
            by_item[str(row["item_id"])] = Label(value, time, dropped)
        except (KeyError, ValueError) as error:
            raise DataError(f"{path}: row {index + 1}: field {error} unreadable") from error
    judge_by = None  # a labels file outside a round folder (``inspect score -S labels=``)
    if (path.parent.parent / ROUND_FILE).is_file():
        manifest = read_manifest(path.parent.parent)
        check_labels_version(path, manifest)  # as resolve wrote it: every reader checks
        judge_by = parse_time(manifest.get("judge_by"))
    return Labels(version=path.stem, path=path, by_item=by_item, judge_by=judge_by)


def read_labels(path: str | Path) -> Labels:
    """A labels file (``labels/<version>.csv``) by item id.

    Raises:
        DataError: the file is missing, not as ``round resolve`` wrote it (``round_manifest.
            check_labels_version``), or a row's ``label``/``label_time`` is unreadable.
    """
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise DataError(f"{resolved}: labels file does not exist")
    manifest = resolved.parent.parent / ROUND_FILE
    listed = manifest.stat().st_mtime if manifest.is_file() else 0.0
    return _read_labels(resolved, (resolved.stat().st_mtime, listed))


def decision_time(events: Iterable[Any]) -> dt.datetime | None:
    """When the evaluated model last answered in a sample: the completion (else start) time of
    its last model event without a role (role models such as an extractor are left out)."""
    last = None
    for event in events:
        if getattr(event, "event", None) == "model" and getattr(event, "role", None) is None:
            last = event
    if last is None:
        return None
    stamp = getattr(last, "completed", None) or last.timestamp
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


LABELLED, DROPPED, PENDING = "labelled", "dropped", "pending"


def item_state(labelled: bool, dropped: bool) -> str:
    """An item's state in a labels version: labelled, dropped (left with no label) or pending."""
    return LABELLED if labelled else DROPPED if dropped else PENDING


@dataclass(frozen=True)
class ItemCounts:
    """A round's paired items (in a frozen pair: the only ones a figure scores) by state, the
    one definition the judging warning, ``round resolve``, the scorer's ``labelled_share`` and
    ``pending_items`` and the report share; a round judged paper by paper counts papers."""

    paired: int
    labelled: int
    dropped: int
    unit: str = "paired items"

    @property
    def pending(self) -> int:
        return self.paired - self.labelled - self.dropped

    @property
    def labelled_share(self) -> float:
        return self.labelled / self.paired if self.paired else math.nan

    def text(self) -> str:
        """As every command prints it (the report's three significant digits)."""
        share = "nan" if not self.paired else f"{self.labelled_share:.3g}"
        return (
            f"labelled share {share} ({self.labelled} of {self.paired} {self.unit}), "
            f"{self.pending} pending, {self.dropped} dropped"
        )


def item_counts(states: Iterable[str], unit: str = "paired items") -> ItemCounts:
    """The counts of the paired items' states (:func:`item_state`), one state per item."""
    listed = list(states)
    return ItemCounts(len(listed), listed.count(LABELLED), listed.count(DROPPED), unit)


def paired_item_ids(round_: Round) -> list[str]:
    """The ids of the items in at least one frozen pair, in pair order."""
    return list(dict.fromkeys(i for pair in round_.pairs for i in (pair.item_1, pair.item_2)))


def newest_labels_file(round_: Round) -> Path | None:
    """The round's newest labels version's file (None before its first resolve)."""
    versions = round_.manifest.get("label_versions") or []
    return round_.folder / str(versions[-1]["file"]) if versions else None


def newest_labels(round_: Round) -> Labels | None:
    """The round's newest labels version, read (None before its first resolve)."""
    return read_labels(path) if (path := newest_labels_file(round_)) else None


def paired_counts(round_: Round, labels: Labels | None) -> ItemCounts:
    """:class:`ItemCounts` of the round's paired items in ``labels`` (None: all pending)."""
    found = [labels.label(i) if labels else Label(math.nan, None) for i in paired_item_ids(round_)]
    return item_counts(item_state(math.isfinite(x.value), bool(x.dropped)) for x in found)


def judging_note(
    round_: Round, data_path: str, counted: tuple[str | None, ItemCounts] | None = None
) -> str:
    """The line a judgment run logs: the counts in the newest labels version (``counted``: the
    version, None before a resolve, and counts of a task's own items; default: the paired
    items) and how to score the log (after a resolve, decisions are no longer prospective)."""
    if counted is None:
        labels = newest_labels(round_)
        counted = (labels.version if labels else None, paired_counts(round_, labels))
    version, counts = counted
    score = f"research-taste round score {data_path} --log-dir <log dir>"
    if version is None:
        return (
            f"round {round_.name}: no labels yet, {counts.pending} of its {counts.paired} "
            f"{counts.unit} pending; once `{resolve_command(round_.manifest, data_path)}` has run, "
            f"score this log with `{score}`"
        )
    late = " a decision on a labelled item made now is not prospective;"
    return (
        f"round {round_.name}: labels version {version}: {counts.text()};"
        + (late if counts.labelled else "")
        + f" score this log with `{score}`"
    )


def is_prospective(value: dict[str, float]) -> bool:
    """Whether a round decision (a round pairwise scorer's per-sample value) was made before
    the earliest label time of either item (no label time yet: before) and not after the
    round's ``judge_by`` (its judging window, when the labels file has one)."""
    times = [value.get(f"label_time_{k}", math.nan) for k in ("1", "2")]
    known = [t for t in times if isinstance(t, float) and math.isfinite(t)]
    decided = value.get("decided_at", math.nan)
    judge_by = value.get("judge_by", math.nan)
    if math.isfinite(judge_by) and math.isfinite(decided) and decided > judge_by:
        return False
    if not known:
        return True
    return math.isfinite(decided) and decided < min(known)
