"""TastyBench scorers and metrics: the judge's pick as numbers that survive Inspect's reduction,
and the dataset-level figures rebuilt from them.

Values: ``first_won`` (1 = Project 1, 0 = Project 2, NaN = unclear), ``unclear``, ``agree`` (the
pick has the higher velocity), ``extractor_used`` and ``extractor_failed`` (the extractor call
refused, or its prompt overflowed its context; reason ``grader_failed``, while an answer nobody
could read is ``invalid_response_format``; a provider error left after Inspect's retries fails
the sample instead). ``Score.metadata`` also holds the run's knowledge cutoff, its source,
``post_cutoff`` and the recognition probe's result per paper (``schedule.py``, ``ratings.py``). The
dataset-level metrics (below) rebuild the comparisons from them; ``tastybench_figures``, the
task's one metric, logs the figures its spec names for the run's schedule
(``core/task_metric.py``).

The dataset-level metrics: ratings vs velocity, their reliability, the picks' habits.

- ``tastybench_ratings``: Bradley-Terry (headline, ``bt_*``) and upstream's sequential Elo
  (``elo_*``, kept for comparison with upstream), each with Spearman rho and Kendall tau against
  velocity, seeded bootstrap 95% CIs over papers and the Spearman controlling for publication
  month (``*_partial_spearman``); ``elo_upstream_rank_pearson`` is upstream's own statistic.
- ``tastybench_reliability``: split-half Spearman of each rating (halves split by unordered
  pair, so repeats of a pair never straddle the halves) and its Spearman-Brown correction.
- ``tastybench_recall``: the headline's recall twins (``ratings.py``, ``core/recall_metrics.py``):
  ``bt_spearman_clean`` (comparisons between two clean papers: after the run's clean cutoff,
  not recognised), ``bt_spearman_post_cutoff`` (two papers after the stated cutoff) and
  ``bt_spearman_unrecognized``, with CIs and counts, ``recognized_rate`` and the cutoff figures.
- ``tastybench_decisions``: position bias, order consistency, unclear rate, comparisons used
  and total, pairwise agreement with velocity, extractor rate and extractor failure rate.

Unclear picks are left out of every rating and rate except ``unclear_rate``. Every metric
returns NaN when undefined and never raises (a raising metric marks the whole log as failed).

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

import math
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.metrics import nan_on_error
from research_taste_evals.core.reasons import GRADER_FAILED, INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.recall_metrics import recall_keys, recall_summary
from research_taste_evals.core.round_figures import count_values, counts_from_values, round_figures
from research_taste_evals.core.rounds import (
    decision_time,
    is_prospective,
    item_counts,
    item_state,
    read_labels,
)
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    NAN,
    import_scipy,
)
from research_taste_evals.core.task_metric import logged_figures
from research_taste_evals.tastybench.choice import ChoiceMethod, read_pick, stored_pick
from research_taste_evals.tastybench.parsing import parse_judge_answer
from research_taste_evals.tastybench.ratings import (
    DECISION_KEYS,
    PAIRWISE_KEYS,
    RATING_KEYS,
    RELIABILITY_KEYS,
    bt_statistic,
    collect,
    decision_summary,
    pairwise_accuracy_summary,
    pairwise_statistic,
    rating_summary,
    reliability_summary,
)
from research_taste_evals.tastybench.specs import (
    MATCHED_TWINS,
    TASTYBENCH,
    TASTYBENCH_ROUND,
    first_group_key,
)


@metric
def tastybench_ratings(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """Bradley-Terry (headline) and Elo rank correlations with citation velocity, with CIs."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric ratings",
            RATING_KEYS,
            lambda: rating_summary(collect(scores), resamples, seed),
        )

    return compute


@metric
def tastybench_reliability(seed: int = DEFAULT_BOOTSTRAP_SEED) -> Metric:
    """Split-half Spearman of the ratings and its Spearman-Brown correction, per method."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric reliability",
            RELIABILITY_KEYS,
            lambda: reliability_summary(collect(scores), seed),
        )

    return compute


@metric
def tastybench_decisions() -> Metric:
    """Position bias, order consistency, unclear rate, comparisons, agreement, extractor rates.

    Also the agreed ``unparsed_rate`` (answers neither the parser nor the extractor could read;
    ``unclear_rate`` adds failed extractor calls) and ``reasked_rate`` (0: an unclear answer
    goes to the extractor, never back to the judge).
    """

    def compute(scores: list[SampleScore]) -> Value:
        decisions = nan_on_error(
            "tastybench metric decisions", DECISION_KEYS, lambda: decision_summary(collect(scores))
        )
        return decisions | answer_rates(scores)

    return compute


@metric
def tastybench_recall(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    matched: bool = False,
) -> Metric:
    """``bt_spearman`` on clean, post-cutoff and unrecognised papers, and the cutoff figures;
    ``matched`` (schedule=matched): ``pairwise_accuracy``'s twins too."""
    summary = recall_summary(TASTYBENCH, bt_statistic(resamples, seed))
    pairwise = recall_summary(MATCHED_TWINS, pairwise_statistic(resamples, seed), run_lines=False)
    own = [k for k in recall_keys(MATCHED_TWINS) if k not in recall_keys(TASTYBENCH)]
    keys = recall_keys(TASTYBENCH) + own

    def both(scores: list[SampleScore]) -> dict[str, float]:
        # schedule=matched: pairwise_accuracy's twins too (NaN, unlogged, for other schedules).
        twins = pairwise(scores) if matched else {}
        return summary(scores) | {key: twins.get(key, NAN) for key in own}

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error("tastybench metric recall", keys, lambda: both(scores))

    return compute


