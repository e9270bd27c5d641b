"""describe_error: a failure record says what failed in words, not a Future's repr."""

from __future__ import annotations

import json

import httpx2
import openai
import pytest
from tenacity import RetryError, retry, retry_if_exception_type, stop_after_attempt

from research_taste_evals.core.failure_text import MAX_MESSAGE_CHARS, describe_error
from research_taste_evals.core.redaction import unwrap_error

URL = "http://127.0.0.1:8123/v1/chat/completions"


def _status_error(status: int, body: object) -> openai.APIStatusError:
    request = httpx2.Request("POST", URL)
    response = httpx2.Response(status, request=request, json=body)
    error_type = {500: openai.InternalServerError, 429: openai.RateLimitError}[status]
    return error_type(f"Error code: {status} - {body}", response=response, body=body)


def _retry_error(error: BaseException) -> RetryError:
    """What tenacity raises once a retried call has failed every attempt."""

    @retry(stop=stop_after_attempt(2), retry=retry_if_exception_type(Exception))
    def call() -> None:
        raise error

    with pytest.raises(RetryError) as caught:
        call()
    return caught.value


def test_openai_status_error_names_provider_host_status_and_message() -> None:
    error = _status_error(500, {"error": {"message": "server error (injected)"}})
    assert describe_error(error) == (
        "openai (127.0.0.1:8123): HTTP 500 InternalServerError: server error (injected)"
    )


def test_retry_error_is_unwrapped_to_the_last_attempts_error() -> None:
    inner = _status_error(429, {"error": {"message": "rate limited"}})
    wrapped = _retry_error(inner)
    assert "Future" in repr(wrapped)  # what the record said before
    assert unwrap_error(wrapped) is inner
    assert describe_error(wrapped) == (
        "openai (127.0.0.1:8123): HTTP 429 RateLimitError: rate limited"
    )


def test_exception_group_lists_each_distinct_member() -> None:
    bad_body = json.JSONDecodeError("Expecting value", "", 0)
    timeout = openai.APITimeoutError(request=httpx2.Request("POST", URL))
    group = ExceptionGroup("sample failed", [bad_body, _retry_error(timeout), bad_body])
    assert describe_error(group) == (
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0); "
        "openai (127.0.0.1:8123): APITimeoutError: Request timed out."
    )


def test_plain_errors_keep_type_and_message_and_long_messages_are_cut() -> None:
    assert describe_error(ValueError("no grade in answer")) == "ValueError: no grade in answer"
    assert describe_error(RuntimeError()) == "RuntimeError: (no message)"
    long = describe_error(RuntimeError("x" * 1000))
    assert long.endswith("...") and len(long) == len("RuntimeError: ") + MAX_MESSAGE_CHARS


def test_error_body_without_a_message_falls_back_to_the_exception_text() -> None:
    error = _status_error(500, {"detail": "upstream down"})
    described = describe_error(error)
    assert described.startswith("openai (127.0.0.1:8123): HTTP 500 InternalServerError: ")
    assert "upstream down" in described
