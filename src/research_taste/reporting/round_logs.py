"""A report's round logs: counted under the Rounds section and bundled, not excluded.

``runs.read_runs`` sets every round log aside from the leaderboards (``runs.ROUND_REASON``). Of
those, the scored logs (``round score``'s ``*-scored-<labels version>.eval``) and the judgment
logs they were scored from make the Rounds section (``rounds.py``): the report's header counts
them there, and the viewer bundle holds them. A judgment log with no scored copy is in no table,
so it stays among the excluded logs, with the command that scores it as its reason.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from research_taste.reporting.runs import ROUND_REASON, Excluded
from research_taste.rounds.score import scored_parts

UNSCORED = (
    "a round's judgment with no scored log yet: after `research-taste round resolve {round}`, "
    "run `research-taste round score {round} --log-dir {log_dir}` (docs/rounds.md)"
)


def _shown(location: str, placeholder: str) -> str:
    """``location`` as a command names it, when it is a relative local path (an absolute path or
    a bucket would name the machine's folders in a published file: the placeholder then)."""
    relative = location and not Path(location).is_absolute() and "://" not in location
    return shlex.quote(location) if relative else placeholder


def unscored_reason(entry: Excluded, log_dir: str | None) -> str:
    """The command that scores an unscored judgment, with its round and log folder filled in
    where they are known and safe to publish."""
    return UNSCORED.format(
        round=_shown(entry.round_folder, "<round>"), log_dir=_shown(log_dir or "", "<log dir>")
    )


@dataclass(frozen=True)
class RoundLogs:
    """The round logs the Rounds section reads: judgment logs and their scored copies."""

    judgments: list[Excluded]
    scored: list[Excluded]

    @property
    def logs(self) -> list[Excluded]:
        return [*self.judgments, *self.scored]


def _name(entry: Excluded) -> str:
    return entry.log.rsplit("/", 1)[-1]


def split_round_logs(
    excluded: list[Excluded], log_dir: str | None = None
) -> tuple[RoundLogs, list[Excluded]]:
    """(the round logs of the Rounds section, the logs still excluded: module docstring); an
    unscored judgment's reason names its round and ``log_dir`` (:func:`unscored_reason`)."""
    rounds = [entry for entry in excluded if entry.reason == ROUND_REASON]
    others = [entry for entry in excluded if entry.reason != ROUND_REASON]
    scored = [entry for entry in rounds if scored_parts(_name(entry)) is not None]
    stems = {parts[0] for entry in scored if (parts := scored_parts(_name(entry)))}
    judgments: list[Excluded] = []
    unscored: list[Excluded] = []
    for entry in rounds:
        if scored_parts(_name(entry)) is None:
            stem = _name(entry).rsplit(".", 1)[0]
            (judgments if stem in stems else unscored).append(entry)
    others += [replace(entry, reason=unscored_reason(entry, log_dir)) for entry in unscored]
    return RoundLogs(judgments, scored), others
