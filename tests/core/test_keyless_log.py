"""core.redaction.keyless_log: a copied log names no key given as a model argument, neither in
the arguments nor where the log repeats the value; other arguments and a log's own ``token``
fields are left as they are."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import read_eval_log

from research_taste_evals.core.redaction import REDACTED, keyless_log

LOG = Path(__file__).resolve().parents[1] / "readme_logs" / "tastybench" / "01-baseline_random.json"
KEY = "plainValue0123456789"  # no credential shape


def test_a_model_argument_key_and_its_echo_are_redacted() -> None:
    log = read_eval_log(str(LOG))
    log.eval.model_args = {"provider_token": KEY, "api_key": "short", "max_connections": 3}
    log.eval.metadata = {**(log.eval.metadata or {}), "echo": f"request failed for key {KEY}"}
    copy = keyless_log(log)
    assert copy.eval.model_args == {
        "provider_token": REDACTED,
        "api_key": REDACTED,
        "max_connections": 3,
    }
    text = copy.model_dump_json()
    assert KEY not in text and "request failed for key [REDACTED]" in text
    assert log.eval.model_args["provider_token"] == KEY  # the original is untouched
    assert copy.location == log.location


def test_a_log_without_key_arguments_is_an_equal_copy() -> None:
    log = read_eval_log(str(LOG))
    log.eval.model_args = {"max_connections": 3}
    assert keyless_log(log).model_dump_json() == log.model_dump_json()
