"""``tastybench -T data_path=rounds/<name>``: judge a round's frozen pairs (``docs/rounds.md``).

The round sets what the judge reads (the abstracts), the pairs (fixed at open, each in both
orders) and the prompt (its label plan: ``reviews`` for an OpenReview conference, ``journal``
for an OpenReview journal, ``goodhart`` for arXiv); a ``representation``, ``prompt`` or
``schedule`` other than the task's default or the round's own is refused, as is any other
argument a round does not use (web search, a cutoff, a pairs file...) at a value other than its
default. The log's samples carry no labels: every item is pending, the headline is NaN with
``pending_items``, and one line says how to score the log once labels exist.
"""

from __future__ import annotations

import logging
import math

from inspect_ai import Task

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.rounds import ITEMS_FILE, Round, load_round
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.parsing import ChoiceMethod
from research_taste_evals.tastybench.prompts import ROUND_PROMPTS, PromptVariant
from research_taste_evals.tastybench.round_scorer import round_pairwise, round_pairwise_scorer
from research_taste_evals.tastybench.schedule import (
    DEFAULT_ROUNDS,
    DEFAULT_SCHEDULE_SEED,
    ScheduledPair,
    comparison_dataset,
)
from research_taste_evals.tastybench.solvers import judge, read_choice
from research_taste_evals.tastybench.velocity import DEFAULT_WINDOW_MONTHS

logger = logging.getLogger(__name__)

# The task's own defaults: a value equal to these is "not given" on a round.
TASK_DEFAULTS = {"representation": "idea", "prompt": None, "schedule": "adjacent"}
ROUND_SETTINGS = {"representation": "abstract", "schedule": "matched"}
# The task's other arguments at their defaults (a round neither probes nor searches the web).
UNUSED_ON_A_ROUND: dict[str, object] = {
    "paper_set": "curated",
    "velocity": "windowed",
    "window_months": DEFAULT_WINDOW_MONTHS,
    "rounds": DEFAULT_ROUNDS,
    "seed": DEFAULT_SCHEDULE_SEED,
    "pairs_file": None,
    "web_search": False,
    "representations_path": None,
    "knowledge_cutoff": None,
}


def _check_settings(round_: Round, given: dict[str, str | None]) -> None:
    wanted = {**ROUND_SETTINGS, "prompt": round_.prompt}
    for name, value in given.items():
        if value not in (TASK_DEFAULTS[name], wanted[name]):
            raise ConfigError(
                f"{name}={value!r}: the round {round_.folder} sets {name}={wanted[name]!r} "
                f"(its label plan); leave -T {name} out"
            )


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


def refuse_unused_on_a_round(**given: object) -> None:
    """Refuse each argument of ``UNUSED_ON_A_ROUND`` that ``tastybench`` was given at a value
    other than its default (it would be silently ignored).

    Raises:
        ConfigError: the first such argument, in one sentence.
    """
    for name, value in given.items():
        if value != UNUSED_ON_A_ROUND[name]:
            raise ConfigError(
                f"{name}={value!r}: not used on a round (it fixes its items, pairs, "
                f"prompt and labels; docs/rounds.md); leave -T {name} out"
            )


def round_task(
    data_path: str,
    *,
    representation: str,
    prompt: PromptVariant | None,
    schedule: str,
    choice_method: ChoiceMethod,
    bootstrap_resamples: int,
    version: str,
) -> Task:
    """The ``tastybench`` task on the round in ``data_path`` (module docstring).

    Raises:
        DataError: the round's item or pairs file changed since it was opened.
        ConfigError: a setting the round fixes was given another value.
    """
    round_ = load_round(data_path)
    _check_settings(
        round_, {"representation": representation, "prompt": prompt, "schedule": schedule}
    )
    round_prompt = round_.prompt
    papers = round_papers(round_)
    pairs = round_schedule(round_)
    logger.warning(
        "round %s: labels pending for its %d items; once `research-taste round resolve %s` has "
        "run, score this log with `research-taste round score %s --log-dir <log dir>`",
        round_.name,
        len(papers),
        data_path,
        data_path,
    )
    manifest = round_.manifest
    return Task(
        dataset=comparison_dataset(pairs, papers, ROUND_PROMPTS[round_prompt], "windowed"),
        solver=[judge(False), read_choice(choice_method)],
        scorer=round_pairwise_scorer(),
        metrics=[round_pairwise(bootstrap_resamples, DEFAULT_BOOTSTRAP_SEED)],
        version=version,
        metadata={
            **provenance(
                benchmark="TastyBench",
                source=f"local:{round_.folder / ITEMS_FILE} sha256:{manifest['items_sha256']}",
                revision=f"round {round_.name}, opened {manifest.get('opened_at')}",
                prompt_variant=round_prompt,
                paper_faithful={"schedule": False, "velocity": False},
                representation_source="round abstracts",
            ),
            "headline_metric": "pairwise_accuracy",
            "round": {
                "name": round_.name,
                "folder": str(round_.folder),
                "opened_at": manifest.get("opened_at"),
                "source": manifest.get("source"),
                "items_sha256": manifest.get("items_sha256"),
                "pairs_sha256": manifest.get("pairs_sha256"),
                "label_plan": manifest.get("label_plan"),
                "state": "pending",
            },
            "papers_judged": len(papers),
            "representation": "abstract",
            "prompt": round_prompt,
            "schedule": "matched",
            "comparisons": len(pairs),
            "choice_method": choice_method,
        },
    )
