"""``tastybench_round -T round=rounds/<name>``: judge a round's frozen pairs (``docs/rounds.md``).

The round sets what the judge reads (the abstracts), the pairs (fixed at open, each in both
orders) and the prompt (its label plan: ``reviews`` for an OpenReview conference, ``journal``
for an OpenReview journal, ``goodhart`` for arXiv); the task takes only what may vary on a
frozen round, the choice method (no cutoff: a round is judged before its labels exist, so
recall cannot score it). The log's samples carry no labels: every item is pending, the
headline is NaN with ``pending_items``, and one line says how to score the log once labels exist.

Scoring a round: the pick of each frozen pair, scored against a labels file when one exists.

``round_pairwise_scorer(labels=<csv>)`` is what ``inspect score LOG --scorer
research_taste_evals/round_pairwise_scorer -S labels=<csv> --action overwrite`` runs: it reads
the pick the judgment stored (never asking a model: an answer without a stored pick is read by
the parser alone), the two items' labels and label times from the CSV, and the decision time
(the sample's last model event of the evaluated model). Without ``labels`` (the judgment run)
every item is pending.

``round_pairwise`` (the metric): ``pairwise_accuracy`` on the decisions made before any label of
their pair existed (prospective), with its seeded bootstrap CI over pairs
(``ratings.pairwise_accuracy_summary``: a pair is right in the share of its orders that picked
the higher label; an unclear answer is a wrong decision); decisions made after a label existed,
or after the round's ``judge_by`` (its judging window), are reported apart
(``pairwise_accuracy_after_label``); pairs with equal labels are left out and
counted (``tied_pairs``); ``labelled_share``, ``pending_items`` (no label yet) and
``dropped_items`` (left the round with none: the labels file's ``dropped``, never pending) are
over the paired items (``core.rounds.ItemCounts``, as the judging warning and ``round resolve``).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric, transcript
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.metrics import nan_on_error
from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.rounds import (
    ITEMS_FILE,
    Round,
    decision_time,
    is_prospective,
    item_counts,
    item_state,
    judging_note,
    open_round,
    read_labels,
    round_identity,
)
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED, NAN
from research_taste_evals.core.task_args import refuse_unknown_arguments, task_entry
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.parsing import (
    ChoiceMethod,
    judge,
    parse_judge_answer,
    read_choice,
    stored_pick,
)
from research_taste_evals.tastybench.prompts import ROUND_PROMPTS
from research_taste_evals.tastybench.ratings import pairwise_accuracy_summary
from research_taste_evals.tastybench.schedule import ScheduledPair, comparison_dataset
from research_taste_evals.tastybench.specs import TASTYBENCH_ROUND

logger = logging.getLogger(__name__)


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
    **kwargs: Any,
) -> Task:
    """TastyBench on a round: judge its frozen pairs before their labels exist (docs/rounds.md).

    Args:
        round (str | None): A round folder (``research-taste round open``); it sets the texts
            (abstracts), the pairs (each judged in both orders) and the prompt. Defaults to
            ``None``.
        choice_method (Literal['parser_then_extractor', 'extractor', 'parser']): How the
            pick is read. Defaults to ``'parser_then_extractor'``.
    """
    refuse_unknown_arguments(tastybench_round, kwargs)
    round_ = open_round(round, "tastybench_round")
    round_prompt = round_.prompt
    papers = round_papers(round_)
    pairs = round_schedule(round_)
    logger.warning("%s", judging_note(round_, round or str(round_.folder)))
    manifest = round_.manifest
    return Task(
        dataset=comparison_dataset(pairs, papers, ROUND_PROMPTS[round_prompt], "windowed"),
        solver=[judge(False), read_choice(choice_method)],
        scorer=round_pairwise_scorer(),
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
            },
            "papers_judged": len(papers),
            "representation": "abstract",
            "prompt": round_prompt,
            "schedule": "matched",
            "comparisons": len(pairs),
            "choice_method": choice_method,
        },
    )


# The metric's figures: the spec's first group, stated there once.
ROUND_KEYS = list(TASTYBENCH_ROUND.first_names())


def _stamp(value: Any) -> float:
    return value.timestamp() if value is not None else NAN


@scorer(metrics=[])
def round_pairwise_scorer(labels: str | None = None) -> Scorer:
    """The stored pick of a round's sample with its items' labels (``labels``: a labels CSV)."""
    table = read_labels(labels) if labels else None

    async def score(state: TaskState, target: Target) -> Score:
        pick = stored_pick(state)
        choice = pick.choice if pick is not None else parse_judge_answer(state.output.completion)
        decided = decision_time(transcript().events)
        values: dict[str, float] = {
            "first_won": NAN if choice is None else float(choice == 1),
            "unclear": float(choice is None),
            "decided_at": _stamp(decided),
            "judge_by": _stamp(table.judge_by if table else None),
        }
        for k in ("1", "2"):
            label = table.label(str(state.metadata[f"paper_{k}"])) if table else None
            values[f"label_{k}"] = label.value if label else NAN
            values[f"label_time_{k}"] = _stamp(label.time if label else None)
            values[f"dropped_{k}"] = float(bool(label and label.dropped))
        return Score(
            value=values,
            answer="unclear" if choice is None else str(choice),
            reason=INVALID_RESPONSE_FORMAT if choice is None else None,
            metadata={
                "labels_version": table.version if table else None,
                "labels_file": str(table.path) if table else None,
                "decided_at": decided.isoformat() if decided else None,
            },
        )

    return score


def _value(sample_score: SampleScore) -> dict[str, Any]:
    value = sample_score.score.value
    return value if isinstance(value, dict) else {}


def _as_matched(sample_score: SampleScore, value: dict[str, float]) -> SampleScore:
    metadata = {
        **(sample_score.sample_metadata or {}),
        "velocity_1": value.get("label_1"),
        "velocity_2": value.get("label_2"),
    }
    return sample_score.model_copy(update={"sample_metadata": metadata})


def round_summary(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Every figure of :data:`ROUND_KEYS` (module docstring)."""
    result: dict[str, float] = dict.fromkeys(ROUND_KEYS, NAN)
    items: dict[str, str] = {}  # item id -> labelled, dropped or pending
    before: list[SampleScore] = []
    after: list[SampleScore] = []
    ties: set[Any] = set()
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict):
            continue
        metadata = sample_score.sample_metadata or {}
        for k in ("1", "2"):
            label = value.get(f"label_{k}", NAN)
            labelled = isinstance(label, float) and math.isfinite(label)
            dropped = value.get(f"dropped_{k}", 0.0) == 1.0
            items[str(metadata.get(f"paper_{k}"))] = item_state(labelled, dropped)
        (before if is_prospective(value) else after).append(_as_matched(sample_score, value))
        first, second = value.get("label_1", NAN), value.get("label_2", NAN)
        if math.isfinite(first) and first == second:
            ties.add(metadata.get("pair_id"))
    decisions = len(before) + len(after)
    counts = item_counts(items.values())  # the paired items: core.rounds.ItemCounts
    result["labelled_share"] = counts.labelled_share
    result["dropped_items"] = float(counts.dropped)
    result["pending_items"] = float(counts.pending)
    result["prospective_share"] = len(before) / decisions if decisions else NAN
    result["tied_pairs"] = float(len(ties))
    result["unclear"] = float(sum(_value(s).get("unclear", 0) == 1 for s in before + after))
    prospective = pairwise_accuracy_summary(before, resamples, seed)
    result["pairwise_accuracy"] = prospective["pairwise_accuracy"]
    result["pairwise_accuracy_ci_low"] = prospective["pairwise_accuracy_ci_low"]
    result["pairwise_accuracy_ci_high"] = prospective["pairwise_accuracy_ci_high"]
    result["pairs"] = prospective["matched_pairs"]
    late = pairwise_accuracy_summary(after, resamples, seed)
    result["pairwise_accuracy_after_label"] = late["pairwise_accuracy"]
    result["pairs_after_label"] = late["matched_pairs"]
    return result


def pooled_round_summary(scores: list[SampleScore]) -> dict[str, float]:
    """:func:`round_summary` over the pooled samples of several rounds (the report's pooled
    figure: ``TASTYBENCH_ROUND.rounds.pooled``), with the default seeded bootstrap."""
    return round_summary(scores, DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED)


@metric
def round_pairwise(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """A round's headline ``pairwise_accuracy`` (prospective decisions) and its shares."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric round", ROUND_KEYS, lambda: round_summary(scores, resamples, seed)
        )

    return compute
