"""``research-taste round cycle CONFIG``: one run of the fortnightly round cycle, safe to run
nightly from cron or CI (docs/rounds.md, "The cycle").

Each run, at ``now`` (default: the clock; ``--now`` for a replay or a test):

1. opens a round for each source that is due (``rounds/cycle_steps.py``);
2. judges every round still within its ``judge_by`` with the models of the cycle's sweep
   (``rounds/cycle_sweep.py``, run by ``cli/sweep.run_sweep``: Inspect's ``eval_set`` skips
   finished runs, and a sweep with none unfinished calls nothing);
3. resolves the rounds whose labels can still change, at most once a day;
4. scores their judgments (``round score``'s ``score_round``) with a labels version that
   changed something;
5. when anything above changed (or the report is missing), writes the report
   (``research-taste report``'s ``write_report``) and the publication;
6. ends with one line per round: what it did, and what is due when.

A step that fails on one round or source (a venue unreachable, a sweep entry that cannot be
built) is said on that round's line and the others go on; the run then exits 1.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from research_taste.reporting.round_publish import publish_rounds
from research_taste.rounds import cycle_steps as steps
from research_taste.rounds.cycle_config import CycleConfig
from research_taste.rounds.manifest import utc_now
from research_taste_evals.core.errors import UserError
from research_taste_evals.core.rounds import is_round


@dataclass
class RoundLine:
    """What the run did to one round (or source) and what is due when."""

    name: str
    did: list[str] = field(default_factory=list)
    due: list[str] = field(default_factory=list)
    failed: bool = False

    def text(self) -> str:
        did = "; ".join(self.did) or "nothing to do"
        due = ", ".join(self.due) or "nothing"
        return f"{self.name}: {did} | due: {due}"


@dataclass
class CycleRun:
    """One run's outcome: a line per round, and whether the report and publication were made."""

    lines: dict[str, RoundLine] = field(default_factory=dict)
    changed: bool = False
    notes: list[str] = field(default_factory=list)  # the report's and the publication's lines

    def line(self, name: str) -> RoundLine:
        return self.lines.setdefault(name, RoundLine(name))

    @property
    def failed(self) -> bool:
        return any(line.failed for line in self.lines.values())

    def text(self) -> str:
        return "\n".join([*self.notes, *(line.text() for line in self.lines.values())])


def publish(round_dirs: list[Path], log_dir: str, out: Path, now: dt.datetime) -> None:
    """Publish the rounds as a dataset (``research-taste round publish``) as at ``now``."""
    publish_rounds(round_dirs, log_dir, out, now=lambda: now)


def _fail(line: RoundLine, step: str, error: Exception) -> None:
    line.did.append(f"{step} failed: {error}")
    line.failed = True


def _open_due(config: CycleConfig, now: dt.datetime, run: CycleRun, pace: float | None) -> None:
    for source in config.sources:
        due = steps.next_open(config, source.name)
        if due is not None and due > now.date():
            continue
        name = str(steps.round_folder(config, source.name, now.date()))
        try:
            folder, manifest = steps.open_source(source, config, now, pace)
        except UserError as error:
            _fail(run.line(name), f"open of source {source.name}", error)
            continue
        run.changed = True
        run.line(str(folder)).did.append(
            f"opened ({manifest['items']} items, {manifest['pairs']} pairs)"
        )


def _judge(
    config: CycleConfig, rounds: list[Path], now: dt.datetime, run: CycleRun, display: str | None
) -> None:
    from research_taste.cli.sweep import plan, run_sweep, sweep_status
    from research_taste.rounds.cycle_sweep import cycle_sweep

    window = [f for f in rounds if (by := steps.judge_by(f)) is None or by > now]
    try:
        sweep = cycle_sweep(Path(config.sweep), config.log_dir, window)
        if sweep is None:
            return
        planned = plan(sweep)
        before = sweep_status(sweep, planned)
        outcome = before if before.success else run_sweep(sweep, display=display)
    except UserError as error:  # a round a task cannot be built on, named by its entry
        for folder in window:
            _fail(run.line(str(folder)), "judging", error)
        return
    for folder in window:
        mine = [
            (old, new)
            for run_, old, new in zip(planned, before.runs, outcome.runs, strict=True)
            if str(folder) in map(str, run_.args.values())
        ]
        ran = sum(not old.finished for old, _ in mine)
        done = sum(new.finished for _, new in mine)
        line = run.line(str(folder))
        if ran:
            run.changed = True
            line.did.append(f"judged: {done} of {len(mine)} runs complete ({ran} run now)")
        else:
            line.did.append(f"judging complete ({done} runs)")
        line.failed = line.failed or done < len(mine)


