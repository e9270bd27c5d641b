"""Long-Form Tasks (AISI; Pencharz, Flesch and Sandbrink 2024): rubric-graded protocols."""

from research_taste_evals import task_package

task_package(__name__)  # ``from research_taste_evals import lft`` builds the task when called
