from __future__ import annotations

from inspect_ai.model import ChatMessageUser

from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.baselines import (
    always_first,
    citation_oracle,
    lead_sentences,
    longer_description,
    project_texts,
    seeded_coin,
)
from research_taste_evals.tastybench.parsing import parse_judge_answer
from research_taste_evals.tastybench.prompts import EXTRACT_CHOICE, EXTRACT_IDEA, JUDGE_PROMPTS


def _ask(prompt: str) -> list:
    return [ChatMessageUser(content=prompt)]


def test_project_texts_for_every_prompt_variant() -> None:
    for template in JUDGE_PROMPTS.values():
        prompt = fill_template(template, project_1="short one", project_2="a much longer one")
        assert project_texts(prompt) == ("short one", "a much longer one")


def test_baseline_answers_parse() -> None:
    for variant, template in JUDGE_PROMPTS.items():
        prompt = fill_template(template, project_1="short one", project_2="a much longer one")
        assert parse_judge_answer(always_first.respond(_ask(prompt))) == 1, variant
        assert parse_judge_answer(longer_description.respond(_ask(prompt))) == 2, variant


def test_longer_breaks_a_length_tie_by_the_texts_sha256_in_both_orders() -> None:
    """Equal word counts: the text with the larger sha256 hex digest wins, whichever position
    it is shown in (no position bias), so the floor picks on every pair."""
    import hashlib

    texts = ("a b", "c d")
    winner = max(texts, key=lambda text: hashlib.sha256(text.encode()).hexdigest())
    for first, second in (texts, texts[::-1]):
        tie = fill_template(JUDGE_PROMPTS["normal"], project_1=first, project_2=second)
        picked = parse_judge_answer(longer_description.respond(_ask(tie)))
        assert picked == (1 if first == winner else 2)


def test_baselines_never_invent_a_choice_when_reading_transcripts() -> None:
    prompt = fill_template(EXTRACT_CHOICE, transcript="I recommend Project 1.")
    for baseline in (
        always_first,
        longer_description,
        lead_sentences,
        seeded_coin,
        citation_oracle,
    ):
        assert baseline.respond(_ask(prompt)) == "UNCLEAR"


def test_lead_sentences_extracts_in_tags() -> None:
    prompt = fill_template(EXTRACT_IDEA, abstract="One. Two! Three?")
    assert lead_sentences.respond(_ask(prompt)) == "<idea>One. Two!</idea>"


def test_seeded_coin_repeats_itself_per_ordered_pair_and_is_balanced() -> None:
    answers = []
    for index in range(200):
        prompt = fill_template(JUDGE_PROMPTS["normal"], project_1=f"idea {index}", project_2="x")
        answer = seeded_coin.respond(_ask(prompt))
        assert answer == seeded_coin.respond(_ask(prompt))  # same prompt, same answer
        answers.append(parse_judge_answer(answer))
    assert set(answers) == {1, 2}
    assert 0.35 < answers.count(1) / len(answers) < 0.65


def test_citation_oracle_outside_a_tastybench_sample_picks_no_project() -> None:
    prompt = fill_template(JUDGE_PROMPTS["normal"], project_1="fast idea", project_2="slow idea")
    assert parse_judge_answer(citation_oracle.respond(_ask(prompt))) is None
