"""The TastyBench parser's answer contract (README "Answer contract"): the shapes chat and
reasoning models write, read by the parser alone (``-T choice_method=parser``), and the
shapes that must stay unclear (left to the extractor, or counted unclear without one)."""

from __future__ import annotations

import asyncio

import pytest

from research_taste_evals.tastybench.choice import extract_choice
from research_taste_evals.tastybench.parsing import parse_judge_answer

# A frontier-style discussion that weighs both sides: the verdict alone must decide.
BODY = (
    "\n\n## Why\n\n- **Novelty:** Project 2 is more ambitious.\n- **Risk:** Project 1 would be "
    "better if you had little compute, and Project 2 wins on novelty.\n\n| | Project 1 | "
    "Project 2 |\n|---|---|---|\n| cost | low | high |\n"
)


def sections(caveat: int) -> str:
    """A frontier answer's body after its first line (issue 42): a section per project with
    bullets of its weaknesses, then a caveat about one project. Neither is a verdict."""
    return (
        "\n\nProject 1 (ReMax: REINFORCE with no value model):\n- Incremental over PPO.\n"
        "- If it works, it is a baseline, not a method.\n\nProject 2 (verifier-free RL, not "
        "tied to a checker):\n- Needs large-scale compute.\n- Crowded; no clear moat.\n\n"
        f"Caveat: Project {caveat}'s citation rate depends on whether the community adopts it."
    )


READABLE = [
    # Labelled verdicts, at the top of a long answer that leans both ways.
    ("**Recommendation: Project 1 (ReMax: drop the value model).**" + BODY, 1),
    ("**Recommendation:** Project 2 — it scales better." + BODY, 2),
    ("## Choice: Project 2" + BODY, 2),
    ("## Recommendation\n\n**Pursue Project 1** (the verifier-free one)." + BODY, 1),
    ("Final answer: Project 1", 1),
    ("**Final Answer: Project 2**", 2),
    ("Verdict - Project 1.", 1),
    ("**Bottom line:** Project 2." + BODY, 2),
    ("TL;DR: Project 1, because it is cheap to run." + BODY, 1),
    ("My pick: **Project 2**", 2),
    (
        "**Recommendation: Pursue Project 2 (Reverse-Curriculum RL) as the primary direction, "
        "while keeping Project 1 as a side project.**" + BODY,
        2,
    ),
    # A label on its own line, the verdict on the next.
    (
        "**Prediction:**\nProject 2 – *test-time multi-round thinking* – will exhibit a higher "
        "citation velocity than Project 1.\n\n**Why?**" + BODY,
        2,
    ),
    # Recommendations in bold opening a line.
    ("**Go with Project 2** (the verifier-guided one)." + BODY, 2),
    ("**I recommend Project 1.** Here is why." + BODY, 1),
    ("After weighing both:\n\n**Pursue Project 1 – the reverse-curriculum framework.**" + BODY, 1),
    # Decision sentences (no counter-lean in the answer).
    ("I would pursue Project 2.", 2),
    ("I strongly recommend pursuing **Project 1**. Here's why: it is simpler.", 1),
    ("I'd go with Project 1.", 1),
    ("Project 2 is the better choice over Project 1.", 2),
    ("After weighing both, Project 2 is my recommendation.", 2),
    ("**Recommended project: Project 1**" + BODY, 1),
    ("You should choose the second project.", 2),
    ("Overall, I predict that Project 2 will have a higher citation velocity.", 2),
    ("Long analysis of both.\n\nPROJECT 1", 1),
    # JSON objects, bare or fenced.
    ('{"choice": "Project 2", "reason": "broader appeal"}', 2),
    ('```json\n{"recommendation": 1, "confidence": 0.7}\n```', 1),
    ('Here is my answer: {"answer": "2"}', 2),
    # Reasoning blocks are not the answer.
    ("<think>Project 1 is better. Hmm, maybe not.</think>\nI would pursue Project 2.", 2),
    ("<thinking>Both...</thinking>\n**Recommendation: Project 1**", 1),
    # The project itself in bold, at the head of an answer that discusses the other (issue 37).
    ("**Project 2 (DAPO), and it's not close.**\n\nProject 1 is solid but incremental." + BODY, 2),
    ("**Project 2 (DAPO), and it's not close.**" + BODY, 2),
    (
        "**Recommendation: Project 1 (ReMax: REINFORCE with a greedy baseline).**\n\nWhy not "
        "Project 2? Project 2 is more novel and could be better in the long run if the "
        "community adopts it, and Project 2 wins on ambition." + BODY,
        1,
    ),
    ("**Go with Project 2** (the verifier-free one).\n\nProject 1 is the safer bet." + BODY, 2),
    ("## Verdict\n\n**Project 1.** Project 2 is interesting but niche." + BODY, 1),
    ("### Recommendation\n**Project 2 (GRPO variants)** — the stronger bet." + BODY, 2),
    (
        "<think>Project 1 looks cheaper, but Project 2 is more novel. I'd go with Project 1."
        "</think>\n\n**Project 2 (verifier-free RL).**\n\nProject 1 could win if compute is "
        "scarce." + BODY,
        2,
    ),
    (
        "Okay, let me weigh both. Project 1 extends PPO; Project 2 drops the critic.\n\n"
        "**Project 1 — and it is not especially close.**\n\nProject 2 might catch up later.",
        1,
    ),
    ("# Answer\n\n**Project 2**\n\nProject 1 would be better if you had little compute.", 2),
    # Frontier answers (issue 42): the first line decides; the descriptions in parentheses may
    # hold "no", "not", "for a", "→"; the other project's section and the caveat are no verdict.
    ("**Recommendation: Project 1 (ReMax: REINFORCE with no value model).**" + sections(1), 1),
    ("**Recommendation: Project 1 (GRPO → REINFORCE for a reasoning model).**" + sections(2), 1),
    ("**Go with Project 2** (verifier-free RL, not tied to a checker)." + sections(1), 2),
    ("**Recommendation: Project 2 (no checker needed), by a small margin.**" + sections(1), 2),
    ("**Go with Project 1 (no value model), by a small margin.**" + sections(2), 1),
    # A condition that qualifies a single pick is still that pick.
    (
        "**Recommendation: Project 1 (ReMax), provided you can execute it at scale.**"
        + sections(2),
        1,
    ),
    ("**Go with Project 2 (no verifier), provided you can execute it at scale.**" + sections(1), 2),
    ("**Project 2 (verifier-free RL), provided you can execute it at scale.**" + sections(1), 2),
    (
        "**Recommendation: Project 1 (ReMax).**\n\n**Project 2 (verifier-free RL):**\n- Needs "
        "compute.\n\n**Caveat:** Project 1's citation rate depends on adoption.",
        1,
    ),
]

