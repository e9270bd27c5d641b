"""The one leak check: names of the item in the text shown to a judge."""

from __future__ import annotations

from research_taste_evals.core.leaks import find_leaks, name_leaks, title_names


def test_title_names_from_real_titles() -> None:
    assert title_names("DAPO: An Open-Source LLM Reinforcement Learning System at Scale")[1:] == (
        "DAPO",
    )
    assert title_names("Reinforced Self-Training (ReST) for Language Modeling")[1:] == ("ReST",)
    assert "ReMax" in title_names("ReMax: A Simple, Effective, and Efficient Method")
    assert "ArCHer" in title_names("ArCHer: Training Language Model Agents via Multi-Turn RL")
    # Title-case compounds and acronyms are ordinary words, not names.
    assert title_names("Training Large Language Models for Multi-Step Reasoning in LLMs")[1:] == ()


def test_name_leaks_whole_words_any_hyphen() -> None:
    names = title_names("SWE-RL: Advancing LLM Reasoning via Reinforcement Learning")
    # Extractors write non-breaking hyphens (U+2011), as the upstream ideas do.
    assert name_leaks("Leveraging RL with a rule\u2011based reward, SWE\u2011RL trains", names) == [
        "name 'SWE-RL'"
    ]
    assert name_leaks("ReMaxed out", ("ReMax",)) == []
    assert name_leaks("uses d1 as a base", ("d1",)) == []  # too short to be evidence


def test_find_leaks_numbers_years_names() -> None:
    leaks = find_leaks("BERT reaches 86.6 (12%) in 2019", ("86.6",), ("BERT",))
    assert leaks == ["number 86.6", "percentage '12%'", "year 2019", "name 'BERT'"]
    assert find_leaks("in 2019", (), (), years=False) == []
