"""Nothing published names an API key: the report, its pages, CSVs and the logs it copies.

The run is a fresh ``inspect eval`` process (Inspect reads the key when it first creates the
model) with a distinctive ``FAULT_API_KEY``, a grader panel, ``--cache``, ``--retry-on-error``,
then ``research-taste report`` in this process (a report folder with its viewer bundle). The
server echoes the request's ``Authorization`` header in HTTP error bodies, as some providers and
proxies do, and one grader fails most calls, so Inspect records the key as the provider sent it
in the log's errors (the log is local: the test checks it is there, so the search can fail);
every sample still completes on a retry, so the report copies the log. The report and the cache
are searched, inside ``.eval`` archives too, for the key and for its base64 form.
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
from fault_runs import EVALUATED, GRADERS, SAMPLE_RETRIES, TASKS, model_name
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


FAILING_SHARE = 0.8  # of the broken grader's calls: a retried sample gets through


def _run_and_report(
    fault_server: FaultServer, tmp_path: Path, key_var_value: str, grader_panel: str, display: str
) -> tuple[subprocess.CompletedProcess[str], int]:
    spec = TASKS["lft"]
    fault_server.set_rule(spec.rule)
    broken = GRADERS[-1]
    faults = Faults(http_500=FAILING_SHARE, echo_auth=True, models=frozenset({broken}))
    fault_server.set_faults(faults, seed=0)
    fault_server.reset_stats()
    env = {
        **os.environ,
        API_KEY_VAR: key_var_value,
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    task_args = [part for k, v in spec.args.items() for part in ("-T", f"{k}={v}")]
    run = subprocess.run(
        [
            INSPECT,
            "eval",
            "research_taste_evals/lft",
            "--model",
            model_name(EVALUATED),
            "--model-role",
            f"grader={grader_panel}",
            *task_args,
            "--log-dir",
            str(tmp_path / "logs"),
            "--log-model-api",
            "--max-retries",
            "0",
            "--retry-on-error",
            str(SAMPLE_RETRIES),
            "--cache",
            "--display",
            display,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report_code = cli_main(["report", str(tmp_path / "logs"), "--out", str(tmp_path / "report")])
    return run, report_code


def _published_leaks(tmp_path: Path, key: str) -> list[str]:
    needles = [key.encode(), base64.b64encode(key.encode())]
    written = [tmp_path / name for name in ("report", "cache", "data-home")]
    return [
        leak for folder in written if folder.exists() for leak in files_containing(folder, needles)
    ]


def test_an_echoed_environment_key_is_in_no_report_or_cache(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    run, report_code = _run_and_report(
        fault_server, tmp_path, SECRET, ",".join(TASKS["lft"].roles["grader"]), "none"
    )
    stats = fault_server.reset_stats()
    assert stats.auth_headers == {f"Bearer {SECRET}"}, stats.auth_headers  # the key was used
    assert stats.faults["http_500"] > 0
    # Inspect recorded the echoed errors as they were: the search finds the key in the log.
    assert any(files_containing(tmp_path / "logs", [SECRET.encode()])), "no echoed error logged"
    assert any((tmp_path / "cache").rglob("*")), "the cache was not written"
    assert report_code == 0 and any((tmp_path / "report").rglob("*.md")), "no report"
    assert any((tmp_path / "report" / "viewer").rglob("*.eval")), "no log was bundled"
    assert _published_leaks(tmp_path, SECRET) == []
    assert any(files_containing(tmp_path / "report", [REDACTED.encode()])), "nothing redacted"


# A key typed on the command line: not in the environment, no ``sk-`` prefix.
TYPED_KEY = "typedKey0a1b2c3d4e5f6g7h8i9j"


def test_a_key_given_as_a_model_argument_is_in_no_log_header_report_or_cache(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """A grader configured with ``api_key`` (as ``-M api_key=...`` gives a model), its calls'
    errors quoting the request's ``Authorization`` header: Inspect leaves the key out of the
    log header, and the report redacts it by its header shape. (A key echoed bare, in no
    header's shape and in no environment variable, is not recognisable: docs/running.md.)"""
    others = [model_name(g) for g in GRADERS[:-1]]
    typed = {"model": model_name(GRADERS[-1]), "model_args": {"api_key": TYPED_KEY}}
    run, report_code = _run_and_report(
        fault_server,
        tmp_path,
        "environment-key-for-the-others",
        json.dumps([*others, typed]),
        "plain",
    )
    stats = fault_server.reset_stats()
    assert f"Bearer {TYPED_KEY}" in stats.auth_headers, stats.auth_headers
    assert any(files_containing(tmp_path / "logs", [TYPED_KEY.encode()])), "no echoed error"
    headers = [
        leak
        for leak in files_containing(tmp_path / "logs", [TYPED_KEY.encode()])
        if leak.endswith(("header.json", "_journal/start.json"))
    ]
    assert headers == [], headers
    assert report_code == 0 and any((tmp_path / "report" / "viewer").rglob("*.eval"))
    assert _published_leaks(tmp_path, TYPED_KEY) == []
