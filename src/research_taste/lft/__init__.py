"""Long-Form Tasks tooling: the human validation of the rubric grader (``research-taste lft``)."""
