"""Real tasks against a fault-injecting model server: nothing lost, nothing twice, same numbers.

Each test runs a task fault-free and again under faults, with the same scripted answers (a pure
function of model and prompt), and prints per run: calls made, faults injected by kind, calls
retried, sample-level retries and samples completed (``pytest -s`` shows them; every assertion
message carries them too).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_runs import (
    EVALUATED,
    GRADERS,
    JUDGE,
    LATENCY,
    TASKS,
    CleanRuns,
    FaultTask,
    RunFigures,
    differing_metrics,
    figures,
    metrics,
    model_name,
    report_lines,
    run,
    same_metrics,
)
from fault_server import BODY_FAULTS, Faults, FaultServer, ServerStats
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

TRANSIENT = Faults(latency=LATENCY, http_429=0.1, http_500=0.1)  # 20% transient HTTP errors
# 30% bad 200 bodies: empty, not JSON (truncated JSON or an HTML page), or ``choices: []``.
BAD_BODIES = Faults(
    latency=LATENCY, empty=0.075, truncated=0.075, malformed=0.075, no_choices=0.075
)
ALL_TASKS = sorted(TASKS)  # every task of `research-taste list` (checked below)
ATTEMPT_TIMEOUT = 1  # seconds Inspect waits for one attempt
HANG_SECONDS = 2.5  # a "timeout" fault holds the request longer than that
PERSISTENT_MAX_RETRIES = 1  # Inspect's retries per call when a model never answers
OPENAI_CLIENT_RETRIES = 2  # the OpenAI client's own default retries below Inspect's


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
    values = metrics(log)
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


@pytest.mark.parametrize("task", ["eqinfer", "tastybench", "lft", "expdesign", "review_critique"])
def test_transient_http_errors_lose_nothing_and_change_no_metric(
    task: str, fault_server: FaultServer, clean_runs: CleanRuns, tmp_path: Path
) -> None:
    spec = TASKS[task]
    clean_log, clean_stats = clean_runs.get(task)
    log, stats = run(fault_server, spec, tmp_path / "faulty", TRANSIENT)
    clean, faulty = figures(f"{task} fault-free", clean_log, clean_stats), figures(task, log, stats)
    report = _report(clean, faulty)
    assert not clean_stats.rule_errors and not stats.rule_errors, report
    assert clean.status == faulty.status == "success", f"{report}\n{faulty.sample_errors}"
    assert faulty.samples_completed == faulty.samples_total == clean.samples_total > 0, report
    assert set(faulty.faults) <= {"http_429", "http_500"} and stats.total_faults > 0, report
    # Every unanswered call was retried until answered: calls = answers + faults.
    assert faulty.retried_calls == stats.total_faults and faulty.sample_retries == 0, report
    # Each (model, prompt) was answered exactly as often as without faults: no sample was
    # generated or scored twice, no cached grader call was made again.
    assert stats.answered == clean_stats.answered, report
    _scored_once(log)
    assert same_metrics(metrics(log), metrics(clean_log)), report
    if task in ANSWER_CHECKS:  # unparseable grader/judge answers counted; scripted ones read
        ANSWER_CHECKS[task](clean_log, report)
        ANSWER_CHECKS[task](log, report)


def test_the_fault_tests_cover_every_task() -> None:
    from research_taste_evals._registry import TASKS as REGISTERED

    assert sorted(task.__name__ for task in REGISTERED) == ALL_TASKS


def _no_grader_model_errors(log: EvalLog, report: str) -> None:
    """No grader/judge call ended as a model_error: every bad body was retried."""
    errors = [
        grader
        for sample in log.samples or []
        for score in (sample.scores or {}).values()
        for grader in (score.metadata or {}).get("graders", [])
        if grader.get("failure") == "model_error"
    ]
    assert errors == [], f"{errors}\n{report}"


@pytest.mark.heavy
@pytest.mark.parametrize("task", ALL_TASKS)
def test_bad_response_bodies_are_retried_and_change_no_metric(
    task: str, fault_server: FaultServer, clean_runs: CleanRuns, tmp_path: Path
) -> None:
    """30% of 200 responses empty, not JSON or ``choices: []``, on every call (evaluated model,
    graders, judges, extractors): each is retried as a transient error, so the run completes
    with no sample retry, no call answered twice and the fault-free metrics."""
    spec = TASKS[task]
    clean_log, clean_stats = clean_runs.get(task)
    log, stats = run(fault_server, spec, tmp_path / "faulty", BAD_BODIES)
    faulty = figures(f"{task} bad bodies", log, stats)
    report = _report(figures(f"{task} fault-free", clean_log, clean_stats), faulty)
    assert not stats.rule_errors, report
    assert faulty.status == "success", f"{report}\n{faulty.sample_errors}"
    assert faulty.samples_completed == faulty.samples_total == len(clean_log.samples or []), report
    assert set(faulty.faults) <= set(BODY_FAULTS) and stats.total_faults > 0, report
    # Every model the task calls met bad bodies (graders and judges too, not only the first).
    assert set(stats.faulted) == set(clean_stats.calls), report
    # Every bad body was retried at the call, none at the sample: calls = answers + faults.
    assert faulty.retried_calls == stats.total_faults and faulty.sample_retries == 0, report
    assert stats.answered == clean_stats.answered, report  # no (model, prompt) answered twice
    _scored_once(log)
    _no_grader_model_errors(log, report)
    assert same_metrics(metrics(log), metrics(clean_log)), (
        f"{report}\n{differing_metrics(metrics(log), metrics(clean_log))}"
    )


def test_expdesign_judge_bad_bodies_keep_the_fault_free_en_f1(
    fault_server: FaultServer, clean_runs: CleanRuns, tmp_path: Path
) -> None:
    """30% malformed bodies on the ExpDesign judge alone (~10 judge calls a sample)."""
    spec = TASKS["expdesign"]
    clean_log, _ = clean_runs.get("expdesign")
    judge_faults = Faults(
        latency=LATENCY, empty=0.1, malformed=0.1, no_choices=0.1, models=frozenset({JUDGE})
    )
    log, stats = run(fault_server, spec, tmp_path, judge_faults)
    report = _report(figures("expdesign judge bodies", log, stats))
    assert log.status == "success" and stats.faulted[JUDGE] == stats.total_faults > 0, report
    assert metrics(log)["en_f1"] == metrics(clean_log)["en_f1"], report
    assert same_metrics(metrics(log), metrics(clean_log)), report
    _no_grader_model_errors(log, report)


def test_a_model_that_only_answers_malformed_bodies_is_retried_within_limits(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """A grader whose every answer is ``choices: []``: each call is tried 1 + max_retries times
    (the SDK does not retry a 200), then recorded as that member's failure in words."""
    spec = TASKS["lft"]
    broken = GRADERS[-1]
    faults = Faults(latency=LATENCY, no_choices=1.0, models=frozenset({broken}))
    log, stats = run(fault_server, spec, tmp_path, faults, max_retries=PERSISTENT_MAX_RETRIES)
    report = _report(figures("lft choices-less grader", log, stats))
    assert log.status == "success", report
    member_calls = len(log.samples or []) * spec.args["grader_repeats"]
    assert stats.calls[broken] == member_calls * (1 + PERSISTENT_MAX_RETRIES), report
    details = {
        grader["detail"]
        for sample in log.samples or []
        # the panel's score
        for grader in ((sample.scores or {})["lft_scorer"].metadata or {}).get("graders", [])
        if grader.get("failure") == "model_error"
    }
    host = fault_server.base_url.split("//")[1].split("/")[0]
    expected = f"openai-api ({host}): HTTP 200 MalformedResponseError: a completion without choices"
    assert details == {expected}, report


