"""TastyBench: pairwise research-taste judgments -> Bradley-Terry / Elo -> citation velocity.

Hao, Huang and Mahajan (2025), "TastyBench: Toward Measuring Research Taste in LLM" (blog post,
2025-12-02); code and data: github.com/parviam/tastybench @ be72f06a. Parameters:
``tastybench/README.md`` ("Parameters").
"""

from __future__ import annotations

from inspect_ai import Task, task

from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.core.task_args import checked_arguments
from research_taste_evals.tastybench.built_set import is_built_set, load_built_set
from research_taste_evals.tastybench.dataset import PaperSet, Representation, load_papers
from research_taste_evals.tastybench.metrics import tastybench_metrics
from research_taste_evals.tastybench.parsing import ChoiceMethod
from research_taste_evals.tastybench.prompts import JUDGE_PROMPTS, PromptVariant
from research_taste_evals.tastybench.recall import TASTYBENCH, recall_catalogue
from research_taste_evals.tastybench.schedule import (
    DEFAULT_ROUNDS,
    DEFAULT_SCHEDULE_SEED,
    RunSettings,
    Schedule,
    build_schedule,
    comparison_dataset,
    judged_papers,
    tastybench_metadata,
)
from research_taste_evals.tastybench.scorer import tastybench_scorer
from research_taste_evals.tastybench.solvers import judge, read_choice
from research_taste_evals.tastybench.velocity import (
    DEFAULT_WINDOW_MONTHS,
    MAX_SERIES_MONTHS,
    MIN_SLOPE_POINTS,
    VelocityMode,
)

BOUNDS = {
    "window_months": (MIN_SLOPE_POINTS, MAX_SERIES_MONTHS),
    "rounds": (1, None),
    "bootstrap_resamples": (1, None),
}


@task
@checked_arguments(BOUNDS)
def tastybench(
    paper_set: PaperSet = "curated",
    representation: Representation = "idea",
    prompt: PromptVariant = "goodhart",
    velocity: VelocityMode = "windowed",
    window_months: int = DEFAULT_WINDOW_MONTHS,
    schedule: Schedule = "adjacent",
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SCHEDULE_SEED,
    pairs_file: str | None = None,
    choice_method: ChoiceMethod = "parser_then_extractor",
    web_search: bool = False,
    data_path: str | None = None,
    representations_path: str | None = None,
    bootstrap_resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    knowledge_cutoff: str | None = None,
    recall_probe: bool = True,
) -> Task:
    """TastyBench: pick the better of two RL-for-reasoning projects; ratings vs citation speed."""
    settings = RunSettings(
        representation=representation,
        prompt=prompt,
        velocity=velocity,
        schedule=schedule,
        rounds=rounds,
        seed=seed,
        pairs_file=pairs_file,
        choice_method=choice_method,
        web_search=web_search,
        knowledge_cutoff=knowledge_cutoff,
        recall_probe=recall_probe,
    )
    if data_path is not None and is_built_set(data_path):  # from `research-taste tastybench build`
        loaded = load_built_set(data_path, representation, representations_path, window_months)
    else:
        loaded = load_papers(
            paper_set, representation, data_path, representations_path, window_months
        )
    papers = judged_papers(loaded.papers, velocity, window_months)
    pairs = build_schedule(papers, schedule, rounds, seed, pairs_file, velocity)
    # Checks the cutoff's date; the probe reads exactly the judge's texts.
    steps = recall_solvers(TASTYBENCH, knowledge_cutoff, recall_probe, recall_catalogue(papers))
    return Task(
        dataset=comparison_dataset(pairs, papers, JUDGE_PROMPTS[prompt], velocity),
        solver=[*steps, judge(web_search), read_choice(choice_method)],
        scorer=tastybench_scorer(choice_method),
        metrics=tastybench_metrics(bootstrap_resamples, DEFAULT_BOOTSTRAP_SEED),
        version=task_version(__file__, "tastybench"),
        metadata=tastybench_metadata(settings, loaded.metadata, papers, len(pairs)),
    )
