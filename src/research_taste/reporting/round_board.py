"""A difficulty-adjusted leaderboard over rounds (docs/rounds.md, "Ranking across rounds").

ForecastBench (Karger et al., ICLR 2025) ranks forecasters who answered different questions by a
difficulty-adjusted score: question difficulty is estimated from every forecaster with two-way
fixed effects, a missing forecast is imputed, and a forecaster that skipped more than 5% of the
questions is not ranked. This module does the same for pairwise rounds, as pure functions over a
tidy table of :class:`Decision` rows (one per model, round, pair and order) and the frame of each
round (:class:`RoundFrame`: the round's resolved, untied pairs, read from its ``pairs.csv`` and a
labels version, never from the log: a ``--limit`` run plans only the sliced samples).

- Coverage of a judgment: the share of the frame's ordered decisions answered readably and
  prospectively. Its headline scores every frame pair, an order not judged, unclear or not
  prospective at 0.5 (a coin, as ForecastBench imputes); ``answered`` is the accuracy over the
  readable prospective decisions only. Under :data:`MIN_COVERAGE` a judgment is partial: listed
  with that headline, never fitted.
- A round is used once resolved and at least ``min_pairs`` of its frame pairs were judged by two
  or more complete judgments.
- The fit: per (model, pair) correctness (the mean of its prospective orders, unclear 0.5) =
  model effect + pair effect, least squares over the complete judgments of the used rounds
  (:func:`_fit`); pairs judged by one model only carry no difficulty information
  and are left out (counted). Adjusted accuracy = model effect + mean pair effect over the pairs
  used, each pair once, so a model picking at random scores 0.5 (exactly so for one that judged
  every pair used). The 95% CI and the paired comparisons come from one seeded bootstrap that
  resamples pairs within each round and refits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED

MIN_COVERAGE = 0.95  # ForecastBench ranks no forecaster that skipped more than 5%
DEFAULT_MIN_PAIRS = 50
IMPUTED = 0.5  # a pair not judged, unclear or judged late: a coin
ORDERS = 2  # each frozen pair is judged in both orders


class Decision(NamedTuple):
    """One ordered decision: right (1.0), wrong (0.0) or unclear (None), and whether it was
    made before any label of its pair existed and within the judging window."""

    round: str
    pair: str
    model: str
    correct: float | None
    prospective: bool


@dataclass(frozen=True)
class RoundFrame:
    """A round's headline pairs (resolved, untied, no dropped item) and whether it is resolved
    (no item pending)."""

    round: str
    pairs: frozenset[str]
    resolved: bool


@dataclass(frozen=True)
class Judgment:
    """One model's judgment of one round against the round's frame."""

    round: str
    model: str
    pairs: int  # frame pairs
    coverage: float
    prospective_share: float  # of the decisions made on frame pairs
    headline: float  # every frame pair, missing orders at 0.5
    answered: float  # readable prospective decisions only
    scores: dict[str, float] = field(repr=False)  # pair -> its prospective orders' mean

    @property
    def complete(self) -> bool:
        return self.coverage >= MIN_COVERAGE


def judgment(decisions: Iterable[Decision], frame: RoundFrame, model: str) -> Judgment:
    """The coverage and headlines of ``model``'s decisions on ``frame`` (module docstring)."""
    orders: dict[str, list[float]] = {}  # pair -> prospective orders' scores, unclear 0.5
    readable: list[float] = []
    made = prospective = 0
    for row in decisions:
        if row.model != model or row.round != frame.round or row.pair not in frame.pairs:
            continue
        made += 1
        if not row.prospective:
            continue
        prospective += 1
        orders.setdefault(row.pair, []).append(IMPUTED if row.correct is None else row.correct)
        if row.correct is not None:
            readable.append(row.correct)
    n = len(frame.pairs)
    filled = {
        pair: sum(values) + IMPUTED * (ORDERS - len(values)) for pair, values in orders.items()
    }
    headline = (sum(filled.values()) + IMPUTED * ORDERS * (n - len(filled))) / (ORDERS * n)
    return Judgment(
        round=frame.round,
        model=model,
        pairs=n,
        coverage=len(readable) / (ORDERS * n) if n else math.nan,
        prospective_share=prospective / made if made else math.nan,
        headline=headline if n else math.nan,
        answered=float(np.mean(readable)) if readable else math.nan,
        scores={pair: float(np.mean(values)) for pair, values in orders.items()},
    )


@dataclass(frozen=True)
class RoundUse:
    round: str
    pairs: int  # frame pairs
    shared_pairs: int  # frame pairs judged by at least two complete judgments
    used: bool
    reason: str  # why not used ("" when used)


@dataclass(frozen=True)
class ModelLine:
    model: str
    rounds: int  # rounds judged (any judgment)
    rounds_used: int  # used rounds with a complete judgment
    pairs: int  # pairs of the model in the fit
    coverage: float  # mean coverage over its judgments
    headline: float  # its judgments' headlines (missing pairs at 0.5), pooled over their pairs
    raw: tuple[float, float, float]  # pooled accuracy over its fitted pairs, CI low, high
    adjusted: tuple[float, float, float]  # adjusted accuracy, CI low, high
    ranked: bool
    reason: str  # why not ranked ("" when ranked)


