"""SciJudgeBench: which of two arXiv papers (title, abstract, date) has more citations?

Tong et al., "AI Can Learn Scientific Taste" (arXiv 2603.14473); data: the Hugging Face dataset
``OpenMOSS-Team/SciJudgeBench`` (Apache-2.0). Every pair is asked in both orders (a row and its
swapped twin, one sample each); the headline is the paper's pairwise accuracy with
position-swap consistency (a couple counts only when both orders are right), the mean over
pairs with a pair-bootstrap CI, beside its clean twin.
Parameters: ``scijudge/README.md``.
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.scijudge.dataset import (
    DATASET_ID,
    DEFAULT_REVISION,
    PromptChoice,
    SplitChoice,
    load_rows,
)
from research_taste_evals.scijudge.metrics import scijudge_figures
from research_taste_evals.scijudge.scorer import scijudge_scorer
from research_taste_evals.scijudge.solvers import scijudge_solver
from research_taste_evals.scijudge.specs import SCIJUDGE

BENCHMARK = "SciJudgeBench (Tong et al. 2026)"
# The paper states no decoding for the API models it evaluates; the SciJudge models' cards
# sample at temperature 0.7, top-p 0.8, top-k 20, 2,048 new tokens. The task sets none, so
# Inspect's flags apply; the values in effect are the log's plan config.
GENERATION_NOTE = {
    "task_default": "none: the model's own defaults, or --temperature/--top-p/--max-tokens",
    "in_effect": "the log's plan.config (Inspect records the generation settings of the run)",
    "paper": "unstated for API models; SciJudge model cards: temperature 0.7, top-p 0.8, "
    "top-k 20, 2,048 new tokens",
}
# The paper asks each order once (section 4.1): no re-ask of an unreadable answer by default.
PAPER_REASK = 0


@task
@task_entry({"bootstrap_resamples": (1, None), "reask": (0, None)})
def scijudge(
    data_path: str | None = None,
    split: SplitChoice = "test",
    revision: str = DEFAULT_REVISION,
    prompt: PromptChoice = "dataset",
    reask: int = PAPER_REASK,
    knowledge_cutoff: str | None = None,
    recall_probe: bool = True,
    bootstrap_resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Task:
    """SciJudgeBench: predict which of two papers has the higher citation count.

    Args:
        data_path (str | None): A local JSONL in the dataset's row format, or ``demo`` (the
            shipped offline rows); None reads ``split`` from the Hub. Defaults to ``None``.
        split (Literal['test', 'test_ood_iclr', 'test_ood_year']): The Hub split (the
            paper's main in-domain set, 1,000 pairs; ICLR pairs labelled by review rating,
            611; 2025 papers, 904). Defaults to ``'test'``.
        revision (str): Hub revision of the dataset (a branch, tag or commit); the log
            records the commit it resolved to. Defaults to ``'main'``.
        prompt (Literal['dataset', 'tastybench']): ``dataset``: each row's own messages (the
            paper's prompt); ``tastybench``: the pair in TastyBench's judge wording. Defaults
            to ``'dataset'``.
        reask (int): Times an unreadable answer is asked again, afresh (0: the paper's
            protocol; above 0 the log marks the run ``paper_faithful.reask: false``).
            Defaults to ``0``.
        knowledge_cutoff (str | None): ``YYYY-MM`` or ``YYYY-MM-DD``: the evaluated model's
            knowledge cutoff, overriding Inspect's model info. Defaults to ``None``.
        recall_probe (bool): Ask the model once per paper which paper its abstract describes.
            Defaults to ``True``.
        bootstrap_resamples (int): Resamples of the pair bootstrap CIs. Defaults to
            ``1000``.
        bootstrap_seed (int): Seed of the pair bootstrap. Defaults to ``20241029``.
    """
    solver = scijudge_solver(knowledge_cutoff, recall_probe, prompt, reask)
    loaded = load_rows(data_path, split, revision, prompt)
    return Task(
        dataset=loaded.dataset,
        solver=solver,
        scorer=scijudge_scorer(),
        metrics=[scijudge_figures(bootstrap_resamples, bootstrap_seed)],
        headline_metric=HeadlineMetric(metric=SCIJUDGE.headline),
        version=task_version(__file__, "scijudge"),
        metadata={
            **provenance(
                benchmark=BENCHMARK,
                source=f"local:{loaded.metadata['data_path']}"
                if data_path is not None
                else f"hf://datasets/{DATASET_ID}/{split}.jsonl",
                revision=loaded.metadata["data_revision"],
                sha256=loaded.metadata["data_sha256"],
                prompt_variant=prompt,
                # Both orders of every pair, a pair right only when both are (position-swap
                # consistency, section 4.1): the paper's metric.
                paper_faithful={
                    "data": data_path is None,
                    "prompt": prompt == "dataset",
                    "metric": True,
                    "reask": reask == PAPER_REASK,
                },
            ),
            **loaded.metadata,
            "reask": reask,
            "generation": GENERATION_NOTE,
            "knowledge_cutoff_arg": None if knowledge_cutoff is None else str(knowledge_cutoff),
            "recall_probe": recall_probe,
            "bootstrap_resamples": bootstrap_resamples,
            "bootstrap_seed": bootstrap_seed,
        },
    )
