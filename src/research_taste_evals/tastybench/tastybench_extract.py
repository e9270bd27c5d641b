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
Roles: loaders in ``dataset.py``, the scorer in ``scorer.py``, its metric in ``metrics.py``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.task_args import refuse_unknown_arguments, task_entry
from research_taste_evals.tastybench.built_set import built_titles_and_abstracts, is_built_set
from research_taste_evals.tastybench.dataset import (
    PAPER_FILES,
    UPSTREAM_COMMIT,
    ExtractKind,
    IdeaPrompt,
    PaperSet,
)
from research_taste_evals.tastybench.extract_sources import extraction_dataset, load_sources
from research_taste_evals.tastybench.prompts import (
    EXTRACT_IDEA,
    EXTRACT_IDEA_CURATED,
    SUMMARIZE_PAPER,
    anonymized,
)
from research_taste_evals.tastybench.scorer import extraction_scorer
from research_taste_evals.tastybench.solvers import generate_as_extractor

__all__ = ["tastybench_extract"]
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
    **kwargs: Any,
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
    refuse_unknown_arguments(tastybench_extract, kwargs)
    built = is_built_set(data_path)  # a folder from `research-taste tastybench build`
    texts = built_titles_and_abstracts(data_path) if built and data_path else None
    found, missing = load_sources(paper_set, kind, data_path, sources_path, texts)
    source = f"local:{data_path}/papers.csv" if built else PAPER_FILES[paper_set].describe()
    template = _PROMPTS[(kind, idea_prompt)] if kind == "idea" else SUMMARIZE_PAPER
    template = anonymized(template) if anonymize else template
    return Task(
        dataset=extraction_dataset(found, kind, template),
        solver=generate_as_extractor(),
        scorer=extraction_scorer(kind, anonymize),
        headline_metric=HeadlineMetric(metric="extraction_rate"),
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
