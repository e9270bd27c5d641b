"""One declaration per task: what every reader of a task needs, stated once, as plain data.

Each family folder's ``specs.py`` holds one :class:`TaskSpec` per task it exports (a module
constant, imported where it is used) and lists them in ``SPECS``; ``core/families.py`` collects
them by folder (:func:`~research_taste_evals.core.families.task_specs`). A spec states:

- the task's name and the **figures its log holds** (``first_group``: its one score group, at
  most 30, ``core/task_metric.py``), the first of them the headline
  (``Task(headline_metric=...)``, the report's first column), one list or one per configuration
  (``configuration`` names the task argument that picks it); every figure the report, the docs
  and the tests read is in it;
- the report's further headline columns, its controlled headline (the headline on clean items,
  :class:`Controlled`) and the argument values with a headline of their own (:class:`Variant`);
- the data argument (what ``-T <data_arg>=demo`` and a sweep's ``<data_arg>: demo`` name);
- the model roles it reads besides the evaluated model (what a sweep may bind);
- whether its items are dated (``items`` reads them from sample metadata) or why not, whether
  it probes recognition and the names of its recall counts (``core/recall_control.py``);
- for a task that judges a round (``docs/rounds.md``), its round support (:class:`RoundSupport`:
  the re-scoring scorer, the older task names whose round logs it scores, the report's table).

The family's ``eval.yaml`` keeps the inspect_evals listing metadata and the prose: the metric
meanings, the paper's numbers. This module imports nothing beyond the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RECOGNITION_FIGURES", "Controlled", "RoleSpec", "RoundSupport", "TaskSpec", "Variant"]


@dataclass(frozen=True)
class RoleSpec:
    """A role: the model(s) a task argument (``parameter``) gives, the default (a model,
    ``EVALUATED_MODEL``, or None: required, unless the argument ``waived_by`` is true) and the
    sentence when it is missing."""

    role: str
    explicit: str | Sequence[str] | None = None
    default: str | None = None
    parameter: str | None = None
    missing: str | None = None
    waived_by: str | None = None


@dataclass(frozen=True)
class Controlled:
    """The controlled headline: the headline's ``_clean`` twin, the count behind it (``n``)
    and the least count worth ranking by (``floor``; reporting/controlled.py)."""

    floor: int
    n: str = "clean_items"


@dataclass(frozen=True)
class Variant:
    """Runs whose task arguments hold ``when`` report the ``configuration``'s headline (its
    figure list's first figure) and ``columns``, ranked in a table of their own."""

    when: tuple[tuple[str, str], ...]
    configuration: str
    columns: tuple[str, ...] = ()
    controlled: Controlled | None = None


@dataclass(frozen=True)
class RoundSupport:
    """How ``research-taste round score`` and the report's Rounds section read a round task's
    logs (plain data, so that the tooling finds it through the collected specs and names no
    family).

    Attributes:
        scorer: ``module:function`` of the re-scoring scorer factory; it takes ``labels`` (a
            labels CSV) and the judgment's own scorer options.
        registered_scorer: The scorer's registered name (``inspect score --scorer``).
        caption: The report table's caption.
        columns: The report's columns after model, round, judged at and labels as of:
            ``(header, metric)``; a metric whose ``_ci_low``/``_ci_high`` the log holds is shown
            with its interval.
        judged_by: Older task names whose round judgments this task's support scores (logs
            made before the round task existed judged a round through its family's task).
        requires: A ``round.json`` key a round must hold for this task to judge it (e.g. the
            sha256 of per-paper records only some rounds freeze), or None.
        hint: Further ``-T`` arguments of the judging command ``round open`` prints, with
            ``<placeholders>`` a user fills (e.g. a model the task cannot default offline).
    """

    scorer: str
    registered_scorer: str
    caption: str
    columns: tuple[tuple[str, str], ...]
    judged_by: tuple[str, ...] = ()
    requires: str | None = None
    hint: str = ""


