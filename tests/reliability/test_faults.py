"""Real tasks against a fault-injecting model server: nothing lost, nothing paid twice.

The contract (docs/running.md): model calls are Inspect's. Under 20% HTTP 429/500 and 20%
malformed 200 bodies, run with ``--retry-on-error`` and ``--cache``, every sample of every task
completes with the fault-free first score group, and no call that had finished is made again
(the server counts successful answers per model and prompt). Inspect retries the HTTP errors at
the call; a malformed body fails the sample, which runs again reading its finished calls from
the cache. Each test prints per run: calls made, faults injected by kind, calls retried,
sample-level retries and samples completed (``pytest -s``; every assertion message has them).

The fast subset is marked ``faults`` (``pytest tests/reliability -m faults``): one task under the
whole mix, a grader's empty-choices replies, and the server's own checks, for a job on another
Inspect.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_runs import (
    EVALUATED,
    FAULT_EVAL_ARGS,
    GRADERS,
    LATENCY,
    SAMPLE_RETRIES,
    TASKS,
    VARIANTS,
    CleanRuns,
    FaultTask,
    RunFigures,
    differing_metrics,
    figures,
    first_group,
    metrics,
    model_name,
    report_lines,
    run,
    same_metrics,
)
from fault_server import Faults, FaultServer, ServerStats
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from log_metrics import every_figure_of

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

HTTP_KINDS = {"http_429", "http_500"}
MALFORMED_KINDS = {"truncated", "empty", "malformed"}  # a 200 body that is no JSON completion
# 20% transient HTTP errors plus 20% malformed 200 bodies (truncated JSON, empty, an HTML page).
MIXED = Faults(
    latency=LATENCY,
    http_429=0.10,
    http_500=0.10,
    truncated=0.07,
    empty=0.07,
    malformed=0.06,
)
ALL_TASKS = sorted(TASKS)  # every task of `research-taste list` (checked below)
FAST = {"eqinfer"}  # the task of the fast subset (a few calls a sample)
ATTEMPT_TIMEOUT = 1  # seconds Inspect waits for one attempt
HANG_SECONDS = 2.5  # a "timeout" fault holds the request longer than that
PERSISTENT_MAX_RETRIES = 1  # Inspect's retries per call when a model never answers


def _pair(
    server: FaultServer, spec: FaultTask, tmp_path: Path, faults: Faults, **eval_args: object
) -> tuple[tuple[EvalLog, ServerStats], tuple[EvalLog, ServerStats]]:
    """A fault-free run and a faulty run of ``spec``, each with its own logs and cache."""
    clean = run(server, spec, tmp_path / "clean", Faults(latency=LATENCY), **eval_args)
    faulty = run(server, spec, tmp_path / "faulty", faults, **eval_args)
    return clean, faulty


def _report(*runs: RunFigures) -> str:
    return report_lines("\n".join(r.line() for r in runs))


def _scored_once(log: EvalLog) -> None:
    samples = log.samples or []
    keys = [(s.id, s.epoch) for s in samples]
    assert len(keys) == len(set(keys)), f"a sample appears twice: {keys}"
    for sample in samples:
        assert sample.error is not None or sample.scores, f"{sample.id}: neither scored nor failed"


def _unparseable_grades_are_counted(log: EvalLog, report: str) -> None:
    """The last panel member cannot grade one task: its grades are failures, not level 0."""
    panels = {
        sample.id: next(iter(sample.scores.values())).metadata or {}
        for sample in log.samples or []
        if sample.scores
    }
    unparseable = {sid: meta["failures_by_kind"]["unparseable"] for sid, meta in panels.items()}
    assert unparseable == {
        "ablation-plan": 0,
        "contamination-audit": 0,
        "loss-spike-hypotheses": 0,
        "petunia-plastid": TASKS["lft"].args["grader_repeats"],
    }, report
    petunia = panels["petunia-plastid"]
    assert len(petunia["panel_levels"]) == 2 * len(petunia["graders"]) // 3, report
    assert metrics(log)["grader_failure_rate"] > 0, report


def _unparseable_judgements_are_counted(log: EvalLog, report: str) -> None:
    """Judge answers that are no decision are undecided (None) and counted, not 0."""
    assert 0 < metrics(log)["judge_unparsed_rate"] < 1, report
    undecided = [
        decision
        for sample in log.samples or []
        for score in (sample.scores or {}).values()
        for decision in (score.metadata or {}).get("recall_decisions", [])
        if decision is None
    ]
    assert undecided, f"no unparseable judge answer was recorded as undecided\n{report}"


def _review_answers_are_all_read(log: EvalLog, report: str) -> None:
    """Both prompts' scripted JSON answers parse, so F1 is a real number for every strategy."""
    values = every_figure_of(log)  # the omitted-segment counts are computed, not logged
    for prompt in ("labeling_all", "select_deficient"):
        assert values[f"{prompt}_unparsed_rate"] == 0, report
        assert values[f"{prompt}_omitted_segments"] == 0, report
    for strategy in ("labeling_all", "select_deficient", "both_no", "either_no"):
        assert 0 < values[f"{strategy}_f1"] <= 1, report


