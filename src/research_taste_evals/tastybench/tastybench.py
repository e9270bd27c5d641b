"""TastyBench: pairwise research-taste judgments -> Bradley-Terry / Elo -> citation velocity.

Hao, Huang and Mahajan (2025), "TastyBench: Toward Measuring Research Taste in LLM" (blog post,
2025-12-02); code and data: github.com/parviam/tastybench @ be72f06a. Parameters:
``tastybench/README.md`` ("Parameters").

The task's log metadata (:func:`tastybench_metadata`): the provenance block, the run's settings
as the task received them (the prompt actually used), and the matched pairing when there is one.

``tastybench_round -T round=rounds/<name>`` judges a round's frozen pairs (``docs/rounds.md``).
The round sets what the judge reads (the abstracts), the pairs (fixed at open, each in both
orders) and the prompt (its label plan: ``reviews`` for an OpenReview conference, ``journal``
for an OpenReview journal, ``goodhart`` for arXiv); the task takes only what may vary on a
frozen round, the choice method (no cutoff: a round is judged before its labels exist, so
recall cannot score it). The log's samples carry no labels: every item is pending, the
headline is NaN with ``pending_items``, and one line says how to score the log once labels exist
(its scorer and metric: ``scorer.py``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.demo import refuse_data_path
from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.core.round_figures import window_warnings
from research_taste_evals.core.rounds import (
    ITEMS_FILE,
    ROUND_FILE,
    Round,
    judging_note,
    open_round,
    refuse_a_round,
    round_identity,
)
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.core.velocity import MIN_SLOPE_POINTS
from research_taste_evals.tastybench.built_set import is_built_set, load_built_set
from research_taste_evals.tastybench.choice import EXTRACTOR_ROLE, ChoiceMethod, read_choice
from research_taste_evals.tastybench.dataset import (
    DEFAULT_WINDOW_MONTHS,
    MAX_SERIES_MONTHS,
    UPSTREAM_COMMIT,
    UPSTREAM_FETCH_DATE,
    Paper,
    PaperSet,
    Representation,
    VelocityMode,
    load_papers,
)
from research_taste_evals.tastybench.prompts import (
    JUDGE_PROMPTS,
    ROUND_PROMPTS,
    PromptVariant,
    prompt_for_set,
)
from research_taste_evals.tastybench.ratings import UPSTREAM_COMPARABLE_METRIC
from research_taste_evals.tastybench.schedule import (
    DEFAULT_ROUNDS,
    DEFAULT_SCHEDULE_SEED,
    Schedule,
    ScheduledPair,
    build_schedule,
    comparison_dataset,
    judged_papers,
    matching,
    recall_catalogue,
)
from research_taste_evals.tastybench.scorer import (
    round_pairwise,
    round_pairwise_scorer,
    tastybench_scorer,
    tastybench_task_metric,
)
from research_taste_evals.tastybench.solvers import CITATION_COUNT_DOMAINS, judge
from research_taste_evals.tastybench.specs import TASTYBENCH, TASTYBENCH_ROUND, first_group_key

logger = logging.getLogger(__name__)

BOUNDS = {
    "window_months": (MIN_SLOPE_POINTS, MAX_SERIES_MONTHS),
    "rounds": (1, None),
    "bootstrap_resamples": (1, None),
}


@task
@task_entry(BOUNDS)
def tastybench(
    paper_set: PaperSet = "curated",
    representation: Representation = "idea",
    prompt: PromptVariant | None = None,
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
    """TastyBench: pick the better of two RL-for-reasoning projects; ratings vs citation speed.

    Args:
        paper_set (Literal['curated', 'full']): 37-paper curated ground truth, or the
            97-paper list (needs ``representations_path``). Defaults to ``'curated'``.
        representation (Literal['idea', 'abstract', 'summary']): What the judge reads;
            curated ideas/abstracts ship upstream, summaries come from
            ``tastybench-extract``. Defaults to ``'idea'``.
        prompt (Literal['normal', 'goodhart', 'max_goodhart', 'reviews'] | None): The blog
            post's three judge prompts, verbatim (its headline chart uses the goodharted one);
            ``reviews`` (ours) is the goodharted one with peer review in place of citations,
            for OpenReview sets ([docs/openreview.md](../../../docs/openreview.md)). Unset, it
            follows the set's label (``reviews`` for a review-label set, else ``goodhart``); a
            prompt that asks about the other label is refused. Defaults to ``None``.
        velocity (Literal['windowed', 'upstream', 'common_window']): Ground truth: slope
            over months elapsed at the 2025-11-08 fetch (a built set: its own fetch date);
            upstream's ``b``; or slope over the same ``window_months`` for every paper
            (papers without them are not judged, and listed). Defaults to ``'windowed'``.
        window_months (int): Month starts after publication fitted by ``common_window`` (2
            to 14; 3 or 6 for live sets, see "Short windows"). Defaults to ``6``.
        schedule (Literal['adjacent', 'all_pairs', 'file', 'matched']): Upstream's neighbour
            schedule; every pair both ways; ``pairs_file``; disjoint date-matched pairs,
            both ways (headline ``pairwise_accuracy``, "Matched pairs"). Defaults to
            ``'adjacent'``.
        rounds (int): Rounds of ``adjacent`` (N - 1 comparisons each; upstream's curated
            runs: 20 and 50). Defaults to ``20``.
        seed (int): Seed of the ``adjacent`` shuffles / the ``all_pairs`` order /
            ``matched``'s order of same-day papers and of each pair's first showing
            (upstream shuffled unseeded). Defaults to ``20251108``.
        pairs_file (str | None): CSV ``paper_1,paper_2`` (shown in that order) or upstream's
            ``better_paper_id,worse_paper_id``. Defaults to ``None``.
        choice_method (Literal['parser_then_extractor', 'extractor', 'parser']): How the
            pick is read. Defaults to ``'parser_then_extractor'``.
        web_search (bool): Give the judge web search with citation-count sites blocked.
            Defaults to ``False``.
        data_path (str | None): A folder in the upstream layout (the upstream checkout
            itself works), or a built set (a folder with ``papers.csv``, see "Building a new
            paper set"). Defaults to ``None``.
        representations_path (str | None): CSV with ``paper_id`` and an
            ``idea``/``abstract``/``summary`` column. Defaults to ``None``.
        bootstrap_resamples (int): Bootstrap resamples of the correlation CIs. Defaults to
            ``1000``.
        knowledge_cutoff (str | None): The judge's knowledge cutoff, ``YYYY-MM-DD`` (below,
            "Recall and contamination"); the only source for models Inspect does not know.
            Defaults to ``None``.
        recall_probe (bool): Ask the judge once per paper to name it from the text it judges
            (one extra call per paper and run, cached). Defaults to ``True``.
    """
    refuse_a_round(data_path, "tastybench_round")  # before anything is read
    if data_path is not None and is_built_set(data_path):  # from `research-taste tastybench build`
        loaded = load_built_set(data_path, representation, representations_path, window_months)
    else:
        loaded = load_papers(
            paper_set, representation, data_path, representations_path, window_months
        )
    prompt = prompt_for_set(prompt, loaded.metadata.get("label"), data_path)
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
    papers = judged_papers(loaded.papers, velocity, window_months)
    pairs = build_schedule(papers, schedule, rounds, seed, pairs_file, velocity)
    # Checks the cutoff's date; the probe reads exactly the judge's texts.
    steps = recall_solvers(TASTYBENCH, knowledge_cutoff, recall_probe, recall_catalogue(papers))
    return Task(
        dataset=comparison_dataset(pairs, papers, JUDGE_PROMPTS[prompt], velocity),
        solver=[*steps, judge(web_search), read_choice(choice_method)],
        scorer=tastybench_scorer(choice_method),
        metrics=[tastybench_task_metric(schedule, bootstrap_resamples, DEFAULT_BOOTSTRAP_SEED)],
        headline_metric=HeadlineMetric(metric=TASTYBENCH.headline_of(first_group_key(schedule))),
        version=task_version(__file__, "tastybench"),
        metadata=tastybench_metadata(settings, loaded.metadata, papers, len(pairs)),
    )


@dataclass(frozen=True)
class RunSettings:
    """The ``tastybench`` arguments its metadata records (typed, as the task received them)."""

    representation: str
    prompt: str
    velocity: VelocityMode
    schedule: str
    rounds: int
    seed: int
    pairs_file: str | None
    choice_method: str
    web_search: bool
    knowledge_cutoff: object
    recall_probe: bool


def tastybench_metadata(
    settings: RunSettings,
    loaded_metadata: Mapping[str, Any],
    papers: Sequence[Paper],
    comparisons: int,
) -> dict[str, Any]:
    """The ``tastybench`` task's metadata: the provenance block and the run's settings.

    With ``schedule=matched`` also ``matching`` (``Matching.summary``: pairs, same-month pairs,
    the gap cap and the largest gap, papers left unpaired by reason) and the headline
    ``pairwise_accuracy``.
    """
    args = settings
    cutoff = args.knowledge_cutoff
    sources = {key: loaded_metadata[key] for key in ("papers_source", "representation_source")}
    details = {key: value for key, value in loaded_metadata.items() if key not in sources}
    schedule, pairs_file = args.schedule, args.pairs_file
    return {
        **provenance(
            benchmark="TastyBench",
            source=sources["papers_source"],
            revision=loaded_metadata.get("data_revision", UPSTREAM_COMMIT),
            prompt_variant=args.prompt,
            paper_faithful={
                "velocity": args.velocity == "upstream",
                "choice_method": args.choice_method == "extractor",
                "schedule": schedule in ("adjacent", "file"),
            },
            representation_source=sources["representation_source"],
        ),
        "headline_metric": TASTYBENCH.headline_of(first_group_key(schedule)),
        "upstream_comparable_metric": UPSTREAM_COMPARABLE_METRIC,
        **details,
        "papers_judged": len(papers),
        "representation": args.representation,
        "prompt": args.prompt,
        "velocity": args.velocity,
        "velocity_fetch_date": loaded_metadata.get(
            "velocity_fetch_date", UPSTREAM_FETCH_DATE.isoformat()
        ),
        "schedule": schedule,
        "rounds": args.rounds if schedule == "adjacent" else None,
        "seed": args.seed if schedule != "file" else None,
        "pairs_file": pairs_file,
        "pairs_file_sha256": sha256_of(Path(pairs_file)) if pairs_file else None,
        "comparisons": comparisons,
        "matching": (
            matching(papers, args.velocity, args.seed).summary() if schedule == "matched" else None
        ),
        "choice_method": args.choice_method,
        "extractor_role": f"{EXTRACTOR_ROLE} (default: the judge model itself)",
        "web_search": args.web_search,
        # The run's cutoff (with its source and model-info entry) is in each sample's score.
        "knowledge_cutoff_arg": None if cutoff is None else str(cutoff),
        "recall_probe": args.recall_probe,
        "web_search_blocked_domains": list(CITATION_COUNT_DOMAINS) if args.web_search else None,
    }


def round_papers(round_: Round) -> list[Paper]:
    """The round's items as papers with no labels (every velocity NaN)."""
    return [
        Paper(
            paper_id=item.item_id,
            title=item.title,
            pub_date=item.pub_date,
            text=item.abstract,
            velocity_upstream=math.nan,
            velocity_windowed=math.nan,
            field=item.group or None,
        )
        for item in round_.items
    ]


