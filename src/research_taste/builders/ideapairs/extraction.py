"""The builder's extraction step, run through Inspect: idea texts and research goals.

One sample per idea that has a paper text and per leaderboard that has a description. The
``extractor`` model role writes them (default: the eval's ``--model``), with Inspect's
generation cache on, so a re-run of the builder costs nothing. Every extracted text is checked
for leaks before use: the leaderboard's reported numbers, any percentage or year, the method's
own name, its authors' surnames and its paper's title. A leaking text is withheld (the record
falls back to the method name and title, and says so) and listed in the build report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import Model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import Solver, TaskState

from research_taste.builders.ideapairs.boards import Leaderboard, parse_cell
from research_taste.builders.ideapairs.pairing import PlannedPair, clean_method
from research_taste.builders.ideapairs.scoring import ScoredBoard
from research_taste.builders.ideapairs.splitting import paper_file_stem
from research_taste_evals.core.leaks import find_leaks
from research_taste_evals.core.solvers import generate_with_role
from research_taste_evals.core.stats import NAN
from research_taste_evals.core.text import fill_template
from research_taste_evals.ideapairs.prompts import EXTRACT_GOAL_PROMPT, EXTRACT_IDEA_PROMPT

EXTRACTOR_ROLE = "extractor"
EXTRACT_VERSION = "1-A"
_AUTHOR = re.compile(r"\(([A-Z][\w'\-]+)(?: et al\.| and [A-Z][\w'\-]+)?,\s*(?:19|20)\d\d")


@dataclass(frozen=True)
class IdeaSource:
    """An idea to extract: its id, the leaderboard facts the leak check needs, the paper text."""

    idea_id: str
    method: str
    clean_method: str
    title: str
    paper: str
    numbers: tuple[str, ...]


@dataclass(frozen=True)
class GoalSource:
    """A research goal to extract from a leaderboard's description."""

    board_id: str
    task: str
    dataset: str
    metrics: str
    description: str
    numbers: tuple[str, ...]


@dataclass
class Extracted:
    """Texts that passed, and what was withheld or failed (for the report)."""

    ideas: dict[str, str] = field(default_factory=dict)
    goals: dict[str, str] = field(default_factory=dict)
    withheld: list[dict[str, object]] = field(default_factory=list)
    failed: list[dict[str, object]] = field(default_factory=list)


def number_forms(value: float) -> set[str]:
    """Ways a reported number may be written: 86.6 -> {"86.6", "86.60"}; 4.0 -> {"4.0"}."""
    forms = {f"{value:g}", f"{value:.1f}", f"{value:.2f}"}
    # A bare small integer ("4 layers") is too common to be evidence of a leaked result.
    return {form for form in forms if "." in form or abs(value) >= 10}


def idea_names(source: IdeaSource) -> tuple[str, ...]:
    """The method's own name, its authors' surnames and its paper's title."""
    authors = tuple(_AUTHOR.findall(source.method))
    return tuple(n for n in (source.clean_method, source.title, *authors) if n)


def parse_tagged(text: str, tag: str) -> str | None:
    """The stripped content of the last ``<tag>...</tag>``, or None."""
    found = re.findall(rf"<{tag}>(.*?)</{tag}>", text, re.DOTALL)
    content = found[-1].strip() if found else ""
    return content or None


def extract_with_role() -> Solver:
    """Generate with the ``extractor`` role (default: the task's model), cached."""
    return generate_with_role(EXTRACTOR_ROLE)


@metric
def withheld_rate() -> Metric:
    """Share of extractions withheld for a leak."""

    def compute(scores: list[SampleScore]) -> Value:
        flags = [1.0 if (s.score.metadata or {}).get("leaks") else 0.0 for s in scores]
        return sum(flags) / len(flags) if flags else NAN

    return compute


@scorer(metrics=[withheld_rate()])
def extraction_check() -> Scorer:
    """1 when the reply holds a clean text in its tags; 0 with the reason otherwise."""

    async def score(state: TaskState, target: Target) -> Score:
        kind = state.metadata["kind"]
        text = parse_tagged(state.output.completion, kind)
        if text is None:
            return Score(
                value=0, answer="", explanation=f"no <{kind}> tags", metadata={"leaks": []}
            )
        names = tuple(state.metadata["names"])
        leaks = find_leaks(text, tuple(state.metadata["numbers"]), names, years=kind == "idea")
        return Score(
            value=0 if leaks else 1,
            answer="" if leaks else text,
            explanation="; ".join(leaks) or None,
            metadata={"leaks": leaks, "text": text},
        )

    return score