ANSWER_CHECKS = {
    "lft": _unparseable_grades_are_counted,
    "expdesign": _unparseable_judgements_are_counted,
    "review_critique": _review_answers_are_all_read,
}


CASES = [
    pytest.param(task, marks=[pytest.mark.faults] if task in FAST else [pytest.mark.heavy])
    for task in [*ALL_TASKS, *VARIANTS]
]


@pytest.mark.parametrize("task", CASES)
def test_faults_keep_the_first_score_group_and_pay_no_finished_call_twice(
    task: str, fault_server: FaultServer, clean_runs: CleanRuns, tmp_path: Path
) -> None:
    spec = {**TASKS, **VARIANTS}[task]
    clean_log, clean_stats = clean_runs.get(task)
    log, stats = run(fault_server, spec, tmp_path / "faulty", MIXED, **FAULT_EVAL_ARGS)
    clean, faulty = figures(f"{task} fault-free", clean_log, clean_stats), figures(task, log, stats)
    report = _report(clean, faulty)
    assert not clean_stats.rule_errors and not stats.rule_errors, report
    assert clean.status == faulty.status == "success", f"{report}\n{faulty.sample_errors}"
    assert faulty.samples_completed == faulty.samples_total == clean.samples_total > 0, report
    assert set(faulty.faults) <= HTTP_KINDS | MALFORMED_KINDS, report
    # Every model the task calls met faults (graders, judges and probes too), of both kinds.
    assert set(stats.faulted) == set(clean_stats.calls), report
    assert faulty.faults.keys() & HTTP_KINDS and faulty.faults.keys() & MALFORMED_KINDS, report
    # Each (model, prompt) was answered exactly as often as without faults: a retried sample
    # read every call that had finished from the cache, and no call went missing.
    assert stats.answered == clean_stats.answered, report
    _scored_once(log)
    # Equal up to the embedding metrics' last float bits (fault_runs.REL_TOL), NaN equal NaN.
    assert first_group(log) and same_metrics(first_group(log), first_group(clean_log)), (
        f"{report}\n{differing_metrics(first_group(log), first_group(clean_log))}"
    )
    assert same_metrics(metrics(log), metrics(clean_log)), (
        f"{report}\n{differing_metrics(metrics(log), metrics(clean_log))}"
    )
    if task in ANSWER_CHECKS:  # unparseable grader/judge answers counted; scripted ones read
        ANSWER_CHECKS[task](clean_log, report)
        ANSWER_CHECKS[task](log, report)


def test_the_clean_twin_is_in_the_first_group(clean_runs: CleanRuns) -> None:
    """The TastyBench variant has a clean twin (papers after the cutoff) in its first group,
    so the test above compares it."""
    group = first_group(clean_runs.get("tastybench_cutoff")[0])
    report_lines(f"tastybench knowledge_cutoff=2024-12 first group: {group}")
    assert group["clean_items"] == 4 and "bt_spearman_clean" in group, group  # the demo set


def test_the_fault_tests_cover_every_task() -> None:
    from research_taste_evals._registry import TASKS as REGISTERED

    assert sorted(task.__name__ for task in REGISTERED) == ALL_TASKS


def test_the_sample_retries_are_the_sweeps_default() -> None:
    from research_taste.cli.sweep_schema import DEFAULT_RETRY_ON_ERROR

    assert SAMPLE_RETRIES == DEFAULT_RETRY_ON_ERROR


