"""The throwaway family's demo: two questions shipped in ``demo.jsonl``."""

from __future__ import annotations

import shutil
from pathlib import Path

from research_taste_evals.throwaway.throwaway import throwaway_task

from research_taste_evals.core.demo import DemoRun

DEMO_FILE = Path(__file__).with_name("demo.jsonl")


def write_demo(directory: Path) -> Path:
    """Copy the demo questions into ``directory``; returns the file."""
    directory.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copyfile(DEMO_FILE, directory / DEMO_FILE.name))


DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun(
        name="throwaway_task",
        build=lambda data_dir: throwaway_task(data_path=str(write_demo(data_dir / "throwaway"))),
        model="baseline/copy-input",
        data_arg="data_path",
        write_data=write_demo,
    ),
)
