"""``research-taste --help`` and ``list`` stay light: no Inspect, no model or plotting library.

Times are not asserted (a loaded machine would make that flaky): ``bench/cli_startup.py``
prints them. What can be checked deterministically is what start-up imports, and that the
source-read listing and lazily registered commands say what the real registry says.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from research_taste.cli import LAZY_COMMANDS, build_parser
from research_taste.cli.listing import baselines, tasks
from research_taste_evals._registry import TASKS
from research_taste_evals.core.baselines import registered_baselines

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

HEAVY = ("inspect_ai", "torch", "sentence_transformers", "transformers", "scipy", "sklearn")
HEAVY += ("matplotlib",)
PROBE = """
import contextlib, io, sys
from research_taste.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main({argv!r})
    except SystemExit:
        pass
print(",".join(name for name in {heavy!r} if name in sys.modules))
"""


def test_help_and_list_import_nothing_heavy() -> None:
    for argv in (["--help"], ["list"], ["report", "--help"], ["leaderboard", "--help"]):
        code = PROBE.format(argv=argv, heavy=HEAVY)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1:] in ([], [""]), f"{argv}: {done.stdout}"


def test_listing_from_source_matches_the_registry() -> None:
    importlib.import_module("research_taste_evals._registry")  # registers every baseline
    assert [name for name, _ in tasks()] == [fn.__name__ for fn in TASKS]
    for (name, line), fn in zip(tasks(), TASKS, strict=True):
        assert line == (fn.__doc__ or "").strip().splitlines()[0], name
    # Only the package's own baselines: other tests register stand-ins in the same process.
    assert baselines() == sorted(
        (name, baseline.description)
        for name, baseline in registered_baselines().items()
        if baseline.respond.__module__.startswith("research_taste_evals.")
    )


def _help_texts(parser: argparse.ArgumentParser) -> dict[str, str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: str(choice.help) for choice in action._choices_actions}


def test_lazy_commands_show_the_help_their_module_declares() -> None:
    light, full = _help_texts(build_parser(None)), _help_texts(build_parser("*"))
    assert light == full
    for name, (_, text) in LAZY_COMMANDS.items():
        assert full[name] == text
