"""ReviewCritique scorer: per-review confusion counts for four strategies, failures, explanations.

Positive class = deficient (reliability "No"). Strategies (AAAR-1.0 Section 5.4): Labeling-All,
Select-Deficient, Both "No" (deficient if both prompts say so) and Either "No" (if either does).

Failure policy (issue #17, "honest denominators"): a segment may have no decision under a
prompt (its answer did not parse even after the re-ask, Labeling-All omitted the id, or gave it
contradictory labels). Two sets of counts are kept, each the same segment set for all four
strategies:

- **headline** (``<s>_tp/fp/fn/tn``): every segment of every review. A segment without a
  decision is not flagged, so an undecided deficient segment is a false negative (missed): an
  unparsed answer never shrinks the denominator of recall. An ensemble reads an undecided
  prompt as "not flagged" too.
- **parsed-only** (``<s>_parsed_only_*``): only the segments both prompts decided, so the
  ensembles and the single strategies are compared on exactly the same segments.

``<s>_unscored`` counts the segments without that strategy's own decision (an ensemble's when
either prompt has none), ``<s>_undecided_deficient`` the deficient ones among them.

The value holds counts only, so Inspect's epoch mean keeps pooled ratios exact.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.answers import reasked
from research_taste_evals.core.metrics import COUNT_KEYS, decision_value
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.reviewcritique.explanation import (
    BertScore,
    rouge_scorer_instance,
    rouge_triplets,
)
from research_taste_evals.reviewcritique.metrics import (
    EXPLANATION_MEASURES,
    STRATEGIES,
    reviewcritique_figures,
    type_key,
)
from research_taste_evals.reviewcritique.parsing import (
    PROMPTS,
    Prompt,
    PromptOutcome,
    parse_outcome,
)
from research_taste_evals.reviewcritique.solvers import ANSWERS_KEY, ATTEMPTS_KEY

PARSED_ONLY = "parsed_only"


def strategy_decisions(
    labeling_all: bool | None, select_deficient: bool | None
) -> dict[str, bool | None]:
    """Each strategy's decision on one segment (None = no decision)."""
    both_decided = labeling_all is not None and select_deficient is not None
    return {
        "labeling_all": labeling_all,
        "select_deficient": select_deficient,
        "both_no": (labeling_all and select_deficient) if both_decided else None,
        "either_no": (labeling_all or select_deficient) if both_decided else None,
    }


def _count(value: dict[str, float], prefix: str, label: int, prediction: int) -> None:
    counts = decision_value(label, prediction, "strict")
    for key in COUNT_KEYS:
        value[f"{prefix}_{key}"] += counts[key]


def confusion_value(
    segments: list[dict[str, Any]], outcomes: dict[Prompt, PromptOutcome]
) -> dict[str, float]:
    """Counts per strategy (headline and parsed-only), per error type, per prompt failures."""
    value: dict[str, float] = {"segments": float(len(segments)), "parsed_only_segments": 0.0}
    gold_types = {s["error_type"] for s in segments if s["deficient"]}
    for strategy in STRATEGIES:
        for key in COUNT_KEYS:
            value[f"{strategy}_{key}"] = 0.0
            value[f"{strategy}_{PARSED_ONLY}_{key}"] = 0.0
        value[f"{strategy}_unscored"] = 0.0
        value[f"{strategy}_undecided_deficient"] = 0.0
        # Every key exists whatever the answers: Inspect's epoch reducer reads the first
        # epoch's keys from every epoch.
        for error_type in gold_types:
            for key in ("tp", "fn"):
                value[type_key(strategy, error_type, key)] = 0.0
    for segment in segments:
        label = int(bool(segment["deficient"]))
        by_prompt = {p: outcomes[p].deficient.get(segment["id"]) for p in PROMPTS}
        decisions = strategy_decisions(by_prompt["labeling_all"], by_prompt["select_deficient"])
        decided_by_both = all(d is not None for d in by_prompt.values())
        value["parsed_only_segments"] += float(decided_by_both)
        for strategy, decided in decisions.items():
            if decided is None:
                value[f"{strategy}_unscored"] += 1
                value[f"{strategy}_undecided_deficient"] += label
                # Headline: undecided = not flagged. For an ensemble, the undecided prompt
                # does not flag it, so Either "No" still follows the other prompt.
                decided = (
                    bool(by_prompt["labeling_all"]) or bool(by_prompt["select_deficient"])
                    if strategy == "either_no"
                    else False
                )
            prediction = int(decided)
            _count(value, strategy, label, prediction)
            if decided_by_both:
                _count(value, f"{strategy}_{PARSED_ONLY}", label, prediction)
            if label == 1:
                value[type_key(strategy, segment["error_type"], "tp" if prediction else "fn")] += 1
    for prompt in PROMPTS:
        outcome = outcomes[prompt]
        value[f"{prompt}_unparsed"] = 0.0 if outcome.parsed else 1.0
        value[f"{prompt}_invented_ids"] = float(len(outcome.invented))
        value[f"{prompt}_duplicate_ids"] = float(len(outcome.duplicates))
        value[f"{prompt}_contradictory_ids"] = float(len(outcome.contradictory))
        value[f"{prompt}_omitted_segments"] = float(len(outcome.omitted))
    value["unparsed"] = sum(value[f"{prompt}_unparsed"] for prompt in PROMPTS)
    return value


