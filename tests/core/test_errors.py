"""User errors: plain messages; the excepthook is installed when a task is built, not on import,
chains to the hook before it and acts only on this package's error classes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import (
    ConfigError,
    UserError,
    find_user_error,
    is_inspect_prerequisite_error,
    stderr_hook,
)


def test_user_errors_carry_the_plain_message() -> None:
    error = DataError("rubric.yaml: levels[3].criteria[bold]: missing")
    assert isinstance(error, UserError) and isinstance(error, ValueError)
    assert str(error) == error.message == "rubric.yaml: levels[3].criteria[bold]: missing"
    assert isinstance(ConfigError("x"), UserError) and isinstance(ConfigError("x"), ValueError)


def test_the_hook_passes_another_packages_error_of_the_same_name_on() -> None:
    class ForeignDataError(ValueError):
        pass

    ForeignDataError.__name__ = "DataError"  # a foreign task's own DataError
    seen: list[BaseException] = []
    hook = stderr_hook(lambda kind, error, traceback: seen.append(error))
    foreign = ForeignDataError("theirs")
    hook(type(foreign), foreign, None)
    assert seen == [foreign]
    with pytest.raises(SystemExit):
        ours = DataError("ours")
        hook(type(ours), ours, None)


def test_the_hook_finds_our_error_inside_an_exception_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Inspect runs tasks in task groups: a model provider's error (a misspelt baseline) reaches
    the hook wrapped, once or twice. A group with only foreign errors goes on unchanged."""
    seen: list[BaseException] = []
    hook = stderr_hook(lambda kind, error, traceback: seen.append(error))
    ours = ConfigError("unknown baseline model 'baseline/allpositive'")
    nested = ExceptionGroup("outer", [ExceptionGroup("inner", [KeyError("k"), ours])])
    assert find_user_error(nested) is ours
    with pytest.raises(SystemExit) as exited:
        hook(type(nested), nested, None)
    assert exited.value.code == 1
    assert capsys.readouterr().err == f"error: {ours}\n"
    foreign = ExceptionGroup("outer", [KeyError("k")])
    hook(type(foreign), foreign, None)
    assert seen == [foreign] and find_user_error(foreign) is None


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


def test_building_a_task_installs_the_hook_once_in_front_of_the_previous_one() -> None:
    assert (
        _run(
            """
        import sys
        def previous(*args): pass
        sys.excepthook = previous
        import research_taste_evals._registry  # noqa: F401
        from research_taste_evals.core.task_args import task_entry
        @task_entry()
        def some_task(): return None
        some_task(); some_task()
        hook = sys.excepthook
        print(hook is not previous, hook.__closure__ is not None,
              any(c.cell_contents is previous for c in hook.__closure__))
        """
        )
        == "True True True"
    )


def _run_failing(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )


BUILD_ONE_OF_OURS = """
    import research_taste_evals._registry as registry
    try:
        registry.eqinfer(variant="no-such-variant")  # building a task installs the hook
    except Exception:
        pass
"""


def test_a_foreign_data_error_goes_to_the_previous_hook_after_one_of_our_tasks_is_built() -> None:
    result = _run_failing(
        BUILD_ONE_OF_OURS
        + """
    class DataError(ValueError):  # another package's error with our class's name
        pass
    raise DataError("their data problem")
    """
    )
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "DataError: their data problem" in result.stderr
    assert "error: their data problem" not in result.stderr


def test_our_data_error_is_one_sentence_on_stderr() -> None:
    result = _run_failing(
        BUILD_ONE_OF_OURS
        + """
    from research_taste_evals.core.data import DataError
    raise DataError("papers.csv: record 3: field 'pub_date': not a date")
    """
    )
    assert result.returncode == 1
    assert result.stderr == "error: papers.csv: record 3: field 'pub_date': not a date\n"
