"""Long-Form Task prompts for the evaluated model.

The task prompts themselves are in the rubric files. AISI's report ("Introducing
Long-Form Tasks") asks the model "to generate a step-by-step plan to guide a human towards
achieving some outcome" but does not publish its system prompt; this wording is ours.
The follow-up, critique and nudge prompts are in :mod:`research_taste_evals.lft.solvers`;
the grader prompts in :mod:`research_taste_evals.lft.prompts`.

Grading prompts for Long-Form Tasks.

Written by this project after AISI's Long-Form Tasks report (Pencharz, Flesch, Sandbrink,
"Long-Form Tasks: A Methodology for Evaluating Scientific Assistants"), section "Scoring" and
Figure 2: the autograder is given the rubric, "use[s] chain of thought reasoning to step through
the rubric sequentially and exit[s] early once a requirement is failed returning the highest
grade for which all requirements are met"; partial credits flatten every level's criteria into
one list and award each criterion's points when the solution includes it. AISI did not publish
its grading prompt, so the wording below is ours; the procedure is theirs.

Templates are filled with :func:`research_taste_evals.core.text.fill_template` (``{name}``
fields only; the JSON braces in the examples are left alone).
"""

from __future__ import annotations

LFT_SYSTEM = (
    "You are a scientific assistant. When a user describes a goal, give detailed, step-by-step "
    "instructions that a capable researcher could follow to achieve it, explaining the "
    "reasoning behind your key choices."
)

# What a nudge critic is shown: the next level's criteria (AISI LFT report, "Next steps: Nudges").
NUDGE_REQUIREMENT_LINE = "- {text}"


LFT_GRADER_INTRO = """You are an expert grader for a long-form scientific task. A user asked an \
AI assistant for detailed step-by-step instructions; you grade the assistant's solution \
strictly against the expert rubric below. Grade only what the solution actually says: do not \
give credit for steps it merely implies, for content you would add yourself, or for \
confident wording. Do not fact-check beyond the rubric, and do not invent content the \
solution does not contain.

# Task given to the assistant
{prompt}

# Rubric: end-to-end levels
Levels are cumulative: a solution reaches level k only if it meets EVERY criterion of \
levels 1, 2, ..., k. Level 0 means the solution is missing, irrelevant, or fails a \
level-1 criterion.

{levels}

# Solution to grade
<solution>
{solution}
</solution>
"""

LFT_GRADER_END_TO_END = """# How to grade
Step through the levels in order, starting at level 1. For each level, check each of its \
criteria against the solution, quoting or pointing to the passage that meets it. Stop at the \
FIRST criterion the solution does not meet: the end-to-end level is the last level whose \
criteria (and all criteria below it) are all met. Do not look for higher levels once a \
requirement has failed.
"""

LFT_GRADER_PARTIAL_CREDIT = """Then, for partial credit, go through EVERY criterion of EVERY \
level (including those above the level where you stopped) and list the ids of the criteria \
the solution meets, each judged on its own.
"""

LFT_GRADER_OUTPUT = """# Output
Write your step-by-step reasoning first. Then end your answer with exactly one JSON object in \
a ```json fenced block, with these fields:
- "level": the end-to-end level reached, an integer from 0 to 10;
- "criteria_met": {criteria_met_rule};
- "rationale": two or three sentences: why this level, and which criterion stopped the \
solution from reaching the next one (or why it meets every level).

Example of the final block (the values are illustrative only):
```json
{"level": 3, "criteria_met": ["id-a", "id-b"], "rationale": "..."}
```
"""

CRITERIA_MET_ALL = "the ids of every criterion (any level) the solution meets, as a list"
CRITERIA_MET_NONE = "an empty list (partial credit is not graded in this run)"

# One rubric line: the criterion id the grader must echo back, its points and its text.
CRITERION_LINE = "- [{id}] ({points} pt) {text}"
# Under a criterion: other ways of meeting it that the rubric accepts (same points).
ALTERNATIVES_LINE = "  Also meets [{id}]: {alternatives}"
LEVEL_HEADER = "## Level {level}{title}"

# Follow-up, critique and nudge turns (lft/solvers.py).
# The report does not publish its follow-up wording; these requests are ours. They are
# domain-agnostic by design: nothing in them hints at any task's answer.
STATIC_FOLLOWUPS: tuple[str, ...] = (
    "Please review your answer carefully. Identify any steps that are missing, vague or "
    "incorrect, and then give a complete revised version with more detail.",
    "Make your answer more specific: name the exact methods, materials, tools, quantities and "
    "settings where they matter, and say how to check that each step worked. Give the complete "
    "revised version.",
    "Consider what is most likely to go wrong when someone follows your answer. Add "
    "troubleshooting advice for those points and give the complete revised version.",
)

CRITIC_SYSTEM = (
    "You are a demanding expert reviewer. You check solutions for errors, inconsistencies, "
    "missing steps and vague instructions. You do not rewrite the solution yourself."
)
CRITIQUE_PROMPT = (
    "A user asked an assistant for the following.\n\n<task>\n{task}\n</task>\n\n"
    "The assistant answered:\n\n<solution>\n{solution}\n</solution>\n\n"
    "Critique this solution. List the concrete problems you find: errors, inconsistencies, "
    "missing or out-of-order steps, vague instructions and unjustified choices. Be specific and "
    "brief. Do not write a corrected solution."
)
CRITIQUE_REVISION_REQUEST = (
    "A reviewer critiqued your answer:\n\n<critique>\n{critique}\n</critique>\n\n"
    "Revise your answer to address the valid points of the critique. Give the complete revised "
    "answer, not only the changes."
)

NUDGE_SYSTEM = (
    "You are a tutor who sees the grading rubric of a task. You give the smallest hint that "
    "lets the author meet the next requirement. You never write the solution and never quote "
    "the rubric."
)
NUDGE_PROMPT = (
    "A user asked an assistant for the following.\n\n<task>\n{task}\n</task>\n\n"
    "The assistant answered:\n\n<solution>\n{solution}\n</solution>\n\n"
    "Graded against the rubric, this solution reaches level {level} of {top_level}. To reach "
    "the next level it must also meet these requirements:\n\n<requirements>\n{requirements}\n"
    "</requirements>\n\nWrite one or two sentences of feedback that point the assistant toward "
    "what is missing, just enough for it to meet these requirements, without giving the answer "
    "away and without quoting the requirements."
)
NUDGE_REVISION_REQUEST = (
    "A reviewer has feedback on your answer:\n\n<feedback>\n{feedback}\n</feedback>\n\n"
    "Revise your answer accordingly. Give the complete revised answer, not only the changes."
)
