"""Extract each paper's core idea (from its abstract) or methods summary (from its full text).

The TastyBench post (Hao, Huang and Mahajan, 2025, "Experimental Set-Up" and "Results"): an
LLM extracts the "core idea" of each abstract in ``<idea>`` tags; for the summary
experiment, Claude Sonnet 4.5 wrote a 300-400 word methods summary of each full text in
``<summary>`` tags. ``tastybench_extract`` runs that step as an Inspect task (one sample per
paper, the ``extractor`` role, default: the ``--model``), with Inspect's generation cache on, so
re-running it for another judge sweep costs nothing. ``research-taste tastybench-extract``
(``cli/tastybench.py``) runs it and writes the CSV the judge task reads back
(``-T representations_path=``).

Sources: ``idea`` reads abstracts, from ``sources_path`` (CSV with ``paper_id,abstract``) or,
for the curated set, from upstream's ``llm_rl_yix_curate_with_ideas.csv``. ``summary`` reads
full texts from ``sources_path``: a folder of ``<paper_id>.txt``/``.md`` files or a CSV with
``paper_id,fulltext``. Papers without a source are left out and listed in the task metadata.

``-T anonymize=true`` (ours) asks for a text that names no method, model, author or system and
checks each reply with the one leak check (``core.leaks``: the title, the method name before
its colon, coined names): a text that names its paper is withheld (empty in the CSV, counted
by ``withheld_rate``), so the judge task never shows it.
The papers come from ``dataset.py`` (or ``built_set.py``); this module reads each paper's
source text (its abstract for an idea, its full text for a summary), builds the
one-sample-per-paper dataset, and scores each reply (:func:`extraction_scorer`, its metric
:func:`extraction_rate`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.data import DataError, read_csv, resolve_data
from research_taste_evals.core.leaks import name_leaks, title_names
from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.solvers import generate_with_role
from research_taste_evals.core.stats import NAN
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.built_set import built_titles_and_abstracts, is_built_set
from research_taste_evals.tastybench.choice import EXTRACTOR_ROLE
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    UPSTREAM_COMMIT,
    PaperSet,
    locate,
)
from research_taste_evals.tastybench.prompts import (
    EXTRACT_IDEA,
    EXTRACT_IDEA_CURATED,
    SUMMARIZE_PAPER,
    anonymized,
)
from research_taste_evals.tastybench.specs import TASTYBENCH_EXTRACT

__all__ = ["tastybench_extract"]
# Which text each paper's extraction reads, and which upstream idea prompt.
ExtractKind = Literal["idea", "summary"]
IdeaPrompt = Literal["seed", "curated"]
_PROMPTS = {("idea", "seed"): EXTRACT_IDEA, ("idea", "curated"): EXTRACT_IDEA_CURATED}


@task
@task_entry()
def tastybench_extract(
    paper_set: PaperSet = "curated",
    kind: ExtractKind = "idea",
    idea_prompt: IdeaPrompt = "seed",
    data_path: str | None = None,
    sources_path: str | None = None,
    anonymize: bool = False,
) -> Task:
    """TastyBench extraction: a paper's core idea (from its abstract) or methods summary.

    Args:
        paper_set (Literal['curated', 'full']): 37-paper curated ground truth, or the
            97-paper list (needs ``representations_path``). Defaults to ``'curated'``.
        kind (Literal['idea', 'summary']): ``idea`` (a research idea from each paper's
            abstract) or ``summary`` (a summary of its full text). Defaults to ``'idea'``.
        idea_prompt (Literal['seed', 'curated']): Which upstream idea prompt (``kind=idea``
            only). Defaults to ``'seed'``.
        data_path (str | None): A folder in the upstream layout (the upstream checkout
            itself works), or a built set (a folder with ``papers.csv``, see "Building a new
            paper set"). Defaults to ``None``.
        sources_path (str | None): Abstracts (CSV ``paper_id,abstract``) for ``idea``, or
            full texts (a folder of ``<paper_id>.txt``/``.md`` or a CSV) for ``summary``;
            None: the set's own. Defaults to ``None``.
        anonymize (bool): Ask for a text naming no method, model, author or system (ours,
            not upstream's). Defaults to ``False``.
    """
    built = is_built_set(data_path)  # a folder from `research-taste tastybench build`
    texts = built_titles_and_abstracts(data_path) if built and data_path else None
    found, missing = load_sources(paper_set, kind, data_path, sources_path, texts)
    source = f"local:{data_path}/papers.csv" if built else PAPER_FILES[paper_set].describe()
    template = _PROMPTS[(kind, idea_prompt)] if kind == "idea" else SUMMARIZE_PAPER
    template = anonymized(template) if anonymize else template
    return Task(
        dataset=extraction_dataset(found, kind, template),
        solver=generate_with_role(EXTRACTOR_ROLE),  # cached; default: the task's model
        scorer=extraction_scorer(kind, anonymize),
        headline_metric=HeadlineMetric(metric=TASTYBENCH_EXTRACT.headline),
        version=task_version(__file__, "tastybench_extract"),
        metadata={
            **provenance(
                source=source,
                revision="built set" if built else UPSTREAM_COMMIT,
                prompt_variant=f"{kind}-{idea_prompt}" if kind == "idea" else "summary",
                # both idea prompts and the summary one are upstream's; anonymize adds ours
                paper_faithful={"prompt": not anonymize},
                benchmark="TastyBench extraction",
            ),
            "paper_set": "built" if built else paper_set,
            "kind": kind,
            "idea_prompt": idea_prompt if kind == "idea" else None,
            "anonymize": anonymize,
            "papers_without_source": missing,
        },
    )


FULLTEXT_SUFFIXES = (".txt", ".md")


def _sources_from_csv(path: Path, column: str) -> dict[str, str]:
    rows = read_csv(path)
    if rows and not {"paper_id", column} <= set(rows[0]):
        raise DataError(f"{path}: expected columns paper_id,{column} (got {sorted(rows[0])})")
    return {row["paper_id"]: row[column].strip() for row in rows if (row[column] or "").strip()}


def load_sources(
    paper_set: PaperSet,
    kind: ExtractKind,
    data_path: str | None,
    sources_path: str | None,
    built: tuple[dict[str, str], dict[str, str]] | None = None,
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(paper_id, title, source text) per paper with a source, and the ids without one.

    ``built``: a built set's titles and abstracts (``built_set.built_titles_and_abstracts``),
    read instead of the upstream files.
    """
    built_abstracts: dict[str, str] | None = None
    if built is not None:
        titles, built_abstracts = built
    else:
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
    elif kind == "idea" and built_abstracts is not None:
        sources = built_abstracts
    elif kind == "idea" and IDEA_FILES[paper_set] is not None:
        pinned = IDEA_FILES[paper_set]
        assert pinned is not None
        sources = _sources_from_csv(locate(pinned, data_path)[0], "abstract")
    else:
        needed = "abstracts (CSV paper_id,abstract)" if kind == "idea" else "full texts"
        raise DataError(f"paper_set '{paper_set}' has no upstream {needed}: pass sources_path")
    found = [(pid, title, sources[pid]) for pid, title in titles.items() if sources.get(pid)]
    missing = [pid for pid in titles if not sources.get(pid)]
    if not found:  # Inspect would stop on an empty dataset with a long traceback
        where = sources_path or data_path or PAPER_FILES[paper_set].describe()
        shape = (
            f"<paper_id>{'/'.join(FULLTEXT_SUFFIXES)} files or a CSV with paper_id,fulltext"
            if kind == "summary"
            else "a CSV with paper_id,abstract"
        )
        raise DataError(
            f"{where}: no {kind} source for any of the {len(titles)} papers (expected {shape}, "
            "keyed by the papers' ids); add them or pass -T sources_path=<their location>"
        )
    return found, missing


def extraction_dataset(
    found: list[tuple[str, str, str]], kind: ExtractKind, template: str
) -> MemoryDataset:
    """One sample per paper with a source: ``template`` filled with its abstract or full text."""
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
    return MemoryDataset(samples=samples, name=f"tastybench-extract-{kind}", shuffled=False)


@metric
def extraction_rate() -> Metric:
    """Share of papers with a usable text; ``unparsed_rate``: replies without non-empty tags;
    ``withheld_rate``: texts withheld for naming their paper (``-T anonymize=true``).

    ``reasked_rate`` is 0: a reply without tags is not asked again.
    """

    def compute(scores: list[SampleScore]) -> Value:
        values = [float(score.score.as_float()) for score in scores]
        withheld = [1.0 if (s.score.metadata or {}).get("leaks") else 0.0 for s in scores]
        rate = sum(values) / len(values) if values else NAN
        leaked = sum(withheld) / len(withheld) if withheld else NAN
        return {
            "extraction_rate": rate,
            "unparsed_rate": 1.0 - rate - leaked,
            "withheld_rate": leaked,
            "reasked_rate": 0.0 if values else NAN,
        }

    return compute


def parse_tagged(text: str, tag: str) -> str | None:
    """The stripped content of the first ``<tag>...</tag>`` (upstream's regex), or None."""
    match = re.search(rf"<{tag}>(.*?)</{tag}>", text, re.DOTALL)
    content = match.group(1).strip() if match else ""
    return content or None


@scorer(metrics=[extraction_rate()])
def extraction_scorer(kind: ExtractKind, anonymize: bool = False) -> Scorer:
    """1 when the reply holds a usable ``<idea>``/``<summary>`` text, 0 (counted) when not.

    With ``anonymize`` a text naming its paper (``core.leaks``) is withheld: value 0, no
    answer, its leaks in the metadata (``withheld_rate``).
    """

    async def score(state: TaskState, target: Target) -> Score:
        text = parse_tagged(state.output.completion, kind)
        title = str(state.metadata.get("title") or "")
        leaks = name_leaks(text, title_names(title)) if text and anonymize else []
        explanation = f"no <{kind}> tags in the reply" if text is None else None
        if leaks:
            explanation = "withheld: the text names its paper (" + ", ".join(leaks) + ")"
        return Score(
            value=0.0 if text is None or leaks else 1.0,
            answer="" if leaks else text or "",
            reason=INVALID_RESPONSE_FORMAT if text is None else None,
            explanation=explanation,
            metadata={"tagged": text is not None, "leaks": leaks, "text": text},
        )

    return score