def round_schedule(round_: Round) -> list[ScheduledPair]:
    """Each frozen pair in both orders: samples ``2k`` and ``2k + 1`` share ``pair_id`` k."""
    return [
        ScheduledPair(
            2 * pair.pair_id + k, *order, None, pair.pair_id, pair.gap_days, pair.same_month
        )
        for pair in round_.pairs
        for k, order in enumerate(((pair.item_1, pair.item_2), (pair.item_2, pair.item_1)))
    ]


@task
@task_entry()
def tastybench_round(
    round: str | None = None,
    choice_method: ChoiceMethod = "parser_then_extractor",
    data_path: str | None = None,
) -> Task:
    """TastyBench on a round: judge its frozen pairs before their labels exist (docs/rounds.md).

    Args:
        round (str | None): A round folder (``research-taste round open``); it sets the texts
            (abstracts), the pairs (each judged in both orders) and the prompt. Defaults to
            ``None``.
        choice_method (Literal['parser_then_extractor', 'extractor', 'parser']): How the
            pick is read. Defaults to ``'parser_then_extractor'``.
        data_path (str | None): ``demo`` runs the task on its demo data, as for every task
            (``-T data_path=demo``); any other value is refused (the data argument is
            ``round``). Defaults to ``None``.
    """
    refuse_data_path("tastybench_round", data_path, "round")
    round_ = open_round(round, "tastybench_round")
    round_prompt = round_.prompt
    if round_prompt not in ROUND_PROMPTS:
        raise DataError(
            f"{round_.folder / ROUND_FILE}: field 'label_plan.prompt' is {round_prompt!r}, not "
            f"a TastyBench judging prompt ({', '.join(sorted(ROUND_PROMPTS))})"
        )
    papers = round_papers(round_)
    pairs = round_schedule(round_)
    logger.warning("%s", judging_note(round_, round or str(round_.folder)))
    manifest = round_.manifest
    return Task(
        dataset=comparison_dataset(pairs, papers, ROUND_PROMPTS[round_prompt], "windowed"),
        solver=[judge(False), read_choice(choice_method)],
        scorer=round_pairwise_scorer(round=str(round_.folder)),  # the round's counts
        metrics=[round_pairwise(DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED)],
        headline_metric=HeadlineMetric(metric=TASTYBENCH_ROUND.headline),
        version=task_version(__file__, "tastybench_round"),
        metadata={
            **provenance(
                benchmark="TastyBench",
                source=f"local:{round_.folder / ITEMS_FILE} sha256:{manifest['items_sha256']}",
                revision=f"round {round_.name}, opened {manifest.get('opened_at')}",
                prompt_variant=round_prompt,
                paper_faithful={"schedule": False, "velocity": False},
                representation_source="round abstracts",
            ),
            "headline_metric": TASTYBENCH_ROUND.headline,
            "round": {
                **round_identity(round_),
                "source": manifest.get("source"),
                "pairs_sha256": manifest.get("pairs_sha256"),
                "label_plan": manifest.get("label_plan"),
                "warnings": window_warnings(round_),
            },
            "papers_judged": len(papers),
            "representation": "abstract",
            "prompt": round_prompt,
            "schedule": "matched",
            "comparisons": len(pairs),
            "choice_method": choice_method,
        },
    )
