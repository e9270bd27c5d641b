"""The evaluated model's knowledge cutoff, read at run time, and per-sample ``post_cutoff``.

Under the Python API and in sweeps the model is not known when a task is built, so the cutoff
is read when the task runs, from the model actually evaluated:

1. ``-T knowledge_cutoff=YYYY-MM`` or a quoted day (source ``task_arg``), checked at task build
   (:func:`parse_cutoff_arg`: one ``ConfigError`` sentence on a bad date);
2. else Inspect's model database, ``inspect_ai.model.get_model_info(model)``, given the active
   ``Model`` (so only its canonical name is looked up, no provider is instantiated; source
   ``model_info``). Inspect matches names loosely (case, ``_``/``-``, version suffixes, and a
   substring match scored by overlap), so the entry it matched (organisation, display name,
   snapshot) is recorded beside the date;
3. else none (source ``none``): the post-cutoff twins are NaN and one warning line per task
   run says how to set a cutoff. Offline and scripted providers (``baseline/``, ``local/``,
   ``mockllm/``) are never looked up: their names say nothing about what the weights saw.

A family builds one :class:`CutoffReader` per task, chains :func:`record_cutoff` (or calls
:meth:`CutoffReader.read` in its own solver) and lets its scorer copy
:func:`cutoff_fields` into ``Score.metadata``. ``core/recall_metrics.py`` reads them back.
"""

from __future__ import annotations

import calendar
import datetime as dt
import logging
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from inspect_ai.model import Model, get_model, get_model_info
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.dates import ItemDate, post_cutoff
from research_taste_evals.core.errors import ConfigError

logger = logging.getLogger(__name__)

CutoffSource = Literal["task_arg", "model_info", "none"]
CUTOFF_ARG = "knowledge_cutoff"
# state.metadata key of the run's cutoff (a dict: KnowledgeCutoff as metadata).
CUTOFF_KEY = "knowledge_cutoff"
# Providers whose model names are not a model's identity: never looked up.
UNLOOKED_PROVIDERS = ("baseline", "local", "mockllm")
HOW_TO_SET = (
    "set one with -T knowledge_cutoff=YYYY-MM (through that month's end), or from Python with "
    "inspect_ai.model.set_model_info(<model>, ModelInfo(knowledge_cutoff_date=...))"
)


@dataclass(frozen=True)
class KnowledgeCutoff:
    """The cutoff used for one model in one run, where it came from and what it matched."""

    model: str
    date: dt.date | None
    source: CutoffSource
    matched_entry: str | None = None

    def as_metadata(self) -> dict[str, Any]:
        """JSON-ready fields (the date as ``YYYY-MM-DD`` or None)."""
        fields = asdict(self)
        fields["date"] = self.date.isoformat() if self.date else None
        return fields

    @staticmethod
    def from_metadata(fields: dict[str, Any] | None) -> KnowledgeCutoff | None:
        """The inverse of :meth:`as_metadata` (None for missing fields)."""
        if not fields:
            return None
        date = fields.get("date")
        return KnowledgeCutoff(
            model=str(fields.get("model", "")),
            date=dt.date.fromisoformat(date) if date else None,
            source=fields.get("source", "none"),
            matched_entry=fields.get("matched_entry"),
        )


# The earliest cutoff accepted: before it no model of this package's interest was trained.
EARLIEST_CUTOFF = dt.date(1990, 1, 1)
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SURVIVING_FORMS = (
    "-T knowledge_cutoff=2024-12 (through the end of that month) or the quoted day "
    "-T \"knowledge_cutoff='2024-12-31'\""
)


def parse_cutoff_arg(value: object, task: str) -> dt.date | None:
    """The ``-T knowledge_cutoff`` argument as a date (None when not given).

    Accepted: a ``YYYY-MM`` string, meaning through the end of that month (its last day is
    returned), or a ``YYYY-MM-DD`` string. Refused: a ``datetime.date``, which is what
    Inspect's YAML parse makes of an unquoted ``-T knowledge_cutoff=2024-12-31``: Inspect then
    records the argument by its type name, ``date`` (``inspect_ai/_util/registry.py``,
    ``registry_params``), and ``inspect eval-retry`` and the reports cannot read it back.
    ``YYYY-MM`` is a string to YAML, so it survives unquoted. A cutoff after today (for
    ``YYYY-MM``: a month after the current one) or before 1990 is refused.

    Raises:
        ConfigError: one sentence naming the argument and the forms that survive.
    """
    if value is None or value == "":
        return None
    where = f"{task}: argument '{CUTOFF_ARG}'"
    if isinstance(value, dt.date):  # datetime.datetime is a date too
        day = value.date() if isinstance(value, dt.datetime) else value
        raise ConfigError(
            f"{where} got the date {day.isoformat()} (an unquoted day, which Inspect logs as "
            f"'date' so the run cannot be retried or reported); give {SURVIVING_FORMS}."
        )
    text = str(value).strip()
    month = _MONTH.match(text)
    if not (month or _DAY.match(text)):
        raise ConfigError(f"{where} got {value!r}; give {SURVIVING_FORMS}.")
    try:
        if month:
            year, number = int(month.group(1)), int(month.group(2))
            first = dt.date(year, number, 1)
            date = dt.date(year, number, calendar.monthrange(year, number)[1])
        else:
            first = date = dt.date.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"{where} got {text!r}, which is not a real date.") from None
    today = dt.date.today()
    if first > today or date < EARLIEST_CUTOFF:
        raise ConfigError(
            f"{where} got {text!r}, which is {'after today' if first > today else 'before 1990'}"
            "; a knowledge cutoff lies between 1990 and today."
        )
    return date


