"""TastyBench: pairwise research-taste judgments -> Bradley-Terry / Elo -> citation velocity.

Hao, Huang and Mahajan (2025), "TastyBench: Toward Measuring Research Taste in LLM" (blog post,
2025-12-02); code and data: github.com/parviam/tastybench @ be72f06a.
"""

from __future__ import annotations

import math
from pathlib import Path

from inspect_ai import Task, task

from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.tastybench.baselines import remember_velocities
from research_taste_evals.tastybench.choice import CHOICE_METHODS, ChoiceMethod
from research_taste_evals.tastybench.dataset import (
    PAPER_SETS,
    REPRESENTATIONS,
    UPSTREAM_COMMIT,
    PaperSet,
    Representation,
    load_papers,
)
from research_taste_evals.tastybench.metrics import (
    tastybench_decisions,
    tastybench_ratings,
    tastybench_reliability,
)
from research_taste_evals.tastybench.prompts import JUDGE_PROMPTS, PROMPT_VARIANTS, PromptVariant
from research_taste_evals.tastybench.ratings import HEADLINE_METRIC, UPSTREAM_COMPARABLE_METRIC
from research_taste_evals.tastybench.schedule import (
    DEFAULT_ROUNDS,
    DEFAULT_SCHEDULE_SEED,
    SCHEDULES,
    Schedule,
    build_schedule,
    comparison_dataset,
)
from research_taste_evals.tastybench.scorer import tastybench_scorer
from research_taste_evals.tastybench.solvers import EXTRACTOR_ROLE, judge, read_choice
from research_taste_evals.tastybench.velocity import (
    DEFAULT_WINDOW_MONTHS,
    MAX_SERIES_MONTHS,
    MIN_SLOPE_POINTS,
    UPSTREAM_FETCH_DATE,
    VELOCITY_MODES,
    VelocityMode,
)
from research_taste_evals.tastybench.websearch import CITATION_COUNT_DOMAINS

# "N-X": N moves when comparable numbers change, X for fixes that keep them (README changelog).
TASTYBENCH_VERSION = "2-A"


def _check(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


@task
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
) -> Task:
    """TastyBench: pick the better of two RL-for-reasoning projects; ratings vs citation velocity.

    Args:
        paper_set: ``curated`` (37 papers, upstream ideas/abstracts) or ``full`` (97 papers;
            needs ``representations_path``).
        representation: What the judge reads: ``idea`` (core idea), ``abstract`` or ``summary``
            (300-400 word methods summary; needs ``representations_path``).
        prompt: The blog post's judge prompt: ``normal``, ``goodhart`` or ``max_goodhart``.
        velocity: Ground truth: ``windowed`` (slope over months elapsed at the 2025-11-08
            fetch), ``upstream`` (upstream's ``b``, which counts flat-filled future months) or
            ``common_window`` (slope over the first ``window_months`` months for every paper;
            papers observed for fewer months are left out of the run and counted).
        window_months: The common window of ``velocity=common_window`` (2 to 14 months).
        schedule: ``adjacent`` (upstream: each round a seeded shuffle, neighbours compared),
            ``all_pairs`` (every pair in both orders, shuffled) or ``file`` (``pairs_file``).
        rounds: Rounds of the adjacent schedule (N - 1 comparisons each).
        seed: Seed of the schedule.
        pairs_file: CSV of ordered pairs ``paper_1,paper_2`` (or upstream's rankings.csv,
            ``better_paper_id,worse_paper_id``), shown and rated in file order.
        choice_method: ``parser_then_extractor`` (deterministic parser, ambiguous answers to
            the ``extractor`` role), ``extractor`` (every answer to the extractor, as upstream)
            or ``parser`` (no extractor; ambiguous answers are unclear).
        web_search: Give the judge web search with citation-count sites blocked.
        data_path: Local directory with the upstream files (default: pinned download).
        representations_path: CSV with ``paper_id`` and an ``idea``/``abstract``/``summary``
            column, e.g. written by ``research-taste tastybench-extract``.
        bootstrap_resamples: Bootstrap resamples of the correlation CIs.
    """
    _check("paper_set", paper_set, PAPER_SETS)
    _check("representation", representation, REPRESENTATIONS)
    _check("prompt", prompt, PROMPT_VARIANTS)
    _check("velocity", velocity, VELOCITY_MODES)
    _check("schedule", schedule, SCHEDULES)
    _check("choice_method", choice_method, CHOICE_METHODS)
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    if not MIN_SLOPE_POINTS <= window_months <= MAX_SERIES_MONTHS:
        raise ValueError(
            f"window_months must be in {MIN_SLOPE_POINTS}..{MAX_SERIES_MONTHS}, got {window_months}"
        )
    loaded = load_papers(paper_set, representation, data_path, representations_path, window_months)
    papers = loaded.papers
    if velocity == "common_window":
        # A paper without the window has no ground truth in this mode: it is not judged at
        # all (no calls spent on it), and the excluded ids are listed in the metadata.
        papers = [paper for paper in papers if not math.isnan(paper.velocity_common)]
        if len(papers) < 2:
            raise ValueError(
                f"only {len(papers)} papers have {window_months} months of citations; "
                "lower window_months"
            )
    # The offline citation oracle (baseline/citation-oracle) reads this run's truth.
    remember_velocities((paper.text, paper.velocity(velocity)) for paper in papers)
    ids = [paper.paper_id for paper in papers]
    pairs = build_schedule(ids, schedule, rounds, seed, pairs_file)
    dataset = comparison_dataset(pairs, papers, JUDGE_PROMPTS[prompt], velocity)
    sources = {key: loaded.metadata[key] for key in ("papers_source", "representation_source")}
    details = {key: value for key, value in loaded.metadata.items() if key not in sources}
    return Task(
        dataset=dataset,
        solver=[judge(web_search), read_choice(choice_method)],
        scorer=tastybench_scorer(choice_method),
        metrics=[
            tastybench_ratings(resamples=bootstrap_resamples, seed=DEFAULT_BOOTSTRAP_SEED),
            tastybench_reliability(seed=DEFAULT_BOOTSTRAP_SEED),
            tastybench_decisions(),
        ],
        version=TASTYBENCH_VERSION,
        metadata={
            **provenance(
                source=sources["papers_source"],
                revision=UPSTREAM_COMMIT,
                prompt_variant=prompt,
                paper_faithful={
                    "velocity": velocity == "upstream",
                    "choice_method": choice_method == "extractor",
                    "schedule": schedule in ("adjacent", "file"),
                },
                representation_source=sources["representation_source"],
            ),
            "benchmark": "TastyBench",
            "headline_metric": HEADLINE_METRIC,
            "upstream_comparable_metric": UPSTREAM_COMPARABLE_METRIC,
            **details,
            "papers_judged": len(papers),
            "representation": representation,
            "prompt": prompt,
            "velocity": velocity,
            "velocity_fetch_date": UPSTREAM_FETCH_DATE.isoformat(),
            "schedule": schedule,
            "rounds": rounds if schedule == "adjacent" else None,
            "seed": seed if schedule != "file" else None,
            "pairs_file": pairs_file,
            "pairs_file_sha256": sha256_of(Path(pairs_file)) if pairs_file else None,
            "comparisons": len(pairs),
            "choice_method": choice_method,
            "extractor_role": f"{EXTRACTOR_ROLE} (default: the judge model itself)",
            "web_search": web_search,
            "web_search_blocked_domains": list(CITATION_COUNT_DOMAINS) if web_search else None,
        },
    )