# The recall-control figures a dated task logs beside its headline's clean twin and its n (the
# report's recognition columns and the reasons it gives for a missing controlled figure read
# them: research_taste/reporting/recognition.py, controlled.py).
RECOGNITION_FIGURES = (
    "recognized_rate",
    "estimated_cutoff",
    "post_cutoff_recognized",
    "clean_cutoff",
    "probed_items",
    "estimated_cutoff_items",
)

# Sample metadata -> the items it shows, each a ``core.recall_control.ShownItem`` (typed there:
# this module imports nothing of the package, so that every module may import it).
ItemsOf = Callable[[Mapping[str, Any]], Sequence[Any]]
FirstGroup = tuple[str, ...] | Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class TaskSpec:
    """Everything about one task that more than one module reads, declared once.

    Attributes:
        task: The task's registered name.
        first_group: The figures the log holds, its one score group, in order (the headline
            first; ``name/*``: one per group of the data): one tuple, or a mapping from
            configuration to its tuple (the first key is the default).
        configuration: The task argument whose value picks the figure list (a mapping only).
        columns: The report's headline columns after the headline.
        controlled: The controlled headline (dated tasks), or None.
        variants: Argument values whose runs have a headline (and table) of their own.
        data_arg: The task argument that points it at its data, or None (it ships its data).
        roles: The model roles the task reads, with their documented defaults.
        items: Sample metadata -> the items it shows with ids and dates; None when undated.
        undated_reason: Why the task's items carry no dates (required when ``items`` is None).
        probes: Whether the task runs the recognition probe (its ``recall_probe`` argument).
        post_cutoff_count: Name of the post-cutoff twin's count (kept from older logs).
        unrecognized_count: Name of the unrecognised twin's count.
        clean_count: Name of the clean twin's count (``clean_items``, the contract's name).
        subset_counts: Further counts the statistic returns, logged per subset.
        rounds: Round support (:class:`RoundSupport`) of a task that judges a round, else None.
    """

    task: str
    first_group: FirstGroup
    configuration: str | None = None
    columns: tuple[str, ...] = ()
    controlled: Controlled | None = None
    variants: tuple[Variant, ...] = ()
    data_arg: str | None = "data_path"
    roles: tuple[RoleSpec, ...] = ()
    items: ItemsOf | None = None
    undated_reason: str | None = None
    probes: bool = False
    post_cutoff_count: str = "post_cutoff_samples"
    unrecognized_count: str = "unrecognized_samples"
    clean_count: str = "clean_items"
    subset_counts: tuple[str, ...] = ()
    rounds: RoundSupport | None = None

    def __post_init__(self) -> None:
        if self.items is None and not self.undated_reason:
            raise ValueError(f"{self.task}: an undated task declares why (undated_reason)")
        if isinstance(self.first_group, Mapping) != (self.configuration is not None):
            raise ValueError(
                f"{self.task}: a figure list per configuration names the task argument that "
                "picks it (configuration), and only then"
            )
        groups = self.configurations() or (None,)
        if not all(self.first_names(key) for key in groups):
            raise ValueError(f"{self.task}: every figure list names at least the headline")

    def configurations(self) -> tuple[str, ...]:
        """The configurations with a figure list of their own (none: one list)."""
        return tuple(self.first_group) if isinstance(self.first_group, Mapping) else ()

    def first_names(self, configuration: str | None = None) -> tuple[str, ...]:
        """The figures the log of ``configuration`` holds (None: the default one)."""
        if not isinstance(self.first_group, Mapping):
            return self.first_group
        return self.first_group[configuration or next(iter(self.first_group))]

    def headline_of(self, configuration: str | None = None) -> str:
        """The headline of ``configuration``: its figure list's first figure."""
        return self.first_names(configuration)[0]

    @property
    def headline(self) -> str:
        """The task's headline (the default configuration's); twins are ``<headline>_<subset>``."""
        return self.headline_of()

    @property
    def headline_metrics(self) -> tuple[str, ...]:
        """The report's headline columns: the headline, then ``columns``."""
        return (self.headline, *self.columns)

    @property
    def dated(self) -> bool:
        """Whether the task's items carry dates (so it has post-cutoff and clean twins)."""
        return self.items is not None
