"""ReviewCritique scorer: per-review confusion counts for four strategies, failures, explanations.

Positive class = deficient (reliability "No"). Strategies (AAAR-1.0 Section 5.4): Labeling-All,
Select-Deficient, Both "No" (deficient if both prompts say so) and Either "No" (if either does).

Failure policy ("strict", the only one): a segment with no decision under a prompt (its answer
did not parse, or Labeling-All omitted the id) is left out of that prompt's P/R/F1 and counted
as unscored; an ensemble scores a segment only when both prompts decided it. Nothing is ever
defaulted to "reliable". Select-Deficient decides every segment once it parses (not listing an
id means "reliable" under that prompt).

The value holds counts only, so Inspect's epoch mean keeps pooled ratios exact.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

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
    reviewcritique_metrics,
    type_key,
)
from research_taste_evals.reviewcritique.parsing import (
    PROMPTS,
    Prompt,
    PromptOutcome,
    parse_outcome,
)
from research_taste_evals.reviewcritique.solvers import ANSWERS_KEY


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


def confusion_value(
    segments: list[dict[str, Any]], outcomes: dict[Prompt, PromptOutcome]
) -> dict[str, float]:
    """Counts per strategy (tp/fp/fn/tn/unscored), per error type (tp/fn), per prompt failures."""
    value: dict[str, float] = {}
    gold_types = {s["error_type"] for s in segments if s["deficient"]}
    for strategy in STRATEGIES:
        for key in (*COUNT_KEYS, "unscored"):
            value[f"{strategy}_{key}"] = 0.0
        # Every key exists whatever the answers: Inspect's epoch reducer reads the first
        # epoch's keys from every epoch.
        for error_type in gold_types:
            for key in ("tp", "fn"):
                value[type_key(strategy, error_type, key)] = 0.0
    for segment in segments:
        label = int(bool(segment["deficient"]))
        decisions = strategy_decisions(
            outcomes["labeling_all"].deficient.get(segment["id"]),
            outcomes["select_deficient"].deficient.get(segment["id"]),
        )
        for strategy, decided in decisions.items():
            prediction = None if decided is None else int(decided)
            counts = decision_value(label, prediction, "strict")
            for key in COUNT_KEYS:
                value[f"{strategy}_{key}"] += counts[key]
            value[f"{strategy}_unscored"] += counts["unparsed"]
            if label == 1 and prediction is not None:
                for key in ("tp", "fn"):
                    value[type_key(strategy, segment["error_type"], key)] += counts[key]
    for prompt in PROMPTS:
        outcome = outcomes[prompt]
        value[f"{prompt}_unparsed"] = 0.0 if outcome.parsed else 1.0
        value[f"{prompt}_invented_ids"] = float(len(outcome.invented))
        value[f"{prompt}_duplicate_ids"] = float(len(outcome.duplicates))
        value[f"{prompt}_omitted_segments"] = float(len(outcome.omitted))
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


@scorer(metrics=[reviewcritique_metrics()])
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
            metadata={
                # Typed reason: at least one prompt's answer did not parse (the other may still
                # be scored; the per-prompt outcome says which).
                "reason": INVALID_RESPONSE_FORMAT if failed else None,
                **{prompt: outcomes[prompt].as_metadata() for prompt in PROMPTS},
            },
        )

    return score