@pytest.mark.faults
def test_a_grader_that_only_answers_without_choices_is_counted_unparseable_and_asked_no_more(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """Every reply of one panel member has no choices: Inspect returns each as an empty
    completion, the panel counts it as an unparseable grade (never a 0), the samples are scored
    by the rest of the panel, and the package asks no call again behind the user's back."""
    spec = TASKS["lft"]
    broken = GRADERS[-1]
    faults = Faults(latency=LATENCY, no_choices=1.0, models=frozenset({broken}))
    log, stats = run(fault_server, spec, tmp_path, faults, **FAULT_EVAL_ARGS)
    report = _report(figures("lft choices-less grader", log, stats))
    samples = log.samples or []
    assert log.status == "success" and samples, report
    assert all(s.error is None and s.scores for s in samples), report
    assert stats.calls[broken] == stats.faults["no_choices"] > 0, report
    assert metrics(log)["grader_failure_rate"] > 0, report
    for sample in samples:
        meta = next(iter(sample.scores.values())).metadata or {}  # type: ignore[union-attr]
        assert meta["failures_by_kind"]["unparseable"] >= spec.args["grader_repeats"], report


@pytest.mark.heavy
def test_a_grader_that_always_fails_fails_its_samples_after_inspects_retries(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """One panel member's model answers HTTP 500 every time: Inspect retries each call
    (1 + max_retries) times, then the sample fails with the provider's error as Inspect
    records it, never a missing grade or a 0."""
    spec = TASKS["lft"]
    broken = GRADERS[-1]
    faults = Faults(latency=LATENCY, http_500=1.0, models=frozenset({broken}))
    retries = {"max_retries": PERSISTENT_MAX_RETRIES, "fail_on_error": False}
    log, stats = run(fault_server, spec, tmp_path, faults, **retries)
    report = _report(figures("lft broken grader", log, stats))
    samples = log.samples or []
    assert samples and not any(s.scores for s in samples), report
    # Inspect records the provider's error as it is: its retries' RetryError, caused by it.
    tracebacks = [s.error.traceback if s.error else "" for s in samples]
    assert all("server error (injected)" in text for text in tracebacks), report
    assert stats.calls[broken] == stats.faults["http_500"], report
    assert stats.calls[broken] >= len(samples) * (1 + PERSISTENT_MAX_RETRIES), report


def test_timeouts_are_retried_and_change_no_metric(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """A request held past ``attempt_timeout`` is abandoned and retried by Inspect.

    No wall-clock race: every held request is retried (at least one retry per timeout fault);
    a call the loaded machine answers late may be retried too (in the clean run as well), which
    changes no answer, so the retry count is bounded below and the answered calls are compared
    as a set, never as counts.
    """
    hangs = Faults(latency=LATENCY, timeout=0.2, hang_seconds=HANG_SECONDS)
    (clean_log, clean_stats), (log, stats) = _pair(
        fault_server, TASKS["eqinfer"], tmp_path, hangs, attempt_timeout=ATTEMPT_TIMEOUT
    )
    faulty = figures("eqinfer timeouts", log, stats)
    report = _report(faulty)
    assert faulty.status == "success" and stats.faults["timeout"] > 0, report
    assert faulty.samples_completed == faulty.samples_total, report
    assert faulty.retried_calls >= stats.faults["timeout"], report
    assert set(stats.answered) == set(clean_stats.answered), report  # every call answered
    assert same_metrics(metrics(log), metrics(clean_log)), report


@pytest.mark.faults
def test_fault_server_counts_and_stops_by_itself() -> None:
    """The server answers on loopback only, within its request budget and lifetime."""
    import json
    import time
    import urllib.error
    import urllib.request

    def post(url: str) -> int:
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        request = urllib.request.Request(
            url, body.encode(), {"content-type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                payload = json.loads(response.read())
                assert payload["usage"]["total_tokens"] > 0
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code

    with FaultServer(lambda m, msgs: "ok", max_requests=2, lifetime=1.0) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        url = server.base_url + "/chat/completions"
        assert [post(url), post(url), post(url)] == [200, 200, 503]
        assert server.stats.total_calls == 3 and server.stats.total_answered == 2
    with FaultServer(lambda m, msgs: "ok", lifetime=0.2) as server:
        time.sleep(0.6)
        with pytest.raises(OSError):
            post(server.base_url + "/chat/completions")
    assert model_name(EVALUATED) == "openai-api/fault/evaluated"


@pytest.mark.faults
def test_a_sweep_survives_the_fault_mix_by_default(
    fault_server: FaultServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``research-taste sweep`` with no retry or cache setting: its defaults (``cache: true``,
    ``retry_on_error: 20``) complete every sample under the mix, each prompt answered once."""
    from research_taste.cli.sweep import run_sweep
    from research_taste.cli.sweep_load import load_sweep

    spec = TASKS["eqinfer"]
    sweep_file = tmp_path / "sweep.yaml"
    data = spec.task_args(tmp_path)["data_path"]
    sweep_file.write_text(
        f"log_dir: {tmp_path / 'logs'}\n"
        f"models: [{model_name(EVALUATED)}]\n"
        f"tasks:\n  - task: eqinfer\n    args: {{data_path: {data}}}\n"
    )
    config = load_sweep(sweep_file)
    assert config.cache is True and config.retry_on_error == SAMPLE_RETRIES
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    fault_server.set_rule(spec.rule)
    fault_server.set_faults(MIXED, seed=0)
    fault_server.reset_stats()
    assert run_sweep(config)
    stats = fault_server.reset_stats()
    (log,) = [read_eval_log(info.name) for info in list_eval_logs(str(tmp_path / "logs"))]
    faulty = figures("eqinfer sweep", log, stats)
    report = _report(faulty)
    assert faulty.status == "success" and stats.faults.keys() & MALFORMED_KINDS, report
    assert faulty.sample_retries > 0, report  # malformed bodies failed samples: they ran again
    assert faulty.samples_completed == faulty.samples_total, report
    assert set(stats.answered.values()) == {1}, report  # no finished call paid twice
