"""Human validation of the LFT autograder: export solutions for experts, read their grades back.

AISI's Long-Form Tasks paper (Pencharz, Flesch and Sandbrink; section "Human expert validation")
randomly selects five solutions per task that the autograder deemed feasible (end-to-end >= 5)
and has two experts grade them against the rubric; in the petunia case more than 70% were
downgraded. ``research-taste lft-export`` samples N scored solutions per task (seeded) from
Inspect logs of ``lft`` into a file for experts, blind to the autograder (the autograder's
grades go to a separate key file); ``research-taste lft-agreement`` reads the experts' grades
back and reports autograder-vs-expert agreement.

Expert file: CSV (``.csv``) or JSON lines (``.jsonl``), one row per solution, with
``export_id``, ``task_id``, ``prompt``, ``rubric``, ``solution`` and one empty column per
expert, ``expert_<i>_end_to_end`` (an integer 0-10), plus ``expert_<i>_notes``.
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import list_eval_logs, read_eval_log

from research_taste_evals.core.data import DataError
from research_taste_evals.core.stats import NAN
from research_taste_evals.core.text import content_id
from research_taste_evals.lft.grader import FEASIBLE_LEVEL, format_levels
from research_taste_evals.lft.rubric import MAX_LEVEL, rubric_from_metadata

LFT_TASK_NAME = "lft"
DEFAULT_PER_TASK = 5  # AISI: five random "feasible" solutions per task
DEFAULT_EXPERTS = 2  # AISI: two human experts
DEFAULT_SEED = 20241125
JSONL_SUFFIX = ".jsonl"
KEY_SUFFIX = ".key.jsonl"
EXPERT_COLUMN = re.compile(r"^expert_(\w+?)_end_to_end$")
EXPERT_FIELDS = ("export_id", "task_id", "prompt", "rubric", "solution")


@dataclass(frozen=True)
class Candidate:
    """One scored LFT solution in a log, with the autograder's grades (kept out of the export)."""

    export_id: str
    task_id: str
    log: str
    sample_id: str
    epoch: int
    model: str
    task_args: str
    autograder_end_to_end: float
    autograder_partial_credit: float
    prompt: str
    rubric: str
    solution: str


def _lft_logs(log_dir: str) -> Iterator[Any]:
    for info in list_eval_logs(log_dir):
        log = read_eval_log(info)
        if log.eval.task.split("/")[-1] == LFT_TASK_NAME and log.samples:
            yield log


def collect_candidates(log_dir: str, min_level: float = FEASIBLE_LEVEL) -> list[Candidate]:
    """Every scored LFT solution in ``log_dir`` whose autograder median is >= ``min_level``."""
    found = []
    for log in _lft_logs(log_dir):
        for sample in log.samples or []:
            # The first score is lft_scorer's (older logs hold a copy of it second).
            for score in list((sample.scores or {}).values())[:1]:
                value = score.value
                if not isinstance(value, dict) or "end_to_end" not in value:
                    continue
                level = float(value["end_to_end"])
                if math.isnan(level) or level < min_level:
                    continue
                rubric = rubric_from_metadata(sample.metadata)
                solution = score.answer or sample.output.completion
                found.append(
                    Candidate(
                        export_id=content_id(log.location, sample.id, sample.epoch),
                        task_id=rubric.task_id,
                        log=str(log.location),
                        sample_id=str(sample.id),
                        epoch=sample.epoch,
                        model=log.eval.model,
                        task_args=json.dumps(log.eval.task_args, sort_keys=True, default=str),
                        autograder_end_to_end=level,
                        autograder_partial_credit=float(value.get("partial_credit", NAN)),
                        prompt=rubric.prompt,
                        rubric=format_levels(rubric),
                        solution=solution,
                    )
                )
    return found


def sample_per_task(candidates: Iterable[Candidate], per_task: int, seed: int) -> list[Candidate]:
    """``per_task`` candidates per task id, drawn with a seeded generator (all if fewer)."""
    if per_task < 1:
        raise ValueError(f"per_task must be >= 1, got {per_task}")
    by_task: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: (c.task_id, c.export_id)):
        by_task.setdefault(candidate.task_id, []).append(candidate)
    rng = random.Random(seed)
    chosen: list[Candidate] = []
    for task_id in sorted(by_task):
        pool = by_task[task_id]
        chosen.extend(rng.sample(pool, min(per_task, len(pool))))
    return chosen


def expert_columns(experts: int) -> list[str]:
    return [
        f"expert_{i}_{field}" for i in range(1, experts + 1) for field in ("end_to_end", "notes")
    ]


def write_rows(path: Path, rows: list[dict[str, Any]], fields: list[str]) -> None:
    """Write ``rows`` as CSV or JSON lines, by the file's suffix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == JSONL_SUFFIX:
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
        return
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def key_path(export_path: Path) -> Path:
    return export_path.with_name(export_path.stem + KEY_SUFFIX)


def export_for_experts(
    log_dir: str,
    out: Path,
    per_task: int = DEFAULT_PER_TASK,
    seed: int = DEFAULT_SEED,
    experts: int = DEFAULT_EXPERTS,
    min_level: float = FEASIBLE_LEVEL,
) -> tuple[list[Candidate], Path]:
    """Write the blind expert file and its key file; returns the chosen solutions and key path."""
    chosen = sample_per_task(collect_candidates(log_dir, min_level), per_task, seed)
    columns = expert_columns(experts)
    rows = [
        {**{f: getattr(c, f) for f in EXPERT_FIELDS}, **dict.fromkeys(columns, "")} for c in chosen
    ]
    write_rows(out, rows, [*EXPERT_FIELDS, *columns])
    key = key_path(out)
    write_rows(key, [asdict(c) for c in chosen], [])
    return chosen, key


def parse_expert_level(raw: Any, where: str) -> int | None:
    """An expert's end-to-end grade (blank = not graded); anything but an integer 0-10 raises."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    text = str(raw).strip()
    if not re.fullmatch(r"\d+", text) or not 0 <= int(text) <= MAX_LEVEL:
        raise DataError(f"{where}: expected an integer 0-{MAX_LEVEL}, got {raw!r}")
    return int(text)
