"""The throwaway family's one task: a question per line, scored by whether the answer has its
word. Shaped like every task of the package (``scijudge/scijudge.py``): ``@task`` over
``task_entry``, no ``**kwargs`` (an unknown ``-T`` name is Inspect's), the version and
provenance from the family."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.task_args import task_entry


@task
@task_entry()
def throwaway_task(data_path: str) -> Task:
    """Throwaway: answer a question whose answer names a word.

    Args:
        data_path (str): A JSONL file of ``{"input", "target"}`` records, or ``demo``.
    """
    return Task(
        dataset=json_dataset(data_path),
        solver=generate(),
        scorer=includes(),
        headline_metric=HeadlineMetric(metric="accuracy"),
        version=task_version(__file__, "throwaway_task"),
        metadata=provenance(benchmark="Throwaway", source=f"local:{data_path}"),
    )