def _resolve_and_score(
    config: CycleConfig, rounds: list[Path], now: dt.datetime, run: CycleRun, pace: float | None
) -> None:
    from research_taste.rounds.score import score_round

    for folder in rounds:
        line = run.line(str(folder))
        reason = steps.resolve_reason(folder, config, now)
        if reason is None:
            try:
                entry = steps.resolve_round(folder, now, pace)
            except UserError as error:
                _fail(line, "resolve", error)
            else:
                line.did.append(
                    f"resolved {entry['file']} (labelled share {entry['labelled_share']}, "
                    f"{entry['pending_items']} pending)"
                )
                # a label changed: the publication's resolution sets are out of date
                run.changed = run.changed or steps.scoring_version(folder) == entry["version"]
        elif not reason.startswith("opened today"):
            line.did.append(f"not resolved: {reason}")
        version = steps.scoring_version(folder)
        if version is None or not Path(config.log_dir).is_dir():
            continue
        unreadable: list[str] = []
        try:
            scored = score_round(folder, config.log_dir, version, unreadable, say=lambda _: None)
        except UserError as error:
            _fail(line, "score", error)
            continue
        if scored:
            run.changed = True
            line.did.append(f"scored {len(scored)} judgments with labels {version}")
        for sentence in unreadable:
            _fail(line, "score", UserError(sentence))


def _report_and_publish(
    config: CycleConfig, rounds: list[Path], now: dt.datetime, run: CycleRun
) -> None:
    """The report, once a judgment is scored, and the publication, when this run changed
    something (or either is missing)."""
    from research_taste.reporting.report import write_report

    report, published = Path(config.report_dir), Path(config.publish_dir)
    scorable = any(steps.scoring_version(folder) for folder in rounds)
    if not scorable:
        run.notes.append("report: not yet (no round has a label to score its judgments with)")
    elif run.changed or not (report / "index.html").is_file():
        try:
            write_report(config.log_dir, report, bundle=config.report_viewer)
            run.notes.append(f"report: wrote {report}")
        except UserError as error:
            _fail(run.line("report"), "report", error)
    else:
        run.notes.append(f"report: {report} unchanged")
    if not rounds or not (run.changed or not published.is_dir()):
        run.notes.append(f"publication: {published} unchanged")
        return
    try:
        publish(rounds, config.log_dir, published, now)
    except UserError as error:
        _fail(run.line("publication"), "publication", error)
        return
    run.notes.append(f"publication: wrote {published}")


def _due(config: CycleConfig, rounds: list[Path], now: dt.datetime, run: CycleRun) -> None:
    tomorrow = (now + dt.timedelta(days=1)).date().isoformat()
    for folder in rounds:
        line = run.line(str(folder))
        by = steps.judge_by(folder)
        if by is not None and by > now:
            line.due.append(f"judge by {by.isoformat()}")
        reason = steps.resolve_reason(folder, config, now + dt.timedelta(days=1))
        if reason is None:
            line.due.append(f"next resolve {tomorrow}")
    for source in config.sources:
        newest = [f for f in steps.source_rounds(config, source.name) if is_round(f)]
        due = steps.next_open(config, source.name)
        late = due is None or due <= now.date()
        when = "next open now (its open failed)" if late else f"next open {due}"
        run.line(str(newest[-1]) if newest else f"source {source.name}").due.append(when)


def run_cycle(
    config: CycleConfig,
    now: dt.datetime | None = None,
    *,
    min_interval: float | None = None,
    display: str | None = None,
    say: Callable[[str], None] = print,
) -> CycleRun:
    """One run of the cycle at ``now`` (module docstring); ``min_interval`` paces the sources'
    clients (default: each source's own pacing); ``display`` is Inspect's while judging."""
    moment = (now or utc_now()).astimezone(dt.UTC)
    run = CycleRun()
    Path(config.rounds_dir).mkdir(parents=True, exist_ok=True)
    _open_due(config, moment, run, min_interval)
    rounds = sorted(f for f in Path(config.rounds_dir).iterdir() if is_round(f))
    _judge(config, rounds, moment, run, display)
    _resolve_and_score(config, rounds, moment, run, min_interval)
    _report_and_publish(config, rounds, moment, run)
    _due(config, rounds, moment, run)
    say(run.text())
    return run
