"""User errors print as Inspect prerequisite messages: plain text, markup-looking paths intact."""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError

from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import ConfigError, UserError


def test_user_errors_are_prerequisite_errors_with_the_plain_message() -> None:
    error = DataError("rubric.yaml: levels[3].criteria[bold]: missing")
    assert isinstance(error, PrerequisiteError) and isinstance(error, ValueError)
    assert str(error) == "rubric.yaml: levels[3].criteria[bold]: missing"
    # Inspect prints .message as rich markup: brackets are escaped, so nothing is swallowed.
    assert error.message == r"rubric.yaml: levels[3].criteria\[bold]: missing"
    assert isinstance(ConfigError("x"), UserError) and isinstance(ConfigError("x"), ValueError)
