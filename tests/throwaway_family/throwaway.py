"""The throwaway family's one task: a question per line, scored by whether the answer has its
word."""

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

from research_taste_evals.core.demo import with_demo_data


@task
@with_demo_data
def throwaway_task(data_path: str) -> Task:
    """Throwaway: answer a question whose answer names a word.

    Args:
        data_path (str): A JSONL file of ``{"input", "target"}`` records, or ``demo``.
    """
    return Task(dataset=json_dataset(data_path), solver=generate(), scorer=includes())