@metric
def tastybench_pairwise(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """``pairwise_accuracy`` of a ``schedule=matched`` run with its CI and counts."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric pairwise",
            PAIRWISE_KEYS,
            lambda: pairwise_accuracy_summary(scores, resamples, seed),
        )

    return compute


def tastybench_metrics(group: str, resamples: int, seed: int) -> list[Metric]:
    """The ``tastybench`` task's dataset-level metrics (ratings, recall, reliability, decisions).

    ``group``: the run's figure list (``specs.first_group_key``: ``matched`` or ``ratings``).
    scipy is imported when the task is built (``tastybench_task_metrics``), not here.
    """
    return [
        tastybench_ratings(resamples=resamples, seed=seed),
        tastybench_recall(resamples=resamples, seed=seed, matched=group == "matched"),
        tastybench_reliability(seed=seed),
        tastybench_decisions(),
        tastybench_pairwise(resamples=resamples, seed=seed),
    ]


@metric
def tastybench_figures(
    group: str = "ratings",
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Metric:
    """The ``tastybench`` figures the spec names for the run's schedule (``group``)."""
    bundle = tastybench_metrics(group, resamples, seed)
    return logged_figures(TASTYBENCH.first_names(group), bundle)


def tastybench_task_metric(schedule: str, resamples: int, seed: int) -> Metric:
    """The task's metric: the figures of its ``schedule``, with its bootstrap settings."""
    import_scipy()  # before the run, not on its event loop
    group = first_group_key(schedule)
    return tastybench_figures(group=group, resamples=resamples, seed=seed)


EXTRACTOR_FAILURES = ("extractor_failed", "extractor_refused")


@scorer(metrics=[tastybench_figures()])  # the task gives its settings
def tastybench_scorer(choice_method: ChoiceMethod = "parser_then_extractor") -> Scorer:
    """Score the pick that ``read_choice`` stored (or read it now when the solver did not)."""

    async def score(state: TaskState, target: Target) -> Score:
        result = stored_pick(state) or await read_pick(state, choice_method)
        extractor_failed = result.unclear_reason in EXTRACTOR_FAILURES
        reason = GRADER_FAILED if extractor_failed else INVALID_RESPONSE_FORMAT
        first_won = NAN if result.choice is None else float(result.choice == 1)
        agree = NAN
        if result.choice is not None and target.text in ("1", "2"):
            agree = float(str(result.choice) == target.text)
        return Score(
            value={
                "first_won": first_won,
                "unclear": float(result.choice is None),
                "agree": agree,
                "extractor_used": float(result.method == "extractor"),
                "extractor_failed": float(extractor_failed),
                # Unread by parser and extractor alike (not an extractor call that failed).
                "unparsed": float(result.choice is None and not extractor_failed),
            },
            answer="unclear" if result.choice is None else str(result.choice),
            reason=reason if result.choice is None else None,
            explanation=(
                f"picked Project {result.choice} (read by {result.method})"
                if result.choice is not None
                else f"unclear ({result.unclear_reason})"
            ),
            metadata={
                "choice_method": choice_method,
                "read_by": result.method,
                "unclear_reason": result.unclear_reason,
                "extractor_reply": result.extractor_reply,
                **recall_fields(TASTYBENCH, state),
            },
        )

    return score


# The metric's figures: the spec's list, stated there once.
ROUND_KEYS = list(TASTYBENCH_ROUND.first_names())


def _stamp(value: Any) -> float:
    return value.timestamp() if value is not None else NAN


@scorer(metrics=[])
def round_pairwise_scorer(labels: str | None = None, round: str | None = None) -> Scorer:
    """The stored pick of a round's sample with its items' labels (``labels``: a labels CSV)
    and the round's own counts and ``judge_by`` (``core/round_figures.py``; ``round``: the
    round folder, when no labels file names it)."""
    table = read_labels(labels) if labels else None
    counts, judge_by = round_figures(table, round)

    async def score(state: TaskState, target: Target) -> Score:
        pick = stored_pick(state)
        choice = pick.choice if pick is not None else parse_judge_answer(state.output.completion)
        decided = decision_time(transcript().events)
        values: dict[str, float] = {
            "first_won": NAN if choice is None else float(choice == 1),
            "unclear": float(choice is None),
            "decided_at": _stamp(decided),
            "judge_by": _stamp(judge_by),
            **count_values(counts),
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
    # the round's paired items (core.rounds.ItemCounts), else those of the samples scored
    counts = counts_from_values(map(_value, scores)) or item_counts(items.values())
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
