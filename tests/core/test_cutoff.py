"""Knowledge cutoff: the task argument, Inspect's model info, and none (one warning)."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from inspect_ai.model import ModelInfo, get_model, set_model_info
from mock_models import scripted_model

from research_taste_evals.core.cutoff import (
    CutoffReader,
    KnowledgeCutoff,
    cutoff_fields,
    cutoff_from_model_info,
    parse_cutoff_arg,
)
from research_taste_evals.core.dates import ItemDate
from research_taste_evals.core.errors import ConfigError


def test_parse_cutoff_arg() -> None:
    assert parse_cutoff_arg(None, "t") is None
    assert parse_cutoff_arg("2024-06-01", "t") == dt.date(2024, 6, 1)
    # YYYY-MM: through the end of that month (leap years too).
    assert parse_cutoff_arg("2024-12", "t") == dt.date(2024, 12, 31)
    assert parse_cutoff_arg("2024-02", "t") == dt.date(2024, 2, 29)
    assert parse_cutoff_arg(" 2023-02 ", "t") == dt.date(2023, 2, 28)
    with pytest.raises(ConfigError, match=r"^t: argument 'knowledge_cutoff' got '2024-6'; give"):
        parse_cutoff_arg("2024-6", "t")


@pytest.mark.parametrize("value", [dt.date(2024, 12, 31), dt.datetime(2024, 12, 31, 8, 0)])
def test_a_date_object_is_refused_with_the_forms_that_survive(value: dt.date) -> None:
    """What Inspect's YAML parse makes of an unquoted day, which it then logs as 'date'."""
    with pytest.raises(ConfigError) as raised:
        parse_cutoff_arg(value, "tastybench")
    message = str(raised.value)
    assert message.startswith("tastybench: argument 'knowledge_cutoff' got the date 2024-12-31")
    assert "-T knowledge_cutoff=2024-12 " in message
    assert "-T \"knowledge_cutoff='2024-12-31'\"" in message
    assert message.count(". ") == 0 and message.endswith(".") and "\n" not in message


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("2025-13-01", "'2025-13-01', which is not a real date."),
        ("2025-13", "'2025-13', which is not a real date."),
        ("2025-02-30", "'2025-02-30', which is not a real date."),
        ("1900-01-01", "'1900-01-01', which is before 1990;"),
        ("1989-12", "'1989-12', which is before 1990;"),
    ],
)
def test_impossible_and_out_of_range_cutoffs_are_one_sentence(value: str, says: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_cutoff_arg(value, "t")
    message = str(raised.value)
    assert message.startswith("t: argument 'knowledge_cutoff' got ") and says in message
    assert "\n" not in message and message.count(". ") == 0


def test_a_cutoff_after_today_is_refused() -> None:
    today = dt.date.today()
    assert parse_cutoff_arg(today.isoformat(), "t") == today
    assert parse_cutoff_arg(today.strftime("%Y-%m"), "t") >= today  # this month: through its end
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    with pytest.raises(ConfigError, match=f"got '{tomorrow}', which is after today"):
        parse_cutoff_arg(tomorrow, "t")
    next_month = (today.replace(day=1) + dt.timedelta(days=32)).strftime("%Y-%m")
    with pytest.raises(ConfigError, match=f"got '{next_month}', which is after today"):
        parse_cutoff_arg(next_month, "t")


def test_model_info_cutoff_and_entry() -> None:
    found = cutoff_from_model_info(get_model("openai/gpt-4o", api_key="unused"))
    assert found.source == "model_info" and found.date == dt.date(2023, 11, 30)
    assert found.matched_entry and "GPT-4o" in found.matched_entry


def test_offline_providers_are_never_looked_up() -> None:
    found = cutoff_from_model_info(scripted_model(lambda m: "x"))
    assert found == KnowledgeCutoff(model="mockllm/model", date=None, source="none")


def test_set_model_info_is_read() -> None:
    set_model_info("openai/my-private-model", ModelInfo(knowledge_cutoff_date=dt.date(2025, 2, 1)))
    found = cutoff_from_model_info(get_model("openai/my-private-model", api_key="unused"))
    assert found.date == dt.date(2025, 2, 1) and found.source == "model_info"


def test_reader_prefers_task_arg_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    model = scripted_model(lambda m: "x")
    given = CutoffReader("t", dt.date(2024, 1, 1)).read(model)
    assert (given.date, given.source) == (dt.date(2024, 1, 1), "task_arg")
    reader = CutoffReader("t", None)
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            assert reader.read(model).source == "none"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "-T knowledge_cutoff=YYYY-MM " in warnings[0].getMessage()
    assert "set_model_info" in warnings[0].getMessage()


def test_cutoff_fields() -> None:
    cutoff = KnowledgeCutoff("m", dt.date(2024, 6, 15), "model_info", "OpenAI / GPT-4o")
    fields = cutoff_fields(cutoff, [ItemDate(2024, 7), ItemDate(2025)])
    assert fields == {
        "knowledge_cutoff": "2024-06-15",
        "cutoff_source": "model_info",
        "cutoff_entry": "OpenAI / GPT-4o",
        "post_cutoff": True,
    }
    assert cutoff_fields(None, [ItemDate(2025)])["post_cutoff"] is None
    assert KnowledgeCutoff.from_metadata(cutoff.as_metadata()) == cutoff
