"""The pairs file: one JSON object per line, schema ``ideapairs/1``, validated with pydantic.

Each unordered pair of ideas is written twice (swap augmentation, appendix A.4 of Mule et al.):
``order: "original"`` shows the better idea as Idea A, ``order: "swapped"`` shows it as Idea B.
Both records share ``pair_id``; ``record_id`` is unique per line.

Fields of a record:

- ``schema_version``: ``"ideapairs/1"``.
- ``pair_id``, ``record_id``, ``order`` (``original`` | ``swapped``).
- ``benchmark_id``, ``benchmark`` (leaderboard name), ``goal`` (research goal text) and
  ``goal_source`` (``extracted`` | ``template``).
- ``idea_a``, ``idea_b``: ``idea_id``, ``text``, ``text_source`` (``extracted`` |
  ``method_and_title``), ``method``, ``paper_title``, ``paper_url``, ``year``, ``unified_score``;
  optional ``paper_date`` (``YYYY-MM-DD`` or ``YYYY-MM``, as precise as the source gives it;
  absent: only ``year`` is known).
- ``delta_sigma`` (|s_a - s_b| / sigma of the leaderboard), ``tier`` (1, 2 or 3).
- ``label``: the position of the better idea, ``A`` or ``B``. ``y`` is the same fact in the
  paper's section 2 convention (0 = Idea A outperforms Idea B, 1 = otherwise).
- ``split`` (``train`` | ``test``), ``bucket`` (year range of the pair's time bucket).
- Optional ``metric`` (the metric that decides the pair) and ``lower_is_better`` (its direction);
  absent in files written before they were added, which keep loading.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from research_taste_evals.core.data import DataError, describe_validation_error

SCHEMA_VERSION = "ideapairs/1"
Order = Literal["original", "swapped"]
TextSource = Literal["extracted", "method_and_title"]


class IdeaRecord(BaseModel):
    """One idea as shown to the model, with the facts the metrics need."""

    model_config = ConfigDict(extra="forbid")

    idea_id: str
    text: str
    text_source: TextSource
    method: str
    paper_title: str
    paper_url: str
    year: int
    unified_score: float
    paper_date: str | None = None


class PairRecord(BaseModel):
    """One presentation order of one idea pair."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal["ideapairs/1"]
    pair_id: str
    record_id: str
    order: Order
    benchmark_id: str
    benchmark: str
    goal: str
    goal_source: Literal["extracted", "template"]
    idea_a: IdeaRecord
    idea_b: IdeaRecord
    delta_sigma: float
    tier: Literal[1, 2, 3]
    label: Literal["A", "B"]
    y: Literal[0, 1]
    split: Literal["train", "test"]
    bucket: str
    metric: str | None = None
    lower_is_better: bool | None = None

    @model_validator(mode="after")
    def _label_matches_scores(self) -> PairRecord:
        better = "A" if self.idea_a.unified_score > self.idea_b.unified_score else "B"
        if self.label != better:
            raise ValueError(f"label {self.label} but idea {better} has the higher unified_score")
        if self.y != (0 if self.label == "A" else 1):
            raise ValueError(
                f"y={self.y} disagrees with label {self.label} (y=0 means A is better)"
            )
        if self.idea_a.idea_id == self.idea_b.idea_id:
            raise ValueError("idea_a and idea_b are the same idea")
        if not self.text_ok():
            raise ValueError("idea_a.text, idea_b.text and goal must be non-empty")
        return self

    def text_ok(self) -> bool:
        return bool(self.idea_a.text.strip() and self.idea_b.text.strip() and self.goal.strip())


def read_pairs(path: Path) -> list[PairRecord]:
    """Every record of a pairs file, validated; the error names the file, line and field.

    Raises:
        DataError: unreadable file, invalid JSON, a record that breaks the schema, or a pair
            whose two orders do not mirror each other.
    """
    if not path.is_file():
        raise DataError(
            f"{path}: pairs file does not exist (build one: research-taste ideapairs build)"
        )
    records: list[PairRecord] = []
    for number, data in enumerate(path.read_bytes().split(b"\n"), start=1):
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(
                f"{path}: line {number}: not UTF-8 text: byte {error.start}: {error.reason}"
            ) from error
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataError(f"{path}: line {number}: invalid JSON: {error.msg}") from error
        try:
            records.append(PairRecord.model_validate(raw))
        except ValidationError as error:
            record = raw.get("record_id", "?") if isinstance(raw, dict) else "?"
            raise DataError(
                f"{path}: line {number} (record {record}): {describe_validation_error(error)}"
            ) from error
    check_mirrored(records, path)
    return records


def check_mirrored(records: list[PairRecord], source: Path | str) -> None:
    """Each pair_id has one original and one swapped record showing the ideas reversed."""
    by_pair: dict[str, dict[str, PairRecord]] = {}
    for record in records:
        orders = by_pair.setdefault(record.pair_id, {})
        if record.order in orders:
            raise DataError(f"{source}: pair {record.pair_id}: two '{record.order}' records")
        orders[record.order] = record
    for pair_id, orders in by_pair.items():
        if set(orders) != {"original", "swapped"}:
            raise DataError(
                f"{source}: pair {pair_id}: needs both an original and a swapped record"
            )
        first, second = orders["original"], orders["swapped"]
        if (first.idea_a.idea_id, first.idea_b.idea_id) != (
            second.idea_b.idea_id,
            second.idea_a.idea_id,
        ):
            raise DataError(
                f"{source}: pair {pair_id}: the swapped record does not reverse the ideas"
            )
        if first.label == second.label:
            raise DataError(f"{source}: pair {pair_id}: both orders carry label {first.label}")
        field = mirror_mismatch(first, second)
        if field is not None:
            raise DataError(
                f"{source}: pair {pair_id}: record {second.record_id} (swapped): field "
                f"'{field}' differs from record {first.record_id} (original); only the order "
                "of the two ideas may differ"
            )


# Fields both orders of a pair must share: the model sees one pair, shown twice.
SHARED_FIELDS = (
    "schema_version",
    "benchmark_id",
    "benchmark",
    "goal",
    "goal_source",
    "delta_sigma",
    "tier",
    "split",
    "bucket",
    "metric",
    "lower_is_better",
)


def mirror_mismatch(original: PairRecord, swapped: PairRecord) -> str | None:
    """The first field in which ``swapped`` is not ``original`` with its ideas reversed.

    The sample is built from the original record alone (the solver rebuilds the swapped prompt
    from it), so a swapped record that differs would be silently ignored.
    """
    for name in SHARED_FIELDS:
        if getattr(original, name) != getattr(swapped, name):
            return name
    for mine, theirs in (("idea_a", "idea_b"), ("idea_b", "idea_a")):
        ours, other = getattr(original, mine), getattr(swapped, theirs)
        for name in IdeaRecord.model_fields:
            if getattr(ours, name) != getattr(other, name):
                return f"{theirs}.{name}"
    return None


def write_pairs(records: list[PairRecord], path: Path) -> None:
    """Write records as JSON lines, atomically (a temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    with partial.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record.model_dump_json() + "\n")
    partial.replace(path)
