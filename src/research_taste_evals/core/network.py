"""Fail fast when a data or model host cannot be reached.

An offline machine otherwise waits on long read timeouts and the Hugging Face client's retries
(27-78 s measured) before it fails. One short TCP connect to the host answers the question in
at most :data:`CONNECT_TIMEOUT_SECONDS`; callers then read from their cache or stop with a
message that says how to run offline.
"""

from __future__ import annotations

import os
import socket
from functools import cache
from urllib.parse import urlsplit

CONNECT_TIMEOUT_SECONDS = 5.0
CONNECT_TIMEOUT_ENV = "RESEARCH_TASTE_CONNECT_TIMEOUT"
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Every task that downloads data takes it as ``data_path``; only data arguments are named here
# (an embedding model that cannot be loaded has its own hint, core/embeddings.py).
OFFLINE_HINT = (
    "Without network access, run on the demo data with -T data_path=demo, or download the "
    "data elsewhere and pass -T data_path=<path>."
)


def connect_timeout() -> float:
    """Seconds one reachability probe may wait (``$RESEARCH_TASTE_CONNECT_TIMEOUT`` overrides)."""
    raw = os.environ.get(CONNECT_TIMEOUT_ENV)
    return float(raw) if raw else CONNECT_TIMEOUT_SECONDS


def host_of(url: str) -> tuple[str, int] | None:
    """``(host, port)`` of a network URL; None for one with no host (``file://``)."""
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    return parts.hostname, parts.port or _DEFAULT_PORTS.get(parts.scheme, 443)


@cache
def _probe(host: str, port: int, timeout: float) -> str | None:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as error:  # refused, unreachable, DNS failure, timeout
        return f"{type(error).__name__}: {error}"


def unreachable_reason(url: str) -> str | None:
    """Why the host of ``url`` cannot be reached (None when a TCP connection opens, or the URL
    names no host, such as a ``file://`` URL).

    Cached per host and port for the process: a sweep probes each host once.
    """
    address = host_of(url)
    return None if address is None else _probe(*address, connect_timeout())


def hub_endpoint() -> str:
    """The Hugging Face endpoint huggingface_hub uses (``HF_ENDPOINT`` or huggingface.co)."""
    from huggingface_hub import constants

    return str(constants.ENDPOINT)


def hub_offline() -> bool:
    """True when the Hub is switched off (``HF_HUB_OFFLINE``) or does not accept a connection.

    Callers pass ``local_files_only=True`` then: a cached file still loads, a missing one fails
    at once instead of after the client's retries.
    """
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE) or unreachable_reason(hub_endpoint()) is not None
