"""What a family contributes to ``research-taste demo``: its tasks on demo data, run offline.

Each family's ``demo.py`` defines ``DEMO_RUNS``, a tuple of :class:`DemoRun`; the demo runner
(``cli/demo.py``) collects them from every family it lists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai import Task


@dataclass(frozen=True)
class DemoRun:
    """One task of the demo: how to build it on demo data, and which offline models run it.

    Attributes:
        name: The task's name (what ``research-taste demo --task`` selects).
        build: Builds the task given the demo's data folder, where it may write its demo data.
            The folder is the same on every run, so the task's arguments (and the log's key in
            leaderboards) are the same from run to run.
        model: The offline ``baseline/<name>`` model that answers.
        model_roles: Offline models for other roles (e.g. ``grader``).
        data_arg: The task argument that takes the demo data's location (what a sweep file's
            ``<data_arg>: demo`` resolves), or None when the task runs on data it ships.
        write_data: Writes the demo data into a folder and returns the value for ``data_arg``.
    """

    name: str
    build: Callable[[Path], Task]
    model: str
    model_roles: dict[str, str] = field(default_factory=dict)
    data_arg: str | None = None
    write_data: Callable[[Path], Path] | None = None
