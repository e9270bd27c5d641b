"""Test-wide settings: offline, and paths to the optional upstream data beside the repo."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, Model
from mock_models import scripted_model

# Tests never reach the Hugging Face Hub: set before any library reads it.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = REPO_ROOT.parent / "shared"
UPSTREAM_DIR = SHARED_DIR / "datasets" / "upstream"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the packaged real model's tests (``local_llm``) unless ``-m`` names them.

    Not an ``-m`` in ``addopts``: a user's ``-m "not slow"`` would replace it, not add to it.
    """
    if "local_llm" in (config.getoption("markexpr") or ""):
        return
    deselected = [item for item in items if item.get_closest_marker("local_llm")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("local_llm")]


@pytest.fixture(autouse=True)
def _no_model_left_bound() -> Iterator[None]:
    """After each test, no evaluated model or roles stay bound in the process's context:
    ``eval_set`` (the sweep's) leaves its last ones bound in its caller's (it resolves tasks
    outside its event loop), and a later test would see them.
    Inspect has no public way to unbind them; this is the test harness's reset."""
    yield
    from inspect_ai.model._model import active_model_context_var, init_model_roles

    active_model_context_var.set(None)
    init_model_roles({})


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test session caches downloads in a scratch folder, never in the user's cache."""
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    # Inspect's generation cache too (the recall probe caches its calls).
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "inspect-cache"))


@pytest.fixture(autouse=True)
def _isolated_logs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs that name no log folder write to a scratch folder, never the user's ./logs."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path_factory.getbasetemp() / "logs"))


@pytest.fixture
def upstream_dir() -> Path:
    """The upstream data copies in ../shared; skips the test when they are absent."""
    if not UPSTREAM_DIR.is_dir():
        pytest.skip(f"upstream data not found at {UPSTREAM_DIR} (../shared beside the repo)")
    return UPSTREAM_DIR


@pytest.fixture(name="scripted_model")
def scripted_model_fixture() -> Callable[[Callable[[list[ChatMessage]], str]], Model]:
    return scripted_model


TICK_SECONDS = 0.02


def run_watching_event_loop(work: Callable[[], Awaitable[Any]], stall_seconds: float) -> Any:
    """Await ``work()`` while a ticker shares its event loop; fail if the loop ever stalls.

    A scorer that runs CPU work (embedding, ROUGE) on the event loop starves the ticker for as
    long as the work takes, which shows up as a gap between ticks of ``stall_seconds`` or more.
    """

    async def run() -> tuple[Any, list[float]]:
        ticks: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            while not done.is_set():
                ticks.append(time.perf_counter())
                await asyncio.sleep(TICK_SECONDS)

        tick_task = asyncio.create_task(ticker())
        result = await work()
        done.set()
        await tick_task
        return result, ticks

    result, ticks = asyncio.run(run())
    assert len(ticks) > 10, "the ticker never ran while the work ran"
    longest = max(b - a for a, b in zip(ticks, ticks[1:], strict=False))
    assert longest < stall_seconds, f"event loop blocked for {longest:.2f}s"
    return result


@pytest.fixture(name="watch_event_loop")
def watch_event_loop_fixture() -> Callable[[Callable[[], Awaitable[Any]], float], Any]:
    return run_watching_event_loop