def extraction_samples(ideas: list[IdeaSource], goals: list[GoalSource]) -> list[Sample]:
    """One sample per idea and per goal, ids ``idea-<id>`` / ``goal-<board id>``."""
    samples = [
        Sample(
            id=f"idea-{s.idea_id}",
            input=fill_template(
                EXTRACT_IDEA_PROMPT, method=s.clean_method, title=s.title, paper=s.paper
            ),
            metadata={
                "kind": "idea",
                "key": s.idea_id,
                "numbers": list(s.numbers),
                "names": list(idea_names(s)),
            },
        )
        for s in ideas
    ]
    samples += [
        Sample(
            id=f"goal-{g.board_id}",
            input=fill_template(
                EXTRACT_GOAL_PROMPT,
                task=g.task,
                dataset=g.dataset,
                metrics=g.metrics,
                description=g.description,
            ),
            metadata={"kind": "goal", "key": g.board_id, "numbers": list(g.numbers), "names": []},
        )
        for g in goals
    ]
    return samples


def extraction_task(samples: list[Sample]) -> Task:
    """Idea-pair builder extraction: idea texts from papers, research goals from descriptions.

    A plain function rather than a registered @task: its input is the builder's in-memory
    sample list, which is not a task argument a user could type.
    """
    return Task(
        name="ideapairs_extract",
        dataset=MemoryDataset(samples=samples, name="ideapairs-extract", shuffled=False),
        solver=extract_with_role(),
        scorer=extraction_check(),
        version=EXTRACT_VERSION,
    )


def collect(log: EvalLog) -> Extracted:
    """The texts of an extraction log, split into usable, withheld (leak) and failed."""
    result = Extracted()
    for sample in log.samples or []:
        metadata = sample.metadata or {}
        score = next(iter((sample.scores or {}).values()), None)
        kind, key = metadata.get("kind"), str(metadata.get("key"))
        details = (score.metadata or {}) if score is not None else {}
        if score is not None and score.answer:
            (result.ideas if kind == "idea" else result.goals)[key] = score.answer
        elif details.get("leaks"):
            result.withheld.append({"kind": kind, "id": key, "leaks": details["leaks"]})
        else:
            reason = (
                score.explanation
                if score is not None
                else (sample.error.message if sample.error else "no score")
            )
            result.failed.append({"kind": kind, "id": key, "reason": reason})
    return result


def run_extraction(
    ideas: list[IdeaSource], goals: list[GoalSource], model: str | Model, log_dir: str
) -> Extracted:
    """Extract every idea and goal with ``model`` as the extractor; raises if the run fails."""
    samples = extraction_samples(ideas, goals)
    if not samples:
        return Extracted()
    log = inspect_eval(
        extraction_task(samples),
        model=model,
        model_roles={EXTRACTOR_ROLE: model},
        log_dir=log_dir,
        display="none",
    )[0]
    if log.status != "success":
        raise RuntimeError(
            f"extraction run failed: {log.error.message if log.error else log.status}"
        )
    return collect(log)


def board_numbers(board: Leaderboard) -> tuple[str, ...]:
    """Every number on the board, in the forms a leaking text could quote it."""
    forms: set[str] = set()
    for entry in board.entries:
        for raw in entry.cells.values():
            status, value = parse_cell(raw)
            if status == "ok" and value is not None:
                forms |= number_forms(value)
    return tuple(sorted(forms))


def extract_pairs(
    pairs: list[PlannedPair],
    boards: list[ScoredBoard],
    papers: dict[str, str],
    model: str | Model,
    log_dir: str,
) -> tuple[Extracted, list[dict[str, str]]]:
    """Extract the ideas and goals the pairs use; list the ideas without a paper text."""
    ideas: dict[str, IdeaSource] = {}
    # Ideas without a paper text, by the file name their text would be read from.
    without_paper: dict[str, str] = {}
    for pair in pairs:
        numbers = board_numbers(pair.board.board)
        for index in (pair.better, pair.worse):
            entry = pair.board.entries[index]
            key, stem = pair.board.idea_ids[index], paper_file_stem(pair.board.paper_keys[index])
            paper = papers.get(stem)
            if paper is None:
                without_paper[stem] = clean_method(entry.method)
            elif key not in ideas:
                ideas[key] = IdeaSource(
                    key, entry.method, clean_method(entry.method), entry.paper_title, paper, numbers
                )
    used = {pair.board.board.board_id for pair in pairs}
    goals = [
        GoalSource(
            b.board.board_id,
            b.board.task,
            b.board.dataset,
            ", ".join(b.columns),
            b.board.description,
            board_numbers(b.board),
        )
        for b in boards
        if b.board.board_id in used and b.board.description.strip()
    ]
    missing = [{"paper_file": stem, "method": m} for stem, m in sorted(without_paper.items())]
    return run_extraction(list(ideas.values()), goals, model, log_dir), missing