UNCLEAR = [
    # Both projects named, no pick.
    "Project 1 vs Project 2: both are good.",
    "## Project 1 vs Project 2\n\nBoth have merit.",
    "**Recommendation: Project 1 or Project 2, depending on your compute.**",
    "Choice: Project 1 vs Project 2 is a hard call.",
    "**Decision:** Project 1 vs Project 2 — I lean Project 1, but it is close.",
    "Project 2 is not my recommendation.",
    "Project 1 is faster; Project 2 is more novel.",
    # Negations.
    "Not Project 1.",
    "**Recommendation: not Project 1.**",
    "I would not pursue Project 1.",
    "**Don't go with Project 2.**",
    "Recommendation: avoid Project 1.",
    # Conditionals and hedges.
    "Go with Project 1 if you have compute; choose Project 2 otherwise.",
    "**Go with Project 2** if you have the compute; **Project 1** is the safer bet.",
    "**TL;DR – Go with **Project 1** if you want impact. Choose **Project 2** only if not.",
    "Recommendation: Project 1, unless you lack compute.",
    "**Short answer:**\nIf you have compute, Project 1 is the better bet.",
    # Verdicts that disagree, or lean both ways with no headline.
    "**Recommendation: Project 1**\n\nIn the end, I recommend Project 2.",
    '{"choice": "Project 1"}\n\nFinal answer: Project 2',
    "I recommend Project 1. That said, if citations are all you want, Project 2 would win.",
    "Project 1 is more promising in theory. However, for citation velocity, Project 2 wins.",
    # A description under a label is not a verdict.
    "**Bottom line:**\n- **Project 1** = high risk, high reward.\n- **Project 2** = low risk.",
    # Nothing readable.
    "Both projects have merit.",
    "Project 1.5 is better",
    '{"choice": "both"}',
    "<think>I recommend Project 1.</think>",
    # A bold project made conditional, or a bold line naming both, stays unclear (issue 37).
    "**Project 2**, but flip the recommendation if you cannot run it at scale." + BODY,
    "**Project 1 vs Project 2: Project 1.**",
    "**Project 1 or Project 2, depending on your compute.**",
    "**Project 1 and Project 2 are both strong; I lean Project 2.**",
    "- **Project 2**, while promising, is narrower.\n- **Project 1** is broader.",
    "**Project 2** is a respectable, lower-risk alternative, but it will lag.",
    # A pick that depends on a choice, a pick naming both, descriptive bold text (issue 42).
    "**Recommendation: Project 1 if you have compute, else Project 2.**" + sections(1),
    "**Go with Project 1 (if you have the compute).** Otherwise Project 2.",
    "**Recommendation: Project 1 (ReMax), unless you lack compute.**" + sections(2),
    "**Recommendation: Project 1 or Project 2 (both fine), by a small margin.**" + sections(2),
    "**Go with Project 2 (no verifier) if you can run it at scale; otherwise Project 1.**",
    "**Project 2 (verifier-free RL)** is the flashier idea." + sections(1),
    "**Project 2 (verifier-free RL):**\n- Needs compute.\n\n**Project 1 (ReMax):**\n- Cheap.",
]


@pytest.mark.parametrize(("answer", "expected"), READABLE, ids=lambda v: str(v)[:40])
def test_the_parser_reads_the_shapes_models_write(answer: str, expected: int) -> None:
    assert parse_judge_answer(answer) == expected


@pytest.mark.parametrize("answer", UNCLEAR, ids=lambda v: v[:40])
def test_the_parser_leaves_these_unclear(answer: str) -> None:
    assert parse_judge_answer(answer) is None


def test_the_contract_is_large_and_the_parser_alone_reads_it_without_a_model() -> None:
    assert len(READABLE) >= 25 and len(UNCLEAR) >= 20
    for answer, expected in READABLE:
        result = asyncio.run(extract_choice(answer, "parser", None))
        assert (result.choice, result.method) == (expected, "parser")
    result = asyncio.run(extract_choice(UNCLEAR[0], "parser", None))
    assert (result.choice, result.unclear_reason) == (None, "ambiguous")
