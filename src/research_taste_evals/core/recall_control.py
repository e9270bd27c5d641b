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

import importlib
from collections.abc import Callable, Mapping, Sequence
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
from research_taste_evals.core.roles import RoleSpec
from research_taste_evals.core.spec import TaskSpec

__all__ = [
    "CUTOFF_ARG",
    "RECALL_FIELD",
    "Declared",
    "RecallControl",
    "ShownItem",
    "declaration",
    "declarations",
    "declare",
    "recall_fields",
    "recall_solvers",
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


ItemsOf = Callable[[Mapping[str, Any]], Sequence[ShownItem]]


@dataclass(frozen=True)
class RecallControl:
    """What recall control and the tooling need to know about one task, declared once.

    Attributes:
        task: The task's registered name.
        headline: Its headline metric; the twins are ``<headline>_<subset>``.
        items: Sample metadata -> the items it shows with ids and dates; None when undated.
        undated_reason: Why the task's items carry no dates (required when ``items`` is None).
        probes: Whether the task runs the recognition probe (its ``recall_probe`` argument).
        post_cutoff_count: Name of the post-cutoff twin's count (kept from older logs).
        unrecognized_count: Name of the unrecognised twin's count.
        clean_count: Name of the clean twin's count (``clean_items``, the contract's name).
        subset_counts: Further counts the statistic returns, logged per subset
            (``comparisons`` -> ``post_cutoff_comparisons``, ``clean_comparisons``, ...).
        roles: The model roles the task uses, with their documented defaults.
        demo_arg: The task argument that points it at its data (the demo writes there).
    """

    task: str
    headline: str
    items: ItemsOf | None = None
    undated_reason: str | None = None
    probes: bool = False
    post_cutoff_count: str = "post_cutoff_samples"
    unrecognized_count: str = "unrecognized_samples"
    clean_count: str = "clean_items"
    subset_counts: tuple[str, ...] = ()
    roles: tuple[RoleSpec, ...] = ()
    demo_arg: str | None = "data_path"

    def __post_init__(self) -> None:
        if self.items is None and not self.undated_reason:
            raise ValueError(f"{self.task}: an undated task declares why (undated_reason)")

    @property
    def dated(self) -> bool:
        """Whether the task's items carry dates (so it has post-cutoff and clean twins)."""
        return self.items is not None

    def shown(self, metadata: Mapping[str, Any]) -> list[ShownItem]:
        """The items a sample shows (none for an undated task)."""
        return list(self.items(metadata)) if self.items is not None else []


_DECLARED: dict[str, RecallControl] = {}
# The module that imports every task (and so every declaration).
_TASKS_MODULE = "research_taste_evals._registry"


def declare(control: RecallControl) -> RecallControl:
    """Register a family's declaration (a module constant) and return it."""
    _DECLARED[control.task] = control
    return control


def declarations() -> dict[str, RecallControl]:
    """Every task's declaration, by task name."""
    importlib.import_module(_TASKS_MODULE)
    return dict(_DECLARED)


def declaration(task: str) -> RecallControl:
    """The declaration of the task registered as ``task``.

    Raises:
        KeyError: no task of that name declares recall control.
    """
    if task not in _DECLARED:
        importlib.import_module(_TASKS_MODULE)
    if task not in _DECLARED:
        raise KeyError(f"no task named '{task}'; tasks: {', '.join(sorted(_DECLARED))}")
    return _DECLARED[task]


# What the functions below read (a family not yet moved to its specs.py declares a RecallControl).
Declared = TaskSpec | RecallControl


def shown_items(control: Declared, metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The items a sample shows (none for an undated task)."""
    return list(control.items(metadata)) if control.items is not None else []


def recall_solvers(
    control: Declared,
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


def recall_fields(control: Declared, state: TaskState) -> dict[str, Any]:
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
