from __future__ import annotations

import re
from pathlib import Path

import pytest

from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.prompts import (
    EXTRACT_CHOICE,
    EXTRACT_IDEA,
    EXTRACT_IDEA_CURATED,
    JUDGE_PROMPTS,
    SUMMARIZE_PAPER,
)


def test_judge_prompts_hold_both_projects_in_order() -> None:
    for variant, template in JUDGE_PROMPTS.items():
        text = fill_template(template, project_1="AAA idea", project_2="BBB idea")
        assert text.index("AAA idea") < text.index("BBB idea"), variant
        assert "{" not in text


def test_seed_wording() -> None:
    """Spot checks against the blog post's prompts (upstream spellings included)."""
    assert (
        "Give me a clear reccomendation about which project I should pursue."
        in (JUDGE_PROMPTS["normal"])
    )
    assert 'maximize my "citation velocity" - the number and speed' in JUDGE_PROMPTS["goodhart"]
    assert JUDGE_PROMPTS["max_goodhart"].startswith("<instructions>\nBelow are two project ideas")
    assert "be about a paragraph explaining the technical approach" in EXTRACT_IDEA
    assert "be a couple of sentances explaining" in EXTRACT_IDEA_CURATED
    assert "300-400 word summary" in SUMMARIZE_PAPER and "<summary> tags" in SUMMARIZE_PAPER


@pytest.mark.upstream
def test_extract_choice_prompt_matches_upstream_logs(tastybench_upstream: Path) -> None:
    """Upstream's ranking.log records the filled extract_choice prompt verbatim."""
    log = tastybench_upstream / "model-elicitation/data/curated/gpt-oss-120b/20-epochs/ranking.log"
    text = log.read_text(encoding="utf-8")
    match = re.search(r"Prompt:\n(.*?)\nResponse:\n", text, re.DOTALL)
    assert match is not None
    prompt = match.group(1)
    transcript = re.search(r"<transcript>\n(.*)\n</transcript>", prompt, re.DOTALL)
    assert transcript is not None
    assert fill_template(EXTRACT_CHOICE, transcript=transcript.group(1)) == prompt