@dataclass(frozen=True)
class Board:
    rounds: list[RoundUse]
    models: list[ModelLine]  # ranked first (adjusted, best first), then the others
    judgments: list[Judgment]
    beats: dict[tuple[str, str], float]  # (a, b) -> share of replicates with a above b, a != b
    single_model_pairs: int  # pairs of used rounds judged by one model only, left out
    all_rounds: list[str]  # models with a complete judgment of every round listed
    resamples: int
    # ranked model -> share of replicates in which it is first (k tied at the top: 1/k each)
    top_share: dict[str, float] = field(default_factory=dict)


def _nan3() -> tuple[float, float, float]:
    return (math.nan, math.nan, math.nan)


def round_use(
    frames: list[RoundFrame], judgments: list[Judgment], min_pairs: int
) -> list[RoundUse]:
    """Whether each round is used (resolved, ``min_pairs`` frame pairs shared), with why not."""
    out = []
    for frame in frames:
        counts: dict[str, int] = {}
        for item in judgments:
            if item.round == frame.round and item.complete:
                for pair in item.scores:
                    counts[pair] = counts.get(pair, 0) + 1
        shared = sum(count >= 2 for count in counts.values())
        reason = (
            "not resolved (items pending)"
            if not frame.resolved
            else f"{shared} pairs judged by two or more models, fewer than --min-pairs {min_pairs}"
            if shared < min_pairs
            else ""
        )
        out.append(RoundUse(frame.round, len(frame.pairs), shared, not reason, reason))
    return out


