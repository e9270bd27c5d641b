"""ExpDesign scoring: En-Precision / En-Recall / En-F1 from an entailment judge (experiment list);
S-Match, ROUGE-1 and ROUGE-L (explanations of the oracle experiments).

Follows RenzeLou/AAAR-1.0 ``calculate_metrics_subtask2_exp_entailment.v2.py`` (one judge call per
item with ``Exp_entailment_v2``: a predicted experiment against all reference experiments joined
by spaces, and each reference experiment against all predicted ones; temperature 1, top-p 0.99,
720 max tokens; ``judge_prompt="v1"``: ``calculate_metrics_subtask2_exp_entailment.py``, every
(reference, predicted) pair judged with ``Exp_entailment``, aggregated with ``np.any``),
``subtask2_metric_llm_as_judge.py`` (per-paper F1, then means over ALL papers, a paper with no
predicted experiment counting 0) and ``calculate_metrics_src.py``
(``soft_score`` and ``rouge_score``). Each judge call goes through the package's one grading
path (:func:`research_taste_evals.core.grading.grade_member`): a provider error, a refusal or an
answer with no 0/1 is a typed failure of that call, counted, never a failed sample.
"""

from __future__ import annotations

import asyncio

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.embedding_models import aaar_embedder
from research_taste_evals.aaar.scorer.expdesign_judge import (
    JudgePrompt,
    en_scores,
    faithful_decision,
    judge_lists,
    judge_spec,
    strict_decision,
)
from research_taste_evals.aaar.scorer.task_metrics import expdesign_figures
from research_taste_evals.aaar.similarity import rouge_scorer_instance, rouge_scores, s_match
from research_taste_evals.aaar.solvers import (
    EXPLANATION_ATTEMPTS_KEY,
    PREDICTED_EXPERIMENTS_KEY,
    PREDICTED_EXPLANATIONS_KEY,
)
from research_taste_evals.aaar.specs import EXPDESIGN
from research_taste_evals.core.reasons import GRADER_FAILED, INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.roles import role_models


@scorer(metrics=[expdesign_figures()])
def expdesign_scorer(
    judge_model: str | None,
    embedding_model: str,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
    judge_prompt: JudgePrompt = "v2",
    judge_cache: bool = False,
) -> Scorer:
    """Score one paper: judge the experiment lists, embed and ROUGE the explanations.

    Judge calls, embedding (in a worker thread) and ROUGE (in a worker thread) run concurrently.
    Strict and faithful En-P/R/F1 come from the same judge answers.
    """
    embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    rouge_scorer_instance()  # import rouge_score/NLTK now, not in a worker thread mid-scoring

    async def score(state: TaskState, target: Target) -> Score:
        judge = role_models(judge_spec(judge_model))[0]
        predicted: list[str] = state.store.get(PREDICTED_EXPERIMENTS_KEY, [])
        reference: list[str] = state.metadata["experiments"]
        explanations: list[str] = state.store.get(PREDICTED_EXPLANATIONS_KEY, [])
        reference_explanations: list[str] = state.metadata["explanations"]
        judged, embeddings, (r1, rl) = await asyncio.gather(
            judge_lists(judge, predicted, reference, judge_prompt, judge_cache),
            embedder.aencode_lists([explanations, reference_explanations]),
            asyncio.to_thread(rouge_scores, explanations, reference_explanations),
        )
        precision_decisions, recall_decisions = judged.decisions(strict_decision)
        p, r, f1 = en_scores(precision_decisions, recall_decisions)
        fp, fr, ff1 = en_scores(*judged.decisions(faithful_decision))
        results = judged.calls
        failures = [result for result in results if not result.ok]
        unparsed = sum(1 for result in failures if result.failure == "unparseable")
        errors = sum(1 for result in failures if result.failure == "model_error")
        reason = None
        if not predicted:
            reason = INVALID_RESPONSE_FORMAT
        elif failures:
            reason = GRADER_FAILED
        return Score(
            value={
                "en_precision": p,
                "en_recall": r,
                "en_f1": f1,
                "faithful_en_precision": fp,
                "faithful_en_recall": fr,
                "faithful_en_f1": ff1,
                "s_match": s_match(embeddings[0], embeddings[1]),
                "rouge_1": r1,
                "rouge_l": rl,
                "judge_calls": float(len(results)),
                "judge_unparsed": float(unparsed),
                "judge_failed": float(len(failures)),
                "judge_errors": float(errors),
                "empty_prediction": float(not predicted),
                "reasked": float((state.store.get(EXPLANATION_ATTEMPTS_KEY) or 1) > 1),
                "explanation_failed": float(not explanations),
            },
            answer="\n".join(predicted),
            reason=reason,
            explanation=(
                f"{len(predicted)} predicted vs {len(reference)} reference experiments; judge "
                f"entailed {sum(d or 0 for d in precision_decisions)} predicted and "
                f"{sum(d or 0 for d in recall_decisions)} reference items; {len(failures)} of "
                f"{len(results)} judge calls failed ({unparsed} unparseable, {errors} provider "
                f"errors); "
                f"{len(explanations)} explanations for {len(reference_explanations)} references"
            ),
            metadata={
                "judge_model": str(judge),
                "judge_prompt": judge_prompt,
                "precision_decisions": precision_decisions,
                "recall_decisions": recall_decisions,
                "judge_answers": [result.completion for result in results],
                "judge_failures": [
                    {"call": result.index, "kind": result.failure, "detail": result.detail}
                    for result in failures
                ],
                "predicted_explanations": explanations,
                "explanation_attempts": state.store.get(EXPLANATION_ATTEMPTS_KEY),
                "embedding_model": embedder.model_id,
                "embedding_revision": embedder.revision,
            }
            | recall_fields(EXPDESIGN, state),
        )

    return score
