"""An API key from the environment never reaches a log, a report or the cache.

The run is a fresh ``inspect eval`` process (Inspect reads the key when it first creates the
model) with a distinctive ``FAULT_API_KEY``, a grader panel with caching on (cache files), then
``research-taste report`` in this process (a report folder). The server echoes the request's
``Authorization`` header in every HTTP error body, as some providers and proxies do, and one
grader always fails, so the echoed key is in the exceptions Inspect records (model events,
retry messages) and in that grader's failure details. Every file written is searched, inside
``.eval`` archives too, for the key and for its base64 form.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from archive_search import files_containing
from fault_runs import EVALUATED, GRADERS, TASKS, model_name
from fault_server import API_KEY_VAR, Faults, FaultServer

from research_taste.cli import main as cli_main
from research_taste_evals.core.redaction import REDACTED, redact

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

SECRET = "sk-fault-SECRET-7f3a9c1e5b2d4a60"
TIMEOUT = 300.0  # seconds for each subprocess
INSPECT = str(Path(sys.executable).with_name("inspect"))  # the public console script


def test_the_search_finds_a_key_inside_an_eval_archive(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "run.eval", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("samples/1.json", f'{{"headers": {{"authorization": "{SECRET}"}}}}')
    (tmp_path / "plain.txt").write_text("nothing here")
    assert files_containing(tmp_path, [SECRET.encode()]) == [
        f"{tmp_path / 'run.eval'}!samples/1.json"
    ]


def test_credentials_are_redacted_and_prose_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "plainvalue-without-prefix-123")
    cases = {
        f"server error; request had Authorization: Bearer {SECRET}": (
            "server error; request had Authorization: [REDACTED]"
        ),
        '{"authorization": "abcdefghijkl"}': '{"authorization": "[REDACTED]"}',
        "x-api-key=abc123456789 rest": "x-api-key=[REDACTED] rest",
        "token Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig end": "token Bearer [REDACTED] end",
        "key sk-proj-abcdefghijk123 leaked": "key [REDACTED] leaked",
        "echo plainvalue-without-prefix-123 here": "echo [REDACTED] here",
        # Prose that merely mentions the words stays as it is.
        "Basic considerations about authorization and the bearer of bad news": (
            "Basic considerations about authorization and the bearer of bad news"
        ),
        "the risk-free sk- prefix": "the risk-free sk- prefix",
    }
    for text, expected in cases.items():
        assert redact(text) == expected, text


def test_api_key_is_in_no_log_report_or_cache(fault_server: FaultServer, tmp_path: Path) -> None:
    spec = TASKS["lft"]
    fault_server.set_rule(spec.rule)
    broken = GRADERS[-1]  # every call fails: its errors (echoing the key) are recorded
    fault_server.set_faults(
        Faults(http_500=1.0, echo_auth=True, models=frozenset({broken})), seed=0
    )
    fault_server.reset_stats()
    env = {
        **os.environ,
        API_KEY_VAR: SECRET,
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    graders = ",".join(spec.roles["grader"])
    task_args = [part for k, v in spec.args.items() for part in ("-T", f"{k}={v}")]
    command = [INSPECT, "eval", "research_taste_evals/lft"]
    run = subprocess.run(
        [
            *command,
            "--model",
            model_name(EVALUATED),
            "--model-role",
            f"grader={graders}",
            *task_args,
            "--log-dir",
            str(tmp_path / "logs"),
            "--log-model-api",
            "--max-retries",
            "1",
            "--display",
            "none",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report_dir = tmp_path / "report"
    report_code = cli_main(["report", str(tmp_path / "logs"), "--out", str(report_dir)])
    stats = fault_server.reset_stats()
    # The key was really used: every request carried it.
    assert stats.auth_headers == {f"Bearer {SECRET}"}, stats.auth_headers
    assert stats.faults["http_500"] == stats.calls[broken] > 0
    assert any((tmp_path / "cache").rglob("*")), "the grader cache was not written"
    needles = [SECRET.encode(), base64.b64encode(SECRET.encode())]
    written = [tmp_path / name for name in ("logs", "cache", "report", "data-home")]
    leaks = [
        leak for folder in written if folder.exists() for leak in files_containing(folder, needles)
    ]
    assert leaks == [], f"the API key was written to: {leaks}"
    # The echoed errors were recorded, redacted: the failure details say so in words.
    redacted = [REDACTED.encode()]
    assert any(files_containing(tmp_path / "logs", redacted)), "no redacted error reached the log"
    assert SECRET not in run.stdout + run.stderr
    # Checked last, so the logs and cache are searched even when the report cannot be written.
    assert report_code == 0 and any(report_dir.rglob("*.md")), "research-taste report failed"


# A key typed on the command line: not in the environment, no ``sk-`` prefix, no header shape.
TYPED_KEY = "typedKey0a1b2c3d4e5f6g7h8i9j"


def test_a_key_given_as_a_model_argument_and_echoed_bare_is_in_no_log_console_or_report(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """A grader configured with ``api_key`` (as ``-M api_key=...`` gives a model), whose every
    call fails with a body quoting that key alone: the key is in no file written and on no
    console line, only ``[REDACTED]`` in its place."""
    spec = TASKS["lft"]
    fault_server.set_rule(spec.rule)
    broken = GRADERS[-1]
    fault_server.set_faults(Faults(http_500=1.0, echo_key=True, models=frozenset({broken})), seed=0)
    fault_server.reset_stats()
    env = {
        **os.environ,
        API_KEY_VAR: "environment-key-for-the-others",
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    assert TYPED_KEY not in "".join(env.values())
    others = [model_name(g) for g in GRADERS[:-1]]
    typed = {"model": model_name(broken), "model_args": {"api_key": TYPED_KEY}}
    panel = json.dumps([*others, typed])
    task_args = [part for k, v in spec.args.items() for part in ("-T", f"{k}={v}")]
    command = [INSPECT, "eval", "research_taste_evals/lft"]
    run = subprocess.run(
        [
            *command,
            "--model",
            model_name(EVALUATED),
            "--model-role",
            f"grader={panel}",
            *task_args,
            "--log-dir",
            str(tmp_path / "logs"),
            "--log-model-api",
            "--max-retries",
            "1",
            "--display",
            "plain",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report_dir = tmp_path / "report"
    report_code = cli_main(["report", str(tmp_path / "logs"), "--out", str(report_dir)])
    stats = fault_server.reset_stats()
    # The typed key was really sent, and every call with it failed with the key in its body.
    assert f"Bearer {TYPED_KEY}" in stats.auth_headers, stats.auth_headers
    assert stats.faults["http_500"] == stats.calls[broken] > 0
    needles = [TYPED_KEY.encode(), base64.b64encode(TYPED_KEY.encode())]
    written = [tmp_path / name for name in ("logs", "cache", "report", "data-home")]
    leaks = [
        leak for folder in written if folder.exists() for leak in files_containing(folder, needles)
    ]
    assert leaks == [], f"the typed API key was written to: {leaks}"
    assert any(files_containing(tmp_path / "logs", [REDACTED.encode()])), "nothing was redacted"
    assert TYPED_KEY not in run.stdout + run.stderr
    assert report_code == 0 and any(report_dir.rglob("*.md")), "research-taste report failed"
