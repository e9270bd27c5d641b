"""The simulated venue: an offline, seeded conference whose reviews and decisions appear as its
clock moves, so a round can be opened, judged, resolved and ranked with no network and no key.

Each submission has a hidden latent quality ``q`` in [0, 1]. It shapes two things, and nothing
else depends on it:

- the abstract's *evidence sentence*: one of three tiers of wording (``q`` >= 2/3: benchmarks,
  ablations, released code; ``q`` >= 1/3: a few benchmarks against baselines; else a toy
  example or a hope), so a reader who weighs evidence over hype can partly infer ``q``. Every
  other sentence (topic, method, an optional aside of random length) is drawn without ``q``;
  the tiers' sentences have similar lengths, so abstract length carries little of ``q``;
- the venue's future: each of three reviewers rates ``1 + 9 q`` plus Gaussian noise (sd 1.5),
  rounded and clipped to the 1-10 scale, posts the review 14 to 28 days after open and lists
  two weaknesses from its tier's pool; the decision (Accept when the mean rating is at least
  5.5, else Reject) is public 42 to 56 days after open.

The venue's state, its clock and every submission's future, is ``venue.json`` in the round
folder (the simulated service's own database: a real venue's server holds it; the round tasks
read ``items.csv``, ``pairs.csv`` and ``weakness_items.jsonl`` only, never this file). The
clock starts at the round's ``opened_at`` and moves only when the user moves it
(``research-taste round resolve ROUND --advance-days N``); a resolve sees the reviews and
decisions posted by the clock's time, through the conference resolve's label shape and checks
(``research_taste.rounds.simulated``).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError
from research_taste_evals.core.round_files import utc_iso, write_atomic, write_round_files
from research_taste_evals.core.round_manifest import RESOLVE_HINT_DAYS, SIMULATED_SOURCE, parse_time
from research_taste_evals.core.rounds import RoundItem

VENUE_FILE = "venue.json"
REVIEWERS = 3
RATING_SCALE = (1, 10)
RATING_NOISE_SD = 1.5
REVIEW_DAYS = (14, RESOLVE_HINT_DAYS)  # every review is public by day 28 after open
DECISION_DAYS = (42, 56)  # every decision by day 56
ACCEPT_AT = 5.5
LABEL_PLAN = {
    "kind": "rating",
    "prompt": "reviews",
    "forms": "simulated (the venue's own review form: rating 1-10, weaknesses)",
    "rating_scale": list(RATING_SCALE),
}
AREAS = ("optimization", "reinforcement learning", "graph learning", "language models")
_TOPICS = {
    "optimization": ("adaptive step sizes", "second-order methods", "learning-rate schedules"),
    "reinforcement learning": ("offline policy learning", "reward shaping", "exploration"),
    "graph learning": ("message passing", "graph transformers", "link prediction"),
    "language models": ("long-context modelling", "instruction tuning", "tokenization"),
}
_NAMES = ("Aster", "Basalt", "Cobalt", "Delta", "Ember", "Fjord", "Garnet", "Helix", "Iris")
_METHODS = ("a regularizer", "an estimator", "a training objective", "an architecture")
_ASIDES = (
    "The setting arises in practice.",
    "This question has been open for several years and matters for deployed systems.",
    "Prior work handles only a special case of it, under assumptions that rarely hold.",
)
# The evidence sentence by tier (high, middle, low): the one place the latent quality is shown.
EVIDENCE = (
    (
        "On {k} public benchmarks it beats the strongest baselines, with ablations and code.",
        "We prove a bound for it and confirm it on {k} benchmarks over five seeds each.",
    ),
    (
        "On {k} benchmarks it improves over two baselines in most of the settings tried.",
        "Experiments on {k} datasets show gains, though variance across seeds is not shown.",
    ),
    (
        "A small synthetic example suggests that the approach might help in some settings.",
        "We believe it could transform the field; a full evaluation is left to future work.",
    ),
)
_WEAKNESSES = (
    ("The compute cost of the method is not discussed.", "Some notation is left undefined."),
    ("Only two baselines are compared.", "Variance across seeds is not reported."),
    ("The evaluation is a single synthetic example.", "The claims lack experimental support."),
)


def tier(quality: float) -> int:
    """The evidence tier of a latent quality: 0 (high), 1 (middle), 2 (low)."""
    return 0 if quality >= 2 / 3 else 1 if quality >= 1 / 3 else 2


@dataclass(frozen=True)
class Submission:
    """A submission of the simulated venue: what open freezes (``item``, ``text``) and its
    hidden future (``future``: :func:`future_of`)."""

    item: RoundItem
    text: list[dict[str, str]]
    future: dict[str, Any]


def future_of(
    quality: float,
    rng: random.Random,
    opened_at: dt.datetime,
    weaknesses: Sequence[Sequence[str]] | None = None,
) -> dict[str, Any]:
    """A submission's reviews and decision (module docstring); ``weaknesses`` replaces the
    tier's pool with each reviewer's own list (the demo papers' written ones)."""
    reviews: list[dict[str, Any]] = []
    for index in range(REVIEWERS):
        rating = round(1 + 9 * quality + rng.gauss(0.0, RATING_NOISE_SD))
        posted = opened_at + dt.timedelta(days=rng.uniform(*REVIEW_DAYS))
        listed = (
            list(weaknesses[index % len(weaknesses)])
            if weaknesses
            else list(_WEAKNESSES[tier(quality)])
        )
        reviews.append(
            {
                "posted_at": utc_iso(posted),
                "rating": min(max(rating, RATING_SCALE[0]), RATING_SCALE[1]),
                "weaknesses": listed,
            }
        )
    mean = sum(review["rating"] for review in reviews) / len(reviews)
    decided = opened_at + dt.timedelta(days=rng.uniform(*DECISION_DAYS))
    return {
        "quality": round(quality, 4),
        "reviews": reviews,
        "decision": "Accept" if mean >= ACCEPT_AT else "Reject",
        "decided_at": utc_iso(decided),
    }


def ranked_qualities(values: Sequence[float]) -> list[float]:
    """Latent qualities in [0, 1] from any scores (their ranks; ties share the lower rank): the
    demo papers' qualities from their invented citation rates."""
    ordered = sorted(values)
    top = max(len(values) - 1, 1)
    return [ordered.index(value) / top for value in values]


def generate(seed: int, count: int, opened_at: dt.datetime) -> list[Submission]:
    """``count`` submissions drawn from ``seed`` (the same seed, the same venue), submitted in
    the 60 days before ``opened_at``, spread over :data:`AREAS`."""
    rng = random.Random(seed)
    out = []
    for index in range(count):
        area = AREAS[index % len(AREAS)]
        quality = rng.random()
        topic = rng.choice(_TOPICS[area])
        name = f"{rng.choice(_NAMES)}-{index + 1}"
        evidence = rng.choice(EVIDENCE[tier(quality)]).format(k=rng.randint(3, 12))
        aside = " ".join(rng.sample(_ASIDES, rng.randint(0, 2)))
        method = f"We introduce {name}, {rng.choice(_METHODS)} for {topic} in {area}."
        abstract = " ".join(filter(None, [f"We study {topic}.", aside, method, evidence]))
        day = (opened_at - dt.timedelta(days=rng.randint(1, 60))).date().isoformat()
        item = RoundItem(f"sim{seed}-{index + 1:04d}", f"{name}: {topic}", day, abstract, area)
        text = [
            {"heading": "Abstract", "text": abstract},
            {"heading": "Method", "text": method},
            {"heading": "Experiments", "text": evidence},
        ]
        out.append(Submission(item, text, future_of(quality, rng, opened_at)))
    return out


def weakness_record(submission: Submission) -> dict[str, Any]:
    """The PaperWeakness record of a submission (no ``output``: the reviews come later)."""
    item = submission.item
    return {
        "ID": item.item_id,
        "track": item.group or None,
        "input": {"title": item.title, "abstractText": item.abstract, "sections": submission.text},
        "submission_date": item.pub_date,
        "venue": SIMULATED_SOURCE,
    }


def write_simulated_round(
    out: Path,
    submissions: Sequence[Submission],
    opened_at: dt.datetime,
    judge_days: int,
    query: dict[str, Any],
    records: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Write the round (``core.round_files``: items, label-blind pairs, PaperWeakness records,
    ``round.json`` with source ``simulated``) and the venue's state (``venue.json``, its clock
    at ``opened_at``) into ``out``; the manifest. ``records``: the PaperWeakness records
    (default: each submission's :func:`weakness_record`; ``()``: none, no PaperWeakness)."""
    fields = {
        "source": SIMULATED_SOURCE,
        "query": query,
        "label_plan": dict(LABEL_PLAN),
        "counts": {"kept": len(submissions), "left_out": {}, "weakness_left_out": {}},
    }
    items = [s.item for s in submissions]
    if records is None:
        records = [weakness_record(s) for s in submissions]
    manifest = write_round_files(out, items, opened_at, judge_days, fields, records)
    state = {
        "clock": utc_iso(opened_at),
        "note": "the simulated venue's database (its future included): never give it to a "
        "judged model; `research-taste round resolve <round> --advance-days N` moves the clock",
        "submissions": {s.item.item_id: s.future for s in submissions},
    }
    write_atomic(out / VENUE_FILE, json.dumps(state, indent=1) + "\n")
    return manifest


def read_venue(folder: Path) -> dict[str, Any]:
    """The venue's state (``venue.json``), checked: its clock a time, a future per item.

    Raises:
        DataError: missing, unreadable, or a field of the wrong type (one sentence).
    """
    path = Path(folder) / VENUE_FILE
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DataError(f"{path}: the simulated venue's state cannot be read ({error})") from error
    if not isinstance(state, dict) or _time_or_none(state.get("clock")) is None:
        raise DataError(f"{path}: field 'clock' must be an ISO time")
    if not isinstance(state.get("submissions"), dict):
        raise DataError(f"{path}: field 'submissions' must be an object")
    return state


def _time_or_none(text: object) -> dt.datetime | None:
    try:
        return parse_time(text) if isinstance(text, str) else None
    except ValueError:
        return None


def venue_clock(folder: Path) -> dt.datetime:
    """The simulated venue's current time."""
    clock = _time_or_none(read_venue(folder)["clock"])
    assert clock is not None  # read_venue checked it
    return clock


def advance_clock(folder: Path, days: float) -> dt.datetime:
    """Move the venue's clock ``days`` forward (never back); its new time."""
    if not days >= 0:
        raise DataError(f"--advance-days {days}: a number of days of at least 0")
    state = read_venue(folder)
    clock = venue_clock(folder) + dt.timedelta(days=days)
    state["clock"] = utc_iso(clock)
    write_atomic(Path(folder) / VENUE_FILE, json.dumps(state, indent=1) + "\n")
    return clock
