"""A logged data argument is recognised as the demo data ``-T <arg>=demo`` wrote (so a
report's command can say ``demo`` again), by its ``demo-data/<task>/`` folder only."""

from __future__ import annotations

import pytest

from research_taste_evals.core.demo import demo_data_dir, is_demo_data


@pytest.mark.parametrize(
    ("task", "value", "expected"),
    [
        ("eqinfer", f"{demo_data_dir()}/eqinfer/equation.demo.json", True),
        ("eqinfer", "/elsewhere/.cache/research_taste_evals/demo-data/eqinfer/x.json", True),
        ("eqinfer", "/data/demo-data/expdesign/x.json", False),  # another task's
        ("eqinfer", "/data/my-demo-data/eqinfer/x.json", False),
        ("eqinfer", "data/eqinfer/demo-data", False),
        ("eqinfer", 7, False),
    ],
)
def test_only_a_task_s_own_demo_folder_is_its_demo_data(
    task: str, value: object, expected: bool
) -> None:
    assert is_demo_data(task, value) is expected