def test_a_grader_that_always_fails_is_retried_within_limits_then_reported_in_words(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    """One panel member's model answers HTTP 500 every time: each of its calls is tried
    (1 + max_retries) times by Inspect, each of those up to 1 + 2 times by the OpenAI client, and
    then recorded as that member's failure in words; the other members still grade."""
    spec = TASKS["lft"]
    broken = GRADERS[-1]
    faults = Faults(latency=LATENCY, http_500=1.0, models=frozenset({broken}))
    log, stats = run(fault_server, spec, tmp_path, faults, max_retries=PERSISTENT_MAX_RETRIES)
    report = _report(figures("lft broken grader", log, stats))
    assert log.status == "success", report
    member_calls = len(log.samples or []) * spec.args["grader_repeats"]
    attempts = member_calls * (1 + PERSISTENT_MAX_RETRIES) * (1 + OPENAI_CLIENT_RETRIES)
    # Bounded: Inspect retried every member call, and nobody retried beyond both limits.
    assert stats.calls[broken] == stats.faults["http_500"], report
    assert member_calls * (1 + PERSISTENT_MAX_RETRIES) <= stats.calls[broken] <= attempts, report
    details = [
        grader["detail"]
        for sample in log.samples or []
        # the panel's score
        for grader in ((sample.scores or {})["lft_scorer"].metadata or {}).get("graders", [])
        if grader.get("failure") == "model_error"
    ]
    assert len(details) == member_calls, report
    host = fault_server.base_url.split("//")[1].split("/")[0]
    expected = f"openai ({host}): HTTP 500 InternalServerError: server error (injected)"
    assert set(details) == {expected}, report
    assert metrics(log)["grader_failure_rate"] > 0, report


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


def test_sweep_retries_bad_bodies_by_default(
    fault_server: FaultServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``research-taste sweep`` at 30% bad bodies: every one retried at its call, no loss (the
    sweep also sets Inspect's sample retry on error, for errors no call retry covers)."""
    from research_taste.cli.sweep import run_sweep
    from research_taste.cli.sweep_load import load_sweep
    from research_taste.cli.sweep_schema import DEFAULT_RETRY_ON_ERROR

    spec = TASKS["eqinfer"]
    sweep_file = tmp_path / "sweep.yaml"
    data = spec.task_args(tmp_path)["data_path"]
    sweep_file.write_text(
        f"log_dir: {tmp_path / 'logs'}\n"
        f"models: [{model_name(EVALUATED)}]\n"
        f"tasks:\n  - task: eqinfer\n    args: {{data_path: {data}}}\n"
    )
    config = load_sweep(sweep_file)
    assert config.retry_on_error == DEFAULT_RETRY_ON_ERROR > 0
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    fault_server.set_rule(spec.rule)
    fault_server.set_faults(BAD_BODIES, seed=0)
    fault_server.reset_stats()
    assert run_sweep(config)
    stats = fault_server.reset_stats()
    (log,) = [read_eval_log(info.name) for info in list_eval_logs(str(tmp_path / "logs"))]
    faulty = figures("eqinfer sweep", log, stats)
    report = _report(faulty)
    assert faulty.status == "success" and stats.total_faults > 0, report
    assert faulty.sample_retries == 0 and faulty.retried_calls == stats.total_faults, report
    assert faulty.samples_completed == faulty.samples_total, report
