"""Long-Form Task demo data: the offline runs of ``research-taste demo`` (role file).

The demo entries for ``lft`` and ``lft_grader_check`` are moved here from ``cli/demo.py``
by the core reorganisation; this family writes no demo data of its own (its rubrics and
references ship in ``rubrics/`` and ``grader_references/``).
"""