def _fit(
    scores: np.ndarray, judged: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(adjusted, raw), replicates x models: weighted least squares of score = model effect +
    pair effect. ``scores`` and ``judged`` are models x pairs (a score where ``judged``);
    ``weights`` replicates x pairs, each pair's weight (a bootstrap's draw counts; the point
    estimate: one row of ones). NaN for a model with no weight in a replicate.

    The pair effects are absorbed first (Frisch-Waugh-Lovell, as fixed-effects software does:
    given the model effects a, a pair's effect is its mean residual), leaving per replicate one
    models x models system L a = r, solved by numpy's pseudo-inverse for every replicate at
    once; L is singular along the common shift of all model effects, which the adjusted figure
    does not depend on (the shift moves every pair effect back)."""
    n_models = judged.shape[0]
    per_pair = judged.sum(axis=0)  # models judging each pair (two or more)
    mean_score = (scores * judged).sum(axis=0) / per_pair
    share = weights / per_pair  # replicates x pairs
    # L = diag(A w) - A diag(w / n) A^T, every replicate by one product
    outer = (judged[:, None, :] * judged[None, :, :]).reshape(n_models * n_models, -1)
    weight_of = weights @ judged.T  # replicates x models
    system = np.einsum("bm,mk->bmk", weight_of, np.eye(n_models))
    system -= (share @ outer.T).reshape(-1, n_models, n_models)
    residual = (judged * (scores - mean_score)).T  # pairs x models
    effects = np.einsum(
        "bmk,bk->bm", np.linalg.pinv(system, rcond=1e-10, hermitian=True), weights @ residual
    )
    difficulty = mean_score - (effects @ judged) / per_pair  # replicates x pairs
    mean_pair = np.sum(weights * difficulty, axis=1) / np.sum(weights, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = (weights @ (judged * scores).T) / weight_of
    adjusted = np.where(weight_of > 0, effects + mean_pair[:, None], np.nan)
    return adjusted, raw


def _connected(models: np.ndarray, pairs: np.ndarray, n_models: int) -> np.ndarray:
    """The models of the largest component of the model-pair graph: effects are comparable
    only within a component (two rounds with no model in common share no scale)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n_pairs = int(pairs.max()) + 1
    graph = csr_matrix(
        (np.ones(len(models)), (models, n_models + pairs)), shape=(n_models + n_pairs,) * 2
    )
    _, labels = connected_components(graph, directed=False)
    model_labels = labels[:n_models]
    biggest = np.bincount(labels[n_models + pairs]).argmax()
    return np.asarray(model_labels == biggest)


def board(
    decisions: list[Decision],
    frames: list[RoundFrame],
    min_pairs: int = DEFAULT_MIN_PAIRS,
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Board:
    """The adjusted leaderboard of every model over ``frames`` (module docstring)."""
    by_round: dict[str, list[Decision]] = {}
    for row in decisions:
        by_round.setdefault(row.round, []).append(row)
    judgments = [
        judgment(by_round.get(frame.round, []), frame, model)
        for frame in frames
        for model in sorted({row.model for row in by_round.get(frame.round, [])})
    ]
    uses = round_use(frames, judgments, min_pairs)
    used = {use.round for use in uses if use.used}
    names = sorted({item.model for item in judgments})
    index = {name: k for k, name in enumerate(names)}
    fitted = [item for item in judgments if item.complete and item.round in used]
    judged_by: dict[tuple[str, str], int] = {}
    for item in fitted:
        for pair in item.scores:
            judged_by[(item.round, pair)] = judged_by.get((item.round, pair), 0) + 1
    shared = sorted(key for key, count in judged_by.items() if count >= 2)
    pair_index = {key: k for k, key in enumerate(shared)}
    triples = [
        (index[item.model], pair_index[(item.round, pair)], score)
        for item in fitted
        for pair, score in item.scores.items()
        if (item.round, pair) in pair_index
    ]
    models = np.array([t[0] for t in triples], dtype=int)
    pairs = np.array([t[1] for t in triples], dtype=int)
    n = len(names)
    judged = np.zeros((n, len(shared)))
    scores = np.zeros((n, len(shared)))
    judged[models, pairs] = 1.0
    scores[models, pairs] = [t[2] for t in triples]
    point_adj = point_raw = np.full(n, np.nan)
    reps_adj = reps_raw = np.full((0, n), np.nan)
    comparable = np.zeros(n, dtype=bool)
    if len(shared):
        comparable = _connected(models, pairs, n)
        point_adj, point_raw = (fit[0] for fit in _fit(scores, judged, np.ones((1, len(shared)))))
        rng = np.random.default_rng(seed)
        # resample pairs within each round: a replicate's weight of a pair is its draw count
        rounds_of = np.array([key[0] for key in shared])
        draws = np.zeros((resamples, len(shared)))
        for name in sorted(set(rounds_of)):
            where = np.flatnonzero(rounds_of == name)
            share = np.full(len(where), 1 / len(where))
            draws[:, where] = rng.multinomial(len(where), share, size=resamples)
        reps_adj, reps_raw = _fit(scores, judged, draws)
    lines = []
    for name in names:
        k = index[name]
        mine = [item for item in judgments if item.model == name]
        in_fit = [item for item in fitted if item.model == name]
        count = int(np.sum(models == k))
        reason = (
            f"coverage under {MIN_COVERAGE:.0%} on every round it judged"
            if not any(item.complete for item in mine)
            else "judged only rounds not used"
            if not in_fit
            else "every pair it judged was judged by no other model"
            if count == 0
            else "shares no pair with the ranked models (no common scale)"
            if not comparable[k]
            else ""
        )

        lines.append(
            ModelLine(
                model=name,
                rounds=len(mine),
                rounds_used=len(in_fit),
                pairs=count,
                coverage=float(np.mean([item.coverage for item in mine])),
                headline=_pooled_headline(mine),
                raw=_interval(point_raw, reps_raw, k) if count else _nan3(),
                # an unranked model's effect is on no common scale with the ranked ones
                adjusted=_interval(point_adj, reps_adj, k) if not reason else _nan3(),
                ranked=not reason,
                reason=reason,
            )
        )
    lines.sort(key=lambda line: (not line.ranked, -_finite(line.adjusted[0]), line.model))
    ranked = [line.model for line in lines if line.ranked]
    beats = {
        (a, b): float(np.mean(reps_adj[:, index[a]] > reps_adj[:, index[b]]))
        for a in ranked
        for b in ranked
        if a != b
    }
    complete_rounds = {(item.model, item.round) for item in judgments if item.complete}
    return Board(
        top_share=_top_share(reps_adj, [index[name] for name in ranked], ranked),
        rounds=uses,
        models=lines,
        judgments=judgments,
        beats=beats,
        single_model_pairs=sum(count == 1 for count in judged_by.values()),
        all_rounds=[
            name
            for name in names
            if all((name, frame.round) in complete_rounds for frame in frames)
        ],
        resamples=resamples,
    )


def _top_share(reps: np.ndarray, columns: list[int], names: list[str]) -> dict[str, float]:
    """Each ranked model's share of the bootstrap replicates in which it is first (ForecastBench's
    "Pct times No. 1"); a replicate where k models tie at the top counts 1/k for each."""
    if not columns or not len(reps):
        return dict.fromkeys(names, math.nan)
    ranked = reps[:, columns]
    top = ranked == np.nanmax(ranked, axis=1, keepdims=True)
    shares = np.mean(top / top.sum(axis=1, keepdims=True), axis=0)
    return {name: float(share) for name, share in zip(names, shares, strict=True)}


def _pooled_headline(judgments: list[Judgment]) -> float:
    """The headline over every pair of the judgments (each pair once, missing at 0.5): what a
    partial judgment is listed with, as it is not fitted."""
    counted = [item for item in judgments if item.pairs]
    total = sum(item.pairs for item in counted)
    return sum(item.headline * item.pairs for item in counted) / total if total else math.nan


def _interval(point: np.ndarray, reps: np.ndarray, k: int) -> tuple[float, float, float]:
    """A model's point estimate and its 95% percentile bootstrap interval."""
    if not len(reps) or np.all(np.isnan(reps[:, k])):
        return float(point[k]), math.nan, math.nan
    low, high = np.nanpercentile(reps[:, k], [2.5, 97.5])
    return float(point[k]), float(low), float(high)


def _finite(value: float) -> float:
    return value if math.isfinite(value) else -math.inf
