"""Unreachable hosts fail at once with the offline hint; a scorer's missing role or key stops
the first solver step, before any model call; Inspect and ``research-taste`` print such errors
without a traceback."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from mock_models import counting_model

from research_taste_evals.aaar.demo import write_demo_expdesign
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.core.data import DataError, HubFile, PinnedFile, resolve_data
from research_taste_evals.core.roles import RoleError, RoleSpec, role_models

REPO_ROOT = Path(__file__).resolve().parents[2]
MAX_ERROR_LINES = 8


def _closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_download_fails_with_url_and_data_path_hint(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/upstream/data.json"
    pinned = PinnedFile(url=url, sha256="0" * 64, filename="data.json")
    with pytest.raises(DataError) as raised:
        resolve_data(pinned)
    message = str(raised.value)
    assert url in message and "-T data_path=" in message
    assert "ConnectionRefusedError" in message
    assert not (tmp_path / "cache" / "files").exists()


def test_unreachable_hub_reads_only_the_cache_and_says_how_to_run_offline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    hub = HubFile(repo_id="someone/some-data", filename="a.json", revision="0" * 40)
    with pytest.raises(DataError) as raised:
        resolve_data(hub)
    message = str(raised.value)
    assert "hf://datasets/someone/some-data" in message
    assert "Hub is unreachable" in message and "-T data_path=" in message
    # Only data arguments, which every downloading task has; the demo data needs no network.
    assert "-T data_path=demo" in message and "embedding_model" not in message
    assert len(message.splitlines()) == 1


def test_missing_grader_role_and_key_stop_before_the_evaluated_model_is_called(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built by name (as ``inspect eval`` builds it) or by calling the task function, the
    judge's role is checked in the first solver step: one sentence as the log's error, and no
    model was called either way."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("AZUREAI_OPENAI_API_KEY", raising=False)
    data = write_demo_expdesign(tmp_path / "data")
    author, calls = counting_model(lambda n: "1. an experiment")
    args = {"data_path": str(data), "embedding_model": "offline-minilm"}
    run = {"model": author, "log_dir": str(tmp_path / "logs"), "display": "none"}
    by_name = inspect_eval("research_taste_evals/expdesign", task_args=args, **run)[0]  # type: ignore[arg-type]
    called = inspect_eval(expdesign(**args), **run)[0]  # type: ignore[arg-type]
    for log in (by_name, called):
        assert log.status == "error" and log.error is not None
        message = log.error.message
        assert "model role 'grader' is not set" in message
        assert "openai/gpt-4o-2024-08-06" in message
        assert "OPENAI_API_KEY" in message and "--model-role grader=" in message
        assert "-T judge_model=" in message
        assert len(message.splitlines()) == 1
    assert calls == []


def test_a_given_role_or_explicit_model_is_the_one_used() -> None:
    spec = RoleSpec("grader", explicit="mockllm/model", default="openai/gpt-4o")
    assert [str(m) for m in role_models(spec)] == ["mockllm/model"]
    with pytest.raises(RoleError, match="model role 'critic' is not set"):
        role_models(RoleSpec("critic"))


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.parametrize(
    "command",
    [
        ["inspect", "eval", "research_taste_evals/eqinfer", "--model", "baseline/all-positive"],
        ["research-taste", "sweep"],
    ],
    ids=["inspect-eval", "research-taste"],
)
def test_command_line_names_a_data_error_in_one_sentence(
    command: list[str], tmp_path: Path
) -> None:
    """``research-taste``: the sentence alone, no traceback. ``inspect eval``: Inspect's display
    of a build error (the package installs no hook), the sentence its last line."""
    executable = shutil.which(command[0], path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"{command[0]} is not installed beside {sys.executable}")
    missing = tmp_path / "nonexistent"
    args = ["-T", f"data_path={missing}", "--log-dir", str(tmp_path / "logs")]
    argv = [executable, *command[1:], *(args if command[0] == "inspect" else [str(missing)])]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src"), "NO_COLOR": "1"}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0
    if command[0] == "inspect":
        output = [line for line in done.stderr.splitlines() if line.strip()][-1]
    assert "Traceback" not in output, output
    assert str(missing) in output
    assert "does not exist" in output or "No such file" in output
    assert len(output.splitlines()) <= MAX_ERROR_LINES, output
    assert not (tmp_path / "logs").exists()


def test_unreachable_hub_embedding_model_fails_at_once_naming_the_offline_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sentence_transformers
    from huggingface_hub import constants

    from research_taste_evals.core.embeddings import EmbeddingError, get_embedder

    calls: list[dict[str, object]] = []

    def no_hub(*args: object, **kwargs: object) -> None:
        calls.append(kwargs)
        raise OSError("not in the local cache")

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", no_hub)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    with pytest.raises(EmbeddingError) as raised:
        # Core pins no Hub model: a benchmark passes the revision it pins (any commit will do).
        get_embedder("sentence-transformers/all-mpnet-base-v2", "0" * 40, cache_root=tmp_path)
    message = str(raised.value)
    # The packaged copy of the same weights, not a stand-in model.
    assert "all-mpnet-base-v2" in message and "pass model=offline-mpnet" in message
    assert calls and calls[0]["local_files_only"] is True  # no retries against a dead Hub
