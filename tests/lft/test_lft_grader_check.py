"""lft_grader_check: reference files, known levels, recovery metrics with scripted graders."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from log_metrics import every_figure_of

from research_taste_evals.core.data import DataError
from research_taste_evals.lft.baselines import keyword_grade
from research_taste_evals.lft.check_scorer import check_value
from research_taste_evals.lft.grader import grading_prompt
from research_taste_evals.lft.lft_grader_check import lft_grader_check
from research_taste_evals.lft.references import (
    DEFAULT_REFERENCE_DIR,
    Reference,
    load_references,
)
from research_taste_evals.lft.rubric import load_rubrics

SHIPPED = ("petunia-plastid", "ablation-plan", "contamination-audit", "loss-spike-hypotheses")


@pytest.fixture(scope="module")
def references() -> list[Reference]:
    return load_references(None, load_rubrics())


def test_shipped_references_cover_every_rubric(
    references: list[Reference],
) -> None:
    for task_id in SHIPPED:
        mine = {r.id: r for r in references if r.task_id == task_id}
        assert all(mine[f"exact-{k}"].known_level == k for k in range(1, 11))
        kinds = {r.kind for r in mine.values()}
        assert {"exact", "gap", "confident_wrong", "keyword_stuffing"} <= kinds
        assert sum(r.kind == "keyword_stuffing" for r in mine.values()) >= 2
        assert any(r.known_level == 0 for r in mine.values() if r.kind == "exact")
    exact10 = next(r for r in references if r.id == "exact-10" and r.task_id == "petunia-plastid")
    assert exact10.known_partial_credit == 1.0
    exact0 = next(r for r in references if r.id == "level-0-no-plastid")
    assert exact0.known_partial_credit is not None and 0 < exact0.known_partial_credit < 0.1


def test_generic_vector_reference_replaces_the_named_vector(references: list[Reference]) -> None:
    generic = next(r for r in references if r.id == "generic-vector")
    assert generic.known_level == 4
    assert "standard chloroplast transformation vector" in generic.text
    assert "pUC-based plasmid" not in generic.text


def _copy_reference(tmp_path: Path, edit: Callable[[dict], None]) -> Path:
    raw = yaml.safe_load((DEFAULT_REFERENCE_DIR / "petunia-plastid.yaml").read_text())
    edit(raw)
    path = tmp_path / "refs.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda r: r["references"][1].update(known_level=7),
            r"gap-homoplasmy\).*known_level 7 but",
        ),
        (
            lambda r: r["passages"].pop("petunia-southern"),
            r"passages: .*missing \['petunia-southern'\]",
        ),
        (lambda r: r["references"][1].update(omit=["no-such-id"]), r"unknown criterion id"),
        (lambda r: r.update(task_id="nope"), r"task_id: no rubric 'nope'"),
        (lambda r: r["references"][1].update(text="x"), r"exactly one of 'include'"),
        (lambda r: r["references"][1].update(kind="weird"), r"references\[1\]\.kind"),
    ],
)
def test_bad_reference_files_fail_with_file_and_place(
    tmp_path: Path, edit: Callable[[dict], None], message: str
) -> None:
    path = _copy_reference(tmp_path, edit)
    with pytest.raises(DataError, match=message) as error:
        load_references(path, load_rubrics())
    assert str(path) in str(error.value)


def test_check_value_compares_median_with_known_level() -> None:
    panel = {"end_to_end": 6.0, "partial_credit": 0.5, "valid_grades": 3.0, "failed_grades": 0.0}
    value = check_value(panel, [6, 6, 7], 5, 0.25)
    assert (value["error"], value["exact"], value["within_one"], value["overscored"]) == (
        1,
        0,
        1,
        1,
    )
    assert value["member_exact"] == 0 and value["partial_credit_abs_error"] == 0.25
    unscored = check_value({**panel, "end_to_end": math.nan}, [], 5, None)
    assert math.isnan(unscored["exact"]) and math.isnan(unscored["abs_error"])


def level_grader(references: list[Reference], offset: int) -> Model:
    """A grader that finds the reference in the prompt and answers its known level + offset."""

    def respond(
        messages: list[ChatMessage],
        tools: list[ToolInfo],
        choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = messages[-1].text
        solution = re.search(r"<solution>\n(.*)\n</solution>", prompt, re.DOTALL)
        assert solution is not None
        known = next(r.known_level for r in references if r.text == solution.group(1))
        level = min(10, known + offset)
        text = (
            "```json\n"
            + json.dumps({"level": level, "criteria_met": [], "rationale": "r"})
            + "\n```"
        )
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=respond)


def test_an_oracle_grader_recovers_every_level(references: list[Reference]) -> None:
    task = lft_grader_check(task_ids="petunia-plastid", grader_repeats=2, partial_credit=False)
    log = inspect_eval(task, model=level_grader(references, 0), display="none")[0]
    metrics = every_figure_of(log)
    assert metrics["exact"] == 1.0 and metrics["within_one"] == 1.0 and metrics["abs_error"] == 0
    assert metrics["exact/keyword_stuffing"] == 1.0 and metrics["member_exact"] == 1.0
    assert metrics["grader_failure_rate"] == 0.0
    assert log.samples is not None and len(log.samples) == 10 + 9


def test_a_lenient_grader_is_within_one_but_never_exact(references: list[Reference]) -> None:
    task = lft_grader_check(task_ids=["petunia-plastid"], grader_repeats=1, partial_credit=False)
    log = inspect_eval(task, model=level_grader(references, 1), display="none")[0]
    metrics = every_figure_of(log)
    # Level-10 references (exact-10, the PEG alternative) cannot be over-scored: 2 of 19.
    assert metrics["exact"] == pytest.approx(2 / 19) and metrics["within_one"] == 1.0
    assert metrics["bias"] == pytest.approx(17 / 19)
    assert metrics["overscored"] == pytest.approx(17 / 19)
    assert metrics["bias/keyword_stuffing"] == 1.0


def test_unknown_task_id_is_rejected(tmp_path: Path) -> None:
    path = _copy_reference(tmp_path, lambda r: None)
    with pytest.raises(ValueError, match="no references for task id"):
        lft_grader_check(references_dir=str(path), task_ids="contamination-audit")


def test_keyword_baseline_grader_answers_valid_json(references: list[Reference]) -> None:
    rubric = next(r for r in load_rubrics() if r.task_id == "petunia-plastid")
    exact3 = next(r for r in references if r.id == "exact-3" and r.task_id == rubric.task_id)
    answer = keyword_grade(grading_prompt(rubric, exact3.text))
    grade = json.loads(answer.split("```json\n")[1].split("\n```")[0])
    assert set(grade) == {"level", "criteria_met", "rationale"} and 0 <= grade["level"] <= 10
    assert (
        keyword_grade("hello") == "baseline/lft-grader only answers Long-Form Task grading prompts."
    )
