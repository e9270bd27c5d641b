"""Recall control, one mechanism for every family: a task declares once, this module does the rest.

A family declares each task ONCE, as a :class:`~research_taste_evals.core.spec.TaskSpec` in
its ``specs.py`` (``core/spec.py``): among the rest, whether its items are dated (and why not),
how to read the items a sample shows (ids, texts, dates) from the sample's metadata, whether it
probes recognition and the names of its counts. The modules that need a spec import it.

From a spec this module builds:

- the solver steps (:func:`recall_solvers`): record the evaluated model's cutoff
  (``core/cutoff.py``), then, when the task probes, the recognition probe
  (``core/recognition.py``) on the items the sample shows;
- the ``Score.metadata`` fields (:func:`recall_fields`): the cutoff fields and, per item shown,
  ``{date, recognized, identity_leak}``;
- the recall figures of a run (``core/recall_metrics.py``, ``recall_summary``): given the
  family's own statistic, the headline's post-cutoff, unrecognised and clean twins, the
  recognition counts and the cutoff figures (stated, estimated, clean).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspect_ai.solver import Solver, TaskState

from research_taste_evals.core.cutoff import (
    CUTOFF_ARG,
    CutoffReader,
    cutoff_fields,
    parse_cutoff_arg,
    record_cutoff,
    state_cutoff,
)
from research_taste_evals.core.dates import ItemDate
from research_taste_evals.core.recognition import (
    ItemKind,
    RecallItem,
    RecallProbe,
    recall_probe,
    state_recognitions,
)
from research_taste_evals.core.spec import TaskSpec

__all__ = [
    "CUTOFF_ARG",
    "RECALL_FIELD",
    "ShownItem",
    "recall_fields",
    "recall_solvers",
    "shown_items",
]

RECALL_FIELD = "recall"  # Score.metadata: {item_id: {date, recognized, identity_leak}}


@dataclass(frozen=True)
class ShownItem:
    """One item a sample shows the judge: its id, date and (for the probe) what names it.

    ``text`` is exactly what the judge reads; empty when the sample's metadata does not carry
    it (the task then gives the probe a catalogue of :class:`RecallItem` by id).
    """

    item_id: str
    date: ItemDate | None
    text: str = ""
    title: str = ""
    method_names: tuple[str, ...] = ()
    kind: ItemKind = "paper"

    def recall_item(self) -> RecallItem:
        """The item as the probe sees it."""
        return RecallItem(self.item_id, self.text, self.title, self.method_names, self.kind)


def shown_items(control: TaskSpec, metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The items a sample shows (none for an undated task)."""
    return list(control.items(metadata)) if control.items is not None else []


def recall_solvers(
    control: TaskSpec,
    knowledge_cutoff: object,
    probe: bool,
    catalogue: Mapping[str, RecallItem] | None = None,
) -> list[Solver]:
    """The steps before the judge: record the cutoff, then (``probe``) probe the shown items.

    ``catalogue`` gives the probe's view of items whose text the sample metadata does not
    carry (a family that shows texts by id only). Parses ``knowledge_cutoff``
    (``parse_cutoff_arg``): a bad value is one ``ConfigError`` sentence, raised here, when the
    task is built.
    """
    steps = [
        record_cutoff(CutoffReader(control.task, parse_cutoff_arg(knowledge_cutoff, control.task)))
    ]
    if probe and control.probes:
        known = dict(catalogue or {})

        def items_of(state: TaskState) -> list[RecallItem]:
            shown = shown_items(control, state.metadata)
            return [known.get(item.item_id) or item.recall_item() for item in shown]

        steps.append(recall_probe(RecallProbe(), items_of))
    return steps


def recall_fields(control: TaskSpec, state: TaskState) -> dict[str, Any]:
    """The ``Score.metadata`` recall fields of this sample (module docstring).

    ``post_cutoff`` (against the stated cutoff) stays for readers of older logs.
    """
    shown = shown_items(control, state.metadata)
    recognitions = state_recognitions(state)
    per_item = {}
    for item in shown:
        found = recognitions.get(item.item_id) or {}
        per_item[item.item_id] = {
            "date": str(item.date) if item.date else None,
            "recognized": found.get("recognized"),
            "identity_leak": bool(found.get("identity_leak")),
        }
    fields = cutoff_fields(state_cutoff(state), [item.date for item in shown])
    return fields | {RECALL_FIELD: per_item}
