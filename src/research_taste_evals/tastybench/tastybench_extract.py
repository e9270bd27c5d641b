"""Extract each paper's core idea (from its abstract) or methods summary (from its full text).

The TastyBench post (Hao, Huang and Mahajan, 2025, "Experimental Set-Up" and "Results"): an
LLM extracts the "core idea" of each abstract in ``<idea>`` tags; for the summary
experiment, Claude Sonnet 4.5 wrote a 300-400 word methods summary of each full text in
``<summary>`` tags. ``tastybench_extract`` runs that step as an Inspect task (one sample per
paper, the ``extractor`` role, default: the ``--model``), with Inspect's generation cache on, so
re-running it for another judge sweep costs nothing. :func:`write_representations` turns the
log into the CSV the judge task reads back (``-T representations_path=``);
``research-taste tastybench-extract`` does both.

Sources: ``idea`` reads abstracts, from ``sources_path`` (CSV with ``paper_id,abstract``) or,
for the curated set, from upstream's ``llm_rl_yix_curate_with_ideas.csv``. ``summary`` reads
full texts from ``sources_path``: a folder of ``<paper_id>.txt``/``.md`` files or a CSV with
``paper_id,fulltext``. Papers without a source are left out and listed in the task metadata.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Literal

from inspect_ai import Task, task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.data import DataError, read_csv, resolve_data
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.stats import NAN
from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    PaperSet,
    locate,
)
from research_taste_evals.tastybench.prompts import (
    EXTRACT_IDEA,
    EXTRACT_IDEA_CURATED,
    SUMMARIZE_PAPER,
)
from research_taste_evals.tastybench.solvers import generate_as_extractor

ExtractKind = Literal["idea", "summary"]
IdeaPrompt = Literal["seed", "curated"]
# "N-X" (README changelog): 1-A is the 1.0.0 behaviour under the new numbering.
EXTRACT_VERSION = "1-A"
FULLTEXT_SUFFIXES = (".txt", ".md")
_PROMPTS = {("idea", "seed"): EXTRACT_IDEA, ("idea", "curated"): EXTRACT_IDEA_CURATED}


def parse_tagged(text: str, tag: str) -> str | None:
    """The stripped content of the first ``<tag>...</tag>`` (upstream's regex), or None."""
    match = re.search(rf"<{tag}>(.*?)</{tag}>", text, re.DOTALL)
    content = match.group(1).strip() if match else ""
    return content or None


def _sources_from_csv(path: Path, column: str) -> dict[str, str]:
    rows = read_csv(path)
    if rows and not {"paper_id", column} <= set(rows[0]):
        raise DataError(f"{path}: expected columns paper_id,{column} (got {sorted(rows[0])})")
    return {row["paper_id"]: row[column].strip() for row in rows if (row[column] or "").strip()}


def load_sources(
    paper_set: PaperSet, kind: ExtractKind, data_path: str | None, sources_path: str | None
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(paper_id, title, source text) per paper with a source, and the ids without one."""
    truth_path, _ = locate(PAPER_FILES[paper_set], data_path)
    titles = {row["paperId"]: row["title"] for row in read_csv(truth_path)}
    if sources_path is not None:
        path = resolve_data(None, sources_path).path
        if kind == "summary" and path.is_dir():
            sources = {
                file.stem: file.read_text(encoding="utf-8").strip()
                for file in sorted(path.iterdir())
                if file.suffix in FULLTEXT_SUFFIXES
            }
        else:
            sources = _sources_from_csv(path, "abstract" if kind == "idea" else "fulltext")
    elif kind == "idea" and IDEA_FILES[paper_set] is not None:
        pinned = IDEA_FILES[paper_set]
        assert pinned is not None
        sources = _sources_from_csv(locate(pinned, data_path)[0], "abstract")
    else:
        needed = "abstracts (CSV paper_id,abstract)" if kind == "idea" else "full texts"
        raise DataError(f"paper_set '{paper_set}' has no upstream {needed}: pass sources_path")
    found = [(pid, title, sources[pid]) for pid, title in titles.items() if sources.get(pid)]
    missing = [pid for pid in titles if not sources.get(pid)]
    return found, missing


@metric
def extraction_rate() -> Metric:
    """Share of papers whose reply had non-empty tags; the rest is ``unparsed_rate``.

    ``reasked_rate`` is 0: a reply without tags is not asked again.
    """

    def compute(scores: list[SampleScore]) -> Value:
        values = [float(score.score.as_float()) for score in scores]
        rate = sum(values) / len(values) if values else NAN
        return {
            "extraction_rate": rate,
            "unparsed_rate": 1.0 - rate,
            "reasked_rate": 0.0 if values else NAN,
        }

    return compute


@scorer(metrics=[extraction_rate()])
def extraction_scorer(kind: ExtractKind) -> Scorer:
    """1 when the reply holds the ``<idea>``/``<summary>`` text, 0 (counted, reported) when not."""

    async def score(state: TaskState, target: Target) -> Score:
        text = parse_tagged(state.output.completion, kind)
        return Score(
            value=0.0 if text is None else 1.0,
            answer=text or "",
            reason=INVALID_RESPONSE_FORMAT if text is None else None,
            explanation=f"no <{kind}> tags in the reply" if text is None else None,
        )

    return score


@task
def tastybench_extract(
    paper_set: PaperSet = "curated",
    kind: ExtractKind = "idea",
    idea_prompt: IdeaPrompt = "seed",
    data_path: str | None = None,
    sources_path: str | None = None,
) -> Task:
    """TastyBench extraction: a paper's core idea (from its abstract) or methods summary.

    Args:
        paper_set: ``curated`` or ``full``.
        kind: ``idea`` (the blog post's "Extract core idea" prompt) or ``summary`` (its
            "Summary generation prompt").
        idea_prompt: ``seed`` (the blog post's prompt, "about a paragraph") or ``curated``
            (upstream's ``prompts/curated/extract_idea.md``, "a
            couple of sentances", which produced the shipped ideas).
        data_path: Local directory with the upstream files (default: pinned download).
        sources_path: Abstracts CSV (``paper_id,abstract``) for ideas; full texts (folder of
            ``<paper_id>.txt`` or CSV ``paper_id,fulltext``) for summaries.
    """
    if kind not in ("idea", "summary"):
        raise ValueError(f"kind must be 'idea' or 'summary', got {kind!r}")
    if idea_prompt not in ("seed", "curated"):
        raise ValueError(f"idea_prompt must be 'seed' or 'curated', got {idea_prompt!r}")
    found, missing = load_sources(paper_set, kind, data_path, sources_path)
    template = _PROMPTS[(kind, idea_prompt)] if kind == "idea" else SUMMARIZE_PAPER
    field = "abstract" if kind == "idea" else "fulltext"
    samples = [
        Sample(
            id=paper_id,
            input=fill_template(template, **{field: source}),
            metadata={
                "paper_id": paper_id,
                "title": title,
                "kind": kind,
                "abstract": source if kind == "idea" else None,
            },
        )
        for paper_id, title, source in found
    ]
    return Task(
        dataset=MemoryDataset(samples=samples, name=f"tastybench-extract-{kind}", shuffled=False),
        solver=generate_as_extractor(),
        scorer=extraction_scorer(kind),
        version=EXTRACT_VERSION,
        metadata={
            "benchmark": "TastyBench extraction",
            "paper_set": paper_set,
            "kind": kind,
            "idea_prompt": idea_prompt if kind == "idea" else None,
            "papers_without_source": missing,
        },
    )


def write_representations(log: EvalLog, output: str | Path) -> tuple[int, list[str]]:
    """Write an extraction log's texts as a representations CSV.

    Columns: ``paper_id,title,abstract,idea`` (upstream's ``*_with_ideas.csv`` layout) or
    ``paper_id,title,summary``. A paper whose reply had no tags gets an empty text (the judge
    task leaves it out and lists it in its metadata).

    Returns:
        (papers written with a text, ids of papers without one).
    """
    samples = log.samples or []
    kind = str((samples[0].metadata or {}).get("kind", "idea")) if samples else "idea"
    columns = ["paper_id", "title"] + (["abstract", "idea"] if kind == "idea" else ["summary"])
    rows, failed = [], []
    for sample in samples:
        metadata = sample.metadata or {}
        score = next(iter((sample.scores or {}).values()), None)
        text = score.answer if score is not None and score.answer else ""
        if not text:
            failed.append(str(metadata.get("paper_id", sample.id)))
        row = {"paper_id": metadata.get("paper_id", sample.id), "title": metadata.get("title", "")}
        row.update({"abstract": metadata.get("abstract") or ""} if kind == "idea" else {})
        row[kind] = text
        rows.append(row)
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows) - len(failed), failed


def run_extraction(
    model: str,
    output: str | Path,
    log_dir: str = "logs",
    **task_args: str | None,
) -> tuple[EvalLog, int, list[str]]:
    """Run ``tastybench_extract`` with ``model`` as the extractor and write ``output``."""
    log = inspect_eval(
        tastybench_extract(**task_args),  # type: ignore[arg-type]
        model=model,
        log_dir=log_dir,
        display="none",
    )[0]
    if log.status != "success":
        message = log.error.message if log.error else log.status
        raise RuntimeError(f"extraction run failed: {message}")
    written, failed = write_representations(log, output)
    return log, written, failed
