"""One case of the bad-input corpus (see bad_input_corpus.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NOT_UTF8 = b"\xff\xfe not utf-8 \xc3\x28"


@dataclass(frozen=True)
class Case:
    """A broken input: ``build(tmp)`` writes it and returns the task arguments to run it with."""

    name: str
    task: str
    build: Callable[[Path], dict[str, Any]]
    expected: tuple[str, ...]
    model: str = "baseline/all-positive"
    model_roles: dict[str, str] = field(default_factory=dict)
