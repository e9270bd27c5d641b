"""The figures in the LFT README, computed from Inspect logs (run ``python -m`` on this module).

``python -m research_taste.docs.lft_figures [log_dir]`` runs, offline:

- the grader check on the shipped references with the keyword grader (``baseline/lft-grader``,
  a floor: it matches words) and with the answer-aware ``baseline/lft-reference-oracle`` (a
  ceiling), and prints the exact-level recovery of both;
- "documents alone": each task's context documents submitted as the solution and graded by
  the keyword grader (how far the ``access=context`` material alone gets);
- the offline demo (``baseline/lft-generic-protocol`` graded by the keyword grader);

then reads the logs back and prints the README's tables; with ``--write-readme`` it also
replaces the block between the README's figure markers with them.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, read_eval_log

import research_taste_evals.lft as lft_family
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.lft.dataset import rubric_to_sample
from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.lft_grader_check import lft_grader_check
from research_taste_evals.lft.rubric import Rubric, load_rubrics
from research_taste_evals.lft.scorer import lft_scorer
from research_taste_evals.lft.solvers import reference_answer

KEYWORD_GRADER = "baseline/lft-grader"
ORACLE_GRADER = "baseline/lft-reference-oracle"
DEMO_MODEL = "baseline/lft-generic-protocol"
DETERMINISTIC_REPEATS = 1  # the offline graders are deterministic: more repeats add nothing
# The LFT family README, beside the family in the evals package.
README = Path(lft_family.__file__).with_name("README.md")
START_MARKER, END_MARKER = "<!-- figures:start -->", "<!-- figures:end -->"
WRITE_README_FLAG = "--write-readme"


def metrics(log: EvalLog) -> dict[str, float]:
    """Every figure of a log, by name (``core.task_metric.log_results``)."""
    assert log.results is not None, log.error
    return log_results(log)


def documents_sample(rubric: Rubric) -> Sample:
    """The rubric's sample with its context documents as the solution to grade."""
    sample = rubric_to_sample(rubric)
    text = "\n\n".join(f"{d.title}\n\n{d.content()}" for d in rubric.context_documents)
    assert sample.metadata is not None
    sample.metadata["reference_text"] = text
    return sample


def documents_alone_task() -> Task:
    """Grade each task's context documents alone, as if they were a solution."""
    rubrics = [r for r in load_rubrics() if r.context_documents]
    return Task(
        dataset=MemoryDataset([documents_sample(r) for r in rubrics], name="lft_documents"),
        solver=reference_answer(),
        scorer=lft_scorer(DETERMINISTIC_REPEATS),
        name="lft_documents_alone",
    )


def run_all(log_dir: str) -> dict[str, Path]:
    """Run the four offline evals into ``log_dir``; their log files by figure name."""
    runs = {
        "check_keyword": (lft_grader_check(grader_repeats=DETERMINISTIC_REPEATS), KEYWORD_GRADER),
        "check_oracle": (lft_grader_check(grader_repeats=DETERMINISTIC_REPEATS), ORACLE_GRADER),
        "documents_alone": (documents_alone_task(), DEMO_MODEL),
        "demo": (lft(grader_repeats=DETERMINISTIC_REPEATS), DEMO_MODEL),
    }
    files: dict[str, Path] = {}
    for name, (task, model) in runs.items():
        log = inspect_eval(
            task,
            model=model,
            # The check grades with the evaluated model itself: no grader role there.
            model_roles=None if name.startswith("check") else {"grader": KEYWORD_GRADER},
            log_dir=log_dir,
            display="none",
        )[0]
        files[name] = Path(log.location)
    return files


def report(files: dict[str, Path]) -> str:
    """The README tables, read from the logs."""
    m = {name: metrics(read_eval_log(str(path))) for name, path in files.items()}
    kw, oracle = m["check_keyword"], m["check_oracle"]
    lines = [
        "| grader | exact | within one | mean abs. error | exact on keyword-stuffed |",
        "|---|---|---|---|---|",
    ]
    for label, row in (("keyword (baseline/lft-grader)", kw), ("answer-aware oracle", oracle)):
        lines.append(
            f"| {label} | {row['exact']:.2f} | {row['within_one']:.2f} | "
            f"{row['abs_error']:.2f} | {row['exact/keyword_stuffing']:.2f} |"
        )
    lines += [
        "",
        "| task | documents alone: level | partial credit | demo: level |",
        "|---|---|---|---|",
    ]
    tasks = sorted(k.split("/", 1)[1] for k in m["demo"] if k.startswith("end_to_end/"))
    for task_id in tasks:
        docs = m["documents_alone"]
        lines.append(
            f"| `{task_id}` | {docs.get(f'end_to_end/{task_id}', float('nan')):g} | "
            f"{docs.get(f'partial_credit/{task_id}', float('nan')):.2f} | "
            f"{m['demo'][f'end_to_end/{task_id}']:g} |"
        )
    return "\n".join(lines)


def write_readme(tables: str, readme: Path = README) -> None:
    """Replace the README's block between the figure markers with ``tables``."""
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(START_MARKER, 1)
    _, tail = rest.split(END_MARKER, 1)
    readme.write_text(f"{head}{START_MARKER}\n{tables}\n{END_MARKER}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    write = WRITE_README_FLAG in args
    paths = [a for a in args if a != WRITE_README_FLAG]
    log_dir = paths[0] if paths else tempfile.mkdtemp(prefix="lft-figures-")
    tables = report(run_all(log_dir))
    print(tables)
    print(f"\nlogs: {log_dir}")
    if write:
        write_readme(tables)
        print(f"updated {README}")


if __name__ == "__main__":
    main()
