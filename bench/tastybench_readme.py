"""Regenerate every figure of the TastyBench README from logs (no figure is typed by hand).

Runs the offline baselines of ``readme_tables.BASELINE_RUNS`` on the real curated set (one
Inspect log each, kept in ``--log-dir``), replays upstream's 18 stored runs, and rewrites the
README's generated blocks (``upstream-runs``, ``baselines``, ``data-facts``). With
``--from-logs`` it reuses the newest matching logs in ``--log-dir`` instead of running.
``--check`` rewrites nothing and exits 1 when the README differs from what the code produces.

Run: ``python bench/tastybench_readme.py --upstream ../shared/datasets/upstream/tastybench``
(about 90 s per baseline run on two cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from readme_logs import save_headers
from research_taste.docs.tastybench_tables import (
    BASELINE_DEFAULTS,
    BASELINE_RUNS,
    BaselineRun,
    baselines_table,
    data_facts,
    parser_facts,
    upstream_runs_table,
)
from research_taste_evals.core.text import replace_block
from research_taste_evals.tastybench.tastybench import tastybench

README = Path(__file__).resolve().parents[1] / "src/research_taste_evals/tastybench/README.md"
FAST = {"display": "none", "max_connections": 1000, "max_samples": 1000, "log_realtime": False}


def _task_args(run: BaselineRun) -> dict[str, object]:
    return {**BASELINE_DEFAULTS, **run.args}


def _matches(log: EvalLog, run: BaselineRun) -> bool:
    args = {**BASELINE_DEFAULTS, **(log.eval.task_args or {})}
    wanted = _task_args(run)
    return log.eval.model == run.model and all(args.get(k) == v for k, v in wanted.items())


def baseline_logs(upstream: Path, log_dir: Path, from_logs: bool) -> list[tuple[EvalLog, str]]:
    """One successful log per baseline run: run now, or the newest matching one on disk."""
    found = []
    existing = [read_eval_log(info) for info in list_eval_logs(str(log_dir))] if from_logs else []
    for run in BASELINE_RUNS:
        candidates = [log for log in existing if log.status == "success" and _matches(log, run)]
        if candidates:
            found.append((max(candidates, key=lambda log: log.eval.created), run.label))
            continue
        if from_logs:
            raise SystemExit(f"no log in {log_dir} for {run.model} {json.dumps(run.args)}")
        task = tastybench(data_path=str(upstream), **_task_args(run))  # type: ignore[arg-type]
        log = inspect_eval(task, model=run.model, log_dir=str(log_dir), **FAST)[0]  # type: ignore[arg-type]
        if log.status != "success":
            raise SystemExit(f"{run.model} {run.args}: run failed: {log.error}")
        found.append((log, run.label))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", type=Path, required=True, help="upstream tastybench folder")
    parser.add_argument("--log-dir", type=Path, default=Path("logs/tastybench-readme"))
    parser.add_argument("--from-logs", action="store_true", help="reuse logs, run nothing")
    parser.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args()
    text = README.read_text(encoding="utf-8")
    baselines = baseline_logs(args.upstream, args.log_dir, args.from_logs)
    if not args.check:
        # Headers kept in tests/readme_logs/tastybench: tests/test_readme_figures.py
        # re-renders the baselines block from them.
        keys = [
            f"{i:02d}-{log.eval.model.replace('/', '_')}" for i, (log, _) in enumerate(baselines)
        ]
        save_headers(dict(zip(keys, (log for log, _ in baselines), strict=True)), "tastybench")
    blocks = {
        "data-facts": data_facts(args.upstream) + "\n" + parser_facts(args.upstream),
        "upstream-runs": upstream_runs_table(args.upstream),
        "baselines": baselines_table(baselines),
    }
    updated = text
    for name, content in blocks.items():
        updated = replace_block(updated, name, content)
    if args.check:
        print("README is up to date" if updated == text else "README is stale")
        return 0 if updated == text else 1
    README.write_text(updated, encoding="utf-8")
    print(f"rewrote {len(blocks)} blocks of {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
