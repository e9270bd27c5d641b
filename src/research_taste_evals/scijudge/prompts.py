"""SciJudgeBench prompts.

``prompt=dataset`` sends each row's own ``messages`` (system + user): the wording is the
dataset's (arXiv 2603.14473, section 4 and Table 2; the ICLR split asks "which paper is more
likely to be accepted"). The swapped order of a row is its user turn with the two paper blocks
cut out and exchanged (:func:`swap_paper_blocks`): the "Paper A" / "Paper B" labels and every
other byte stay where they are, so the swap is the row's own template with the papers
exchanged, on every split (the ICLR rows' abstracts can end in spaces, so no split is rebuilt
from its fields). :data:`MAIN_USER_TEMPLATE` is the main split's user turn, byte for byte; the
demo rows are written with it and a test checks that the block swap equals it with the papers
exchanged.

``prompt=tastybench`` asks the same pair in TastyBench's default judge wording, its one
domain clause made field-neutral (:data:`TASTYBENCH_JUDGE`), so the two benchmarks can be
compared on one prompt.
"""

from __future__ import annotations

# The main split's user turn (Hub test.jsonl after its refresh, all 1,000 rows; "Today is" is
# the row's own date, not a row field). Placeholders: fill_template (core/text.py).
MAIN_USER_TEMPLATE = (
    "Today is {today}. Based on the titles, abstracts, and publication dates of the following "
    "two papers A and B, determine which paper has a higher citation count.\n"
    "Show your reasoning process in <reason> </reason> tags. And return the final answer in "
    "<answer> </answer> tags. The final answer should contain only the letter A or B.\n\n"
    "Paper A (Published: {date_a}):\nTitle: {title_a}\nAbstract: {abstract_a}\n\n"
    "Paper B (Published: {date_b}):\nTitle: {title_b}\nAbstract: {abstract_b}"
)
_BLOCK = {"A": "\n\nPaper A", "B": "\n\nPaper B"}


def swap_paper_blocks(user: str) -> str | None:
    """``user`` with the contents of its "Paper A" and "Paper B" blocks exchanged, or None.

    A block runs from its label (``\\n\\nPaper A`` / ``\\n\\nPaper B``, each exactly once, A
    first) to the next block or the end of the turn; what follows the label (its date, title,
    abstract, byte for byte) moves, the label and everything before the blocks stay.
    """
    if any(user.count(mark) != 1 for mark in _BLOCK.values()):
        return None
    start, middle = user.index(_BLOCK["A"]), user.index(_BLOCK["B"])
    if middle < start:
        return None
    head = user[:start]
    body_a = user[start + len(_BLOCK["A"]) : middle]
    body_b = user[middle + len(_BLOCK["B"]) :]
    return head + _BLOCK["A"] + body_b + _BLOCK["B"] + body_a


# TastyBench's goodharted judge prompt (blog post "Prompt 2 (goodharted)"; upstream
# parviam/tastybench @ be72f06a prompts/curated/judge_ideas_goodhart_curated.md), as
# ``tastybench/prompts.py`` holds it (JUDGE_GOODHART; the TastyBench task's default), with one
# change: TastyBench's projects are all RL-for-LLM-reasoning papers, and its prompt says so;
# SciJudgeBench's pairs come from every arXiv field (number theory, robotics, ...), so that
# clause (:data:`TASTYBENCH_DOMAIN`) becomes the field-neutral :data:`FIELD_NEUTRAL`. A family
# imports no other family, so the text is repeated here and tests/scijudge fails when putting
# the clause back does not give TastyBench's prompt byte for byte.
TASTYBENCH_DOMAIN = (
    "an AI researcher trying to compare these two project ideas improving LLM reasoning "
    "capabilities such as math and coding tasks with reinforcement learning"
)
FIELD_NEUTRAL = "a researcher trying to compare these two research projects"
TASTYBENCH_JUDGE = (
    f"I’m {FIELD_NEUTRAL}. I want to maximize "
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
