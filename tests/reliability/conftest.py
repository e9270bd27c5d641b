"""One fault server for the whole session, reached through Inspect's ``openai-api`` provider.

One server, not one per test: Inspect keeps a model's client between evals in one process, so a
second server on a new port would be unreachable for a model already created.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fault_runs import REPORT_LINES, CleanRuns
from fault_server import FaultServer

SESSION_LIFETIME = 1800.0  # seconds: far beyond the suite, still bounded
SESSION_MAX_REQUESTS = 50_000


@pytest.fixture(scope="session")
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer(
        lambda model, messages: "", lifetime=SESSION_LIFETIME, max_requests=SESSION_MAX_REQUESTS
    )
    saved = {name: os.environ.get(name) for name in server.env()}
    os.environ.update(server.env())
    with server:
        yield server
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def clean_runs(fault_server: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> CleanRuns:
    """Fault-free runs, one per task, shared by every test that compares with one."""
    return CleanRuns(fault_server, tmp_path_factory.mktemp("clean-runs"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "heavy: the slowest reliability tests (every task under faults; a subprocess killed"
        " midway): part of the normal run, deselect with -m 'not heavy' on a tight CI budget",
    )
    config.addinivalue_line(
        "markers",
        "faults: the fast fault tests (one task under the whole fault mix, replies without"
        " choices, the server itself, a sweep's defaults): -m faults, for a run on another Inspect",
    )
    config.addinivalue_line(
        "markers",
        "reliability: runs real tasks against the fault server (minutes; part of the normal run,"
        " select with -m reliability or skip with -m 'not reliability')",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "reliability" in item.path.parts:
            item.add_marker(pytest.mark.reliability)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Per task: calls made, faults injected, retries, samples completed (shown in every run)."""
    if REPORT_LINES:
        terminalreporter.section("fault and resume figures")
        for text in REPORT_LINES:
            terminalreporter.write_line(text)
