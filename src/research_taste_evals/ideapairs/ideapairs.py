"""Idea-pair forecasting: which of two ideas scores higher on a benchmark?

Mule et al., "Teaching Language Models to Forecast Research Success Through Comparative Idea
Evaluation" (2026): given a benchmark's research goal and two idea descriptions (results, names
and dates removed), predict the better idea. Pairs come from leaderboards through the builder
(``research-taste ideapairs build``); each pair is judged in both orders. Parameters:
``ideapairs/README.md`` ("Parameters of idea_pairs").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig

from research_taste_evals.core.answers import DEFAULT_REASK
from research_taste_evals.core.demo import refuse_data_path
from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.ideapairs.dataset import (
    ModeChoice,
    PromptChoice,
    SplitChoice,
    load_pairs,
    parse_tiers,
)
from research_taste_evals.ideapairs.metrics import PAPER_BOOTSTRAP_RESAMPLES
from research_taste_evals.ideapairs.scorer import idea_pairs_scorer, idea_pairs_task_metric
from research_taste_evals.ideapairs.solvers import TOP_LOGPROBS, idea_pairs_solver
from research_taste_evals.ideapairs.specs import IDEA_PAIRS

ReasoningEffort = Literal["minimal", "low", "medium", "high"]
REASONING_EFFORTS: tuple[ReasoningEffort, ...] = ("minimal", "low", "medium", "high")


@task
@task_entry({"bootstrap_resamples": (1, None), "reask": (0, None)})
def idea_pairs(
    pairs_file: str | None = None,
    split: SplitChoice = "test",
    tiers: str | None = None,
    logprobs: bool = True,
    reask: int = DEFAULT_REASK,
    reasoning_effort: ReasoningEffort | None = None,
    bootstrap_resamples: int = PAPER_BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
    prompt: PromptChoice = "paper",
    mode: ModeChoice = "pairs",
    knowledge_cutoff: str | None = None,
    recall_probe: bool = True,
    data_path: str | None = None,
) -> Task:
    """Idea pairs: predict which of two ideas scores higher on a benchmark (both orders judged).

    ``knowledge_cutoff`` (YYYY-MM-DD) overrides the model's cutoff from Inspect's model info;
    ``recall_probe`` asks the model once per idea which paper it describes (``recall.py``).

    Args:
        pairs_file (str | None): A pairs JSONL (schema ``ideapairs/1``, below). Defaults to
            ``None``.
        split (Literal['test', 'train', 'all']): Which pairs to evaluate. Defaults to
            ``'test'``.
        tiers (str | None): Sigma tiers to keep. Defaults to ``None``.
        logprobs (bool): Request token logprobs (``logprobs``, ``top_logprobs=5`` through
            Inspect's ``GenerateConfig``) for the calibration probability. Defaults to
            ``True``.
        reask (int): Times an answer breaking the answer contract is asked again, afresh (0
            = one call per order). Defaults to ``1``.
        reasoning_effort (Optional[Literal['minimal', 'low', 'medium', 'high']]): Passed to
            models that support it (``--reasoning-effort`` works too). Defaults to ``None``.
        bootstrap_resamples (int): Resamples of the bias report (appendix B.7.6: B =
            10,000). Defaults to ``10000``.
        bootstrap_seed (int): Seed of the bias bootstrap. Defaults to ``20241029``.
        prompt (Literal['paper', 'reasoning']): ``paper`` (section 5.1): the label 0 (Idea A
            better) or 1 only, no chain of thought, calibration from the label tokens'
            logprobs and never from a verbalised confidence; ``reasoning``: reason, then
            ``Answer: A|B`` and ``Confidence:`` (logged as ``prompt``). Defaults to
            ``'paper'``.
        mode (Literal['pairs', 'ranking']): ``pairs``: the tier pairs of the file;
            ``ranking`` (appendix B.10): every C(n,2) pair of the ideas of each leaderboard
            (and split) with >= 3 ideas in the file, reporting Top-1 and rank RMSE. Defaults
            to ``'pairs'``.
        knowledge_cutoff (str | None): ``YYYY-MM-DD``: the evaluated model's knowledge
            cutoff, overriding Inspect's (the only source for ``baseline/``, ``local/``,
            ``vllm/`` and other models Inspect does not know); see "Recall and
            contamination". Defaults to ``None``.
        recall_probe (bool): Ask the model, once per idea per run, which paper the idea text
            describes (the recognition probe). Defaults to ``True``.
        data_path (str | None): ``demo`` runs the task on its demo data, as for every task
            (``-T data_path=demo``); any other value is refused (the data argument is
            ``pairs_file``). Defaults to ``None``.
    """
    refuse_data_path("idea_pairs", data_path, "pairs_file")
    settings = IdeaPairsSettings(
        prompt=prompt,
        logprobs=logprobs,
        reask=reask,
        reasoning_effort=reasoning_effort,
        bootstrap_resamples=bootstrap_resamples,
        bootstrap_seed=bootstrap_seed,
        knowledge_cutoff=knowledge_cutoff,
        recall_probe=recall_probe,
    )
    solver = idea_pairs_solver(knowledge_cutoff, recall_probe, logprobs, prompt, reask)
    loaded = load_pairs(pairs_file, split, parse_tiers(tiers), prompt, mode)
    return Task(
        dataset=loaded.dataset,
        solver=solver,
        scorer=idea_pairs_scorer(),
        metrics=[idea_pairs_task_metric(mode, bootstrap_resamples, bootstrap_seed)],
        headline_metric=HeadlineMetric(metric=IDEA_PAIRS.headline_of(mode)),
        config=GenerateConfig(reasoning_effort=reasoning_effort),
        version=task_version(__file__, "idea_pairs"),
        metadata=_metadata(settings, loaded.metadata),
    )


@dataclass(frozen=True)
class IdeaPairsSettings:
    """The ``idea_pairs`` arguments its metadata records."""

    prompt: str
    logprobs: bool
    reask: int
    reasoning_effort: str | None
    bootstrap_resamples: int
    bootstrap_seed: int
    knowledge_cutoff: object
    recall_probe: bool


def _metadata(settings: IdeaPairsSettings, loaded: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance block, the pairs file's figures and the run's settings."""
    return {
        **provenance(
            benchmark="Idea pairs (Mule et al. 2026)",
            source=f"local:{loaded['pairs_file']}",
            sha256=loaded["pairs_file_sha256"],
            prompt_variant=f"restated ({settings.prompt})",
            # The pair data (section 4's anonymous URL) cannot be reached here, and appendix
            # C's prompts are images: the pairs come from our builder and the prompt restates
            # section 5.1 (paper: label only) or sections 2 and 5.2 (reasoning).
            paper_faithful={"data": False, "prompt": False, "metric": True},
        ),
        **loaded,
        "logprobs_requested": settings.logprobs,
        "reask": settings.reask,
        "top_logprobs": TOP_LOGPROBS if settings.logprobs else None,
        "reasoning_effort": settings.reasoning_effort,
        "bootstrap_resamples": settings.bootstrap_resamples,
        "bootstrap_seed": settings.bootstrap_seed,
        "chance_accuracy": 0.25,
        "knowledge_cutoff_arg": (
            None if settings.knowledge_cutoff is None else str(settings.knowledge_cutoff)
        ),
        "recall_probe": settings.recall_probe,
    }