def model_info_entry(info: Any) -> str:
    """How a model-info entry is named in logs: organisation, display name, snapshot."""
    parts = [info.organization, info.model, info.snapshot]
    return " / ".join(str(part) for part in parts if part) or "unnamed entry"


def cutoff_from_model_info(model: Model) -> KnowledgeCutoff:
    """The cutoff Inspect's model database gives ``model`` (source ``none`` when it has none)."""
    name = str(model)
    if name.split("/", 1)[0] in UNLOOKED_PROVIDERS:
        return KnowledgeCutoff(model=name, date=None, source="none")
    info = get_model_info(model)
    if info is None or info.knowledge_cutoff_date is None:
        entry = None if info is None else model_info_entry(info)
        return KnowledgeCutoff(model=name, date=None, source="none", matched_entry=entry)
    date = info.knowledge_cutoff_date
    day = date.date() if isinstance(date, dt.datetime) else date
    return KnowledgeCutoff(
        model=name, date=day, source="model_info", matched_entry=model_info_entry(info)
    )


class CutoffReader:
    """Reads each evaluated model's cutoff once per task and warns once when there is none.

    Build one per task (at task build, with the validated ``-T knowledge_cutoff``); its
    :meth:`read` runs at solve time, when the model is known.
    """

    def __init__(self, task: str, task_arg: dt.date | None) -> None:
        self.task = task
        self.task_arg = task_arg
        self._read: dict[str, KnowledgeCutoff] = {}

    def read(self, model: Model | None = None) -> KnowledgeCutoff:
        """The cutoff for ``model`` (default: the active model of the running sample)."""
        model = model or get_model()
        name = str(model)
        if name not in self._read:
            if self.task_arg is not None:
                found = KnowledgeCutoff(model=name, date=self.task_arg, source="task_arg")
            else:
                found = cutoff_from_model_info(model)
            self._read[name] = found
            self._log(found)
        return self._read[name]

    def _log(self, found: KnowledgeCutoff) -> None:
        if found.date is None:
            logger.warning(
                "%s: no knowledge cutoff known for %s: the post-cutoff metrics are NaN; %s",
                self.task,
                found.model,
                HOW_TO_SET,
            )
            return
        entry = f" (model-info entry: {found.matched_entry})" if found.matched_entry else ""
        logger.info(
            "%s: knowledge cutoff of %s: %s from %s%s",
            self.task,
            found.model,
            found.date.isoformat(),
            found.source,
            entry,
        )


@solver
def record_cutoff(reader: CutoffReader) -> Solver:
    """Put the evaluated model's cutoff into ``state.metadata["knowledge_cutoff"]``."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.metadata[CUTOFF_KEY] = reader.read().as_metadata()
        return state

    return solve


def state_cutoff(state: TaskState) -> KnowledgeCutoff | None:
    """The cutoff :func:`record_cutoff` stored for this sample, or None."""
    return KnowledgeCutoff.from_metadata(state.metadata.get(CUTOFF_KEY))


def cutoff_fields(
    cutoff: KnowledgeCutoff | None, dates: Iterable[ItemDate | None]
) -> dict[str, Any]:
    """``Score.metadata`` fields: the cutoff, its source and entry, and ``post_cutoff``.

    ``post_cutoff`` is True when every item the sample shows was published after the cutoff,
    False when one was not, None when the cutoff or a date is unknown.
    """
    date = cutoff.date if cutoff else None
    return {
        "knowledge_cutoff": date.isoformat() if date else None,
        "cutoff_source": cutoff.source if cutoff else "none",
        "cutoff_entry": cutoff.matched_entry if cutoff else None,
        "post_cutoff": post_cutoff(dates, date),
    }
