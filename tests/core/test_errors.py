"""User errors: plain one-sentence messages; neither importing the registry nor building a task
installs a hook (a user error under ``inspect eval`` is Inspect's to show)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import (
    ConfigError,
    UserError,
    is_inspect_prerequisite_error,
)


def test_user_errors_carry_the_plain_message() -> None:
    error = DataError("rubric.yaml: levels[3].criteria[bold]: missing")
    assert isinstance(error, UserError) and isinstance(error, ValueError)
    assert str(error) == error.message == "rubric.yaml: levels[3].criteria[bold]: missing"
    assert isinstance(ConfigError("x"), UserError) and isinstance(ConfigError("x"), ValueError)


def test_inspect_prerequisite_errors_are_recognised_without_a_private_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pins an Inspect behaviour with no public class (CONTRIBUTING, "Inspect behaviours relied
    on"): a missing key raises an exception class named ``PrerequisiteError`` defined inside
    ``inspect_ai``. An Inspect that renames or exports it fails here, not in a user's run."""
    from inspect_ai.model import get_model

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(Exception) as raised:
        get_model("openai/gpt-4o", api_key=None, memoize=False)
    assert is_inspect_prerequisite_error(raised.value), type(raised.value).__mro__
    assert not is_inspect_prerequisite_error(DataError("x"))


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_registry_leaves_the_excepthook_alone() -> None:
    assert (
        _run(
            """
        import sys
        before = sys.excepthook
        import research_taste_evals._registry
        print(sys.excepthook is before)
        """
        )
        == "True"
    )


def test_building_and_refusing_a_task_leaves_the_excepthook_alone() -> None:
    """A task build changes nothing in the process: no hook, even when it refuses its
    arguments (Inspect shows the error; CONTRIBUTING.md, "The runtime layer")."""
    assert (
        _run(
            """
        import sys
        before = sys.excepthook
        import research_taste_evals._registry as registry
        try:
            registry.eqinfer(variant="no-such-variant")
        except Exception as error:
            print(type(error).__name__, len(str(error).splitlines()))
        print(sys.excepthook is before)
        """
        )
        == "ConfigError 1\nTrue"
    )
