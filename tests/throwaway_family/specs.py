"""The throwaway family's declaration (``core/spec.py``): one undated task."""

from research_taste_evals.core.spec import TaskSpec

THROWAWAY_TASK = TaskSpec(
    task="throwaway_task",
    first_group=("accuracy", "stderr"),
    undated_reason="questions written for the test, with no date",
)

SPECS = (THROWAWAY_TASK,)
