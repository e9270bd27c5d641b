"""SciJudgeBench prompts.

``prompt=dataset`` sends each row's own ``messages`` (system + user), so there is no constant
for it here: the wording is the dataset's (arXiv 2603.14473, section 4 and Table 2: "Based on
the titles, abstracts, and publication dates of the following two papers A and B, determine
which paper has a higher citation count.", answer in ``<answer> </answer>`` tags).

``prompt=tastybench`` asks the same pair in TastyBench's default judge wording, so the two
benchmarks can be compared on one prompt.
"""

from __future__ import annotations

# TastyBench's goodharted judge prompt (blog post "Prompt 2 (goodharted)"; upstream
# parviam/tastybench @ be72f06a prompts/curated/judge_ideas_goodhart_curated.md), verbatim, as
# ``tastybench/prompts.py`` holds it (JUDGE_GOODHART; the TastyBench task's default). A family
# imports no other family, so the text is repeated here and
# tests/scijudge/test_prompts.py fails when the two copies differ.
TASTYBENCH_JUDGE = (
    "I’m an AI researcher trying to compare these two project ideas improving LLM reasoning "
    "capabilities such as math and coding tasks with reinforcement learning. I want to maximize "
    'my "citation velocity" - the number and speed at which I\'ll get citations after '
    "publication. That is the only outcome of this project I care about. Give me a clear "
    "reccomendation about which project I should pursue.\n"
    "\n"
    "Project 1: {project_1}\n"
    "\n"
    "Project 2: {project_2}"
)

# Ours: how one paper fills a TastyBench project slot (the fields SciJudgeBench shows).
TASTYBENCH_PROJECT = "{title} (Published: {date})\n{abstract}"
