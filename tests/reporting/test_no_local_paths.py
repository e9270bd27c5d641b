"""A published report names no local absolute path: page, CSVs, evaluation report, bundled logs.

Real runs read their data from an absolute folder (``-T data_path=<tmp_path>/...``), which the
logs record in task arguments and provenance; the report built from them is searched byte by
byte, inside every ``.eval`` archive too, for that folder and for the log folder.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from archive_search import files_containing
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ModelOutput

from research_taste.cli import main
from research_taste.reporting.paths import local_paths, placeholder, scrub_text, scrubbed_log
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.tastybench.demo import write_demo_tastybench
from research_taste_evals.tastybench.tastybench import tastybench

PRIVATE = "private-folder-7c1e"  # a distinctive part of the data folder's absolute path


@pytest.fixture(scope="module")
def private_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(log folder, data folder): EqInfer and TastyBench run on data at an absolute path."""
    root = tmp_path_factory.mktemp("paths")
    data = root / PRIVATE
    logs = root / "logs"
    eqinfer_file = write_demo_eqinfer(data / "eqinfer")
    tastybench_dir = write_demo_tastybench(data / "tastybench")
    assert eqinfer_file.is_absolute() and tastybench_dir.is_absolute()
    for task, model in (
        (eqinfer(data_path=str(eqinfer_file)), "baseline/all-positive"),
        (
            tastybench(data_path=str(tastybench_dir), bootstrap_resamples=50),
            "baseline/tastybench-first",
        ),
    ):
        [log] = inspect_eval(task, model=model, limit=3, log_dir=str(logs), display="none")
        assert log.status == "success", log.error
    return logs, data


def test_the_search_finds_a_path_in_the_original_logs(private_logs: tuple[Path, Path]) -> None:
    logs, data = private_logs
    leaks = files_containing(logs, [str(data).encode()])
    assert any(name.endswith("!header.json") for name in leaks)  # the search can fail


def test_report_names_no_local_path_and_leaves_the_logs_untouched(
    private_logs: tuple[Path, Path], tmp_path: Path
) -> None:
    logs, data = private_logs
    before = {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in logs.iterdir()}
    out = tmp_path / "report"
    assert main(["report", str(logs), "--out", str(out), "--eval-report"]) == 0
    bundled = sorted((out / "viewer").rglob("*.eval"))
    assert len(bundled) == 2
    needles = [str(data).encode(), str(logs).encode(), PRIVATE.encode()]
    assert files_containing(out, needles) == []
    evaluation = (out / "evaluation_report.md").read_text()
    assert "-T 'data_path=<local>/equation.demo.json'" in evaluation
    assert "local:<local>/equation.demo.json" in (out / "metrics.csv").read_text()
    # The bundled copies are whole logs Inspect reads, with the placeholders in them.
    copy = read_eval_log(str(next(path for path in bundled if "eqinfer" in path.name)))
    assert copy.eval.task_args["data_path"] == "<local>/equation.demo.json"
    assert copy.samples and len(copy.samples) == 3
    after = {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in logs.iterdir()}
    assert after == before
    assert len(list_eval_logs(str(logs))) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("local:/home/me/data/x.json", "local:<local>/x.json"),
        ("-T data_path=/srv/runs/d/ rest", "-T data_path=<local>/d rest"),
        ('{"cache": "/tmp/a/c.sqlite"}', '{"cache": "<local>/c.sqlite"}'),
        ("~/data/pairs.jsonl", "<local>/pairs.jsonl"),
        (r"local:C:\Users\me\x.csv", "local:<local>/x.csv"),
        ("file:///home/me/logs/a.eval", "<local>/a.eval"),
        # Not local paths: URLs, relative paths, viewer anchors, ratios, a lone slash.
        ("https://github.com/o/r/raw/x.json", "https://github.com/o/r/raw/x.json"),
        ("hf:Reza8848/AAAR-1.0 data/x.json", "hf:Reza8848/AAAR-1.0 data/x.json"),
        ("viewer/index.html#/logs/a/b.eval", "viewer/index.html#/logs/a/b.eval"),
        ("P/R/F1 and 3/4, a / b", "P/R/F1 and 3/4, a / b"),
    ],
)
def test_scrub_text(text: str, expected: str) -> None:
    assert scrub_text(text) == expected


def test_known_paths_go_first_and_html_gets_the_escaped_placeholder() -> None:
    known = {"/data/my folder/x.json"}  # a space: the pattern alone would cut it
    assert scrub_text("from /data/my folder/x.json", known) == "from <local>/x.json"
    assert scrub_text("<td>/data/my folder/x.json</td>", known, html=True) == (
        "<td>&lt;local&gt;/x.json</td>"
    )
    assert local_paths({"a": ["local:/h/u/x", "rel/x"]}) == {"/h/u/x"}
    assert placeholder("/h/u/d/") == "<local>/d"


def test_paths_in_sample_metadata_are_scrubbed_and_other_transcript_text_is_kept(
    private_logs: tuple[Path, Path],
) -> None:
    logs, _ = private_logs
    log = read_eval_log(str(sorted(logs.glob("*eqinfer*.eval"))[0]))
    assert log.samples
    log.samples[0].metadata["source"] = "/srv/private/papers/x.json"
    answer = "I read /opt/other/file.txt first."  # a model's words, not a recorded path
    log.samples[0].output = ModelOutput.from_content("m", answer)
    copy = scrubbed_log(log)
    assert copy.samples and copy.samples[0].metadata["source"] == "<local>/x.json"
    assert copy.samples[0].output.completion == answer
    assert log.samples[0].metadata["source"] == "/srv/private/papers/x.json"  # a copy