def explanation_pairs(
    segments: list[dict[str, Any]], outcome: PromptOutcome
) -> tuple[list[str], list[str], int]:
    """(model, human) explanations of correctly flagged segments; and how many lack a human one."""
    predictions, references, no_reference = [], [], 0
    for segment in segments:
        if not (segment["deficient"] and outcome.deficient.get(segment["id"])):
            continue
        reference = segment.get("explanation")
        if not reference or not str(reference).strip():
            no_reference += 1
            continue
        predictions.append(outcome.explanations.get(segment["id"], ""))
        references.append(str(reference))
    return predictions, references, no_reference


def explanation_value(
    prompt: str, predictions: list[str], references: list[str], bert: BertScore
) -> dict[str, float]:
    """Sums of ROUGE-1/2/L and BERTScore F1 over the pairs, and the pair counts (CPU work)."""
    sums = dict.fromkeys(EXPLANATION_MEASURES, 0.0)
    for triplet in rouge_triplets(predictions, references):
        for name, score in triplet.items():
            sums[name] += score
    bert_scores = bert.f1(predictions, references)
    scored = [s for s in bert_scores if s == s]  # NaN when the model is unavailable
    sums["bertscore"] = sum(scored)
    value = {f"{prompt}_{name}_sum": total for name, total in sums.items()}
    value[f"{prompt}_explained"] = float(len(predictions))
    value[f"{prompt}_bertscore_scored"] = float(len(scored))
    return value


# The task's one metric (the figures its log holds); the task declares it again with its
# bootstrap settings and BERTScore baseline (reviewcritique_scorers).
@scorer(metrics=[reviewcritique_figures()])  # the task gives its settings
def reviewcritique_scorer(bert: BertScore) -> Scorer:
    """Score both answers on one review; ROUGE/BERTScore run in a worker thread."""
    rouge_scorer_instance()  # import rouge_score/NLTK now, not in a worker mid-run

    async def score(state: TaskState, target: Target) -> Score:
        segments: list[dict[str, Any]] = state.metadata["segments"]
        answers: dict[str, str] = state.store.get(ANSWERS_KEY) or {}
        outcomes = {
            prompt: parse_outcome(prompt, answers.get(prompt, ""), len(segments))
            for prompt in PROMPTS
        }
        value = confusion_value(segments, outcomes)
        attempts: dict[str, list[str]] = state.store.get(ATTEMPTS_KEY) or {}
        for prompt in PROMPTS:
            value[f"{prompt}_reasked"] = reasked(attempts.get(prompt))
        value["reasked"] = sum(value[f"{prompt}_reasked"] for prompt in PROMPTS)
        no_reference = {}
        for prompt in PROMPTS:
            predictions, references, no_reference[prompt] = explanation_pairs(
                segments, outcomes[prompt]
            )
            value.update(
                await asyncio.to_thread(explanation_value, prompt, predictions, references, bert)
            )
            value[f"{prompt}_explained_no_reference"] = float(no_reference[prompt])
        failed = [prompt for prompt in PROMPTS if not outcomes[prompt].parsed]
        return Score(
            value=value,
            answer=state.output.completion,
            explanation=(
                f"{len(segments)} segments, {sum(s['deficient'] for s in segments)} deficient; "
                + "; ".join(
                    f"{p}: {'parsed' if outcomes[p].parsed else 'UNPARSED'}" for p in PROMPTS
                )
            ),
            # Typed reason: at least one prompt's answer did not parse (the other may still be
            # scored; the per-prompt outcome in metadata says which).
            reason=INVALID_RESPONSE_FORMAT if failed else None,
            metadata={prompt: outcomes[prompt].as_metadata() for prompt in PROMPTS},
        )

    return score
