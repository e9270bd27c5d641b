"""TastyBench (Hao, Huang and Mahajan, 2025): research-taste judgments vs citation velocity."""

from research_taste_evals import task_package

task_package(
    __name__
)  # ``from research_taste_evals import tastybench`` builds the task when called
