from __future__ import annotations

import pytest
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser

from research_taste_evals.aaar.baselines import (
    GENERIC_EXPERIMENTS,
    content_words,
    copy_input,
    word_overlap_judge,
)
from research_taste_evals.aaar.dataset.expdesign import extract_list_items
from research_taste_evals.aaar.judge_prompts import ENTAILMENT_V1_PROMPT, ENTAILMENT_V2_PROMPT
from research_taste_evals.aaar.parsing import judge_decision
from research_taste_evals.aaar.prompts import (
    EXPDESIGN_PROMPT,
    EXPLANATION_LIST_PROMPT,
    EXPLANATION_ONE_PROMPT,
)
from research_taste_evals.core.text import fill_template


def _ask(prompt: str) -> list[ChatMessage]:
    return [ChatMessageSystem(content="system"), ChatMessageUser(content=prompt)]


def test_copy_input_copies_the_experiment_it_is_asked_to_explain() -> None:
    one = fill_template(
        EXPLANATION_ONE_PROMPT,
        context_input="paper text",
        experiment_list=" Compare with BM25 on the benchmark.",
    )
    assert copy_input.respond(_ask(one)) == "Compare with BM25 on the benchmark."

    whole = fill_template(
        EXPLANATION_LIST_PROMPT,
        context_input="paper text",
        experiment_list="1. Compare with BM25.\nAblate re-ranking.\n3. Vary k.",
    )
    answer = copy_input.respond(_ask(whole))
    assert answer == "1. Compare with BM25.\n2. Ablate re-ranking.\n3. Vary k."
    assert len(extract_list_items(answer)) == 3


def test_copy_input_proposes_the_generic_list_for_any_paper() -> None:
    design = fill_template(EXPDESIGN_PROMPT, context_input="any paper")
    answer = copy_input.respond(_ask(design))
    assert extract_list_items(answer) == list(GENERIC_EXPERIMENTS)


@pytest.mark.parametrize("template", [ENTAILMENT_V2_PROMPT, ENTAILMENT_V1_PROMPT])
def test_word_overlap_judge_reads_only_the_case_not_the_examples(template: str) -> None:
    def judge(first: str, second: str) -> str:
        return word_overlap_judge.respond(_ask(fill_template(template, EXP1=first, EXP2=second)))

    # content words of P1: ablation, study, loss, function -> 3 of 4 found in P2.
    assert content_words("An ablation study of the loss function") == {
        "ablation",
        "study",
        "loss",
        "function",
    }
    assert judge("An ablation study of the loss function", "ablation of the loss study") == "1"
    # 1 of 4 found: below the 0.5 threshold.
    assert judge("An ablation study of the loss function", "visualise the loss") == "0"
    # Exactly half counts as covered.
    assert judge("ablation study", "a study of speed") == "1"
    assert judge("a of to", "anything") == "0"  # no content word at all
    with pytest.raises(ValueError, match="no 0 or 1"):
        judge_decision(word_overlap_judge.respond(_ask("no case here")))
