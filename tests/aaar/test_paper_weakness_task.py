"""End-to-end PaperWeakness runs offline: demo data, packaged MiniLM, scripted or baseline model."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model, ModelName, ModelOutput
from inspect_ai.solver import TaskState
from log_metrics import metrics_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar import solvers as weakness_module
from research_taste_evals.aaar.baselines import GENERIC_WEAKNESSES
from research_taste_evals.aaar.demo import DEMO_WEAKNESS, write_demo_weakness
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.similarity import itf_idf, soft_precision_recall, with_placeholder
from research_taste_evals.aaar.solvers import combine_piece_lists
from research_taste_evals.core.embeddings import OFFLINE_MODEL, get_embedder
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.text import nltk_words

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
PAPER_OPEN, PAPER_CLOSE = "(it might be in partial content):\n```\n", "\n```\n\nNow, based on"


def _run(data: Path, model: object, **kwargs: object) -> EvalLog:
    task = paper_weakness(
        data_path=str(data), embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL, **kwargs
    )  # type: ignore[arg-type]
    return inspect_eval(task, model=model, display="none")[0]  # type: ignore[arg-type]


def _piece(messages: list[ChatMessage]) -> str:
    return messages[-1].text.split(PAPER_OPEN, 1)[1].split(PAPER_CLOSE, 1)[0]


@pytest.fixture
def demo_dir(tmp_path: Path) -> Path:
    return write_demo_weakness(tmp_path)


def test_combine_piece_lists_renumbers_like_upstream() -> None:
    assert combine_piece_lists([["1. a", "2. b"], [], ["1. c", "7. d 2. e"]]) == [
        "1. a",
        "2. b",
        "3. c",
        "4. d 2. e",
    ]


def test_generic_baseline_hand_checked(demo_dir: Path) -> None:
    log = _run(demo_dir, "baseline/generic-weaknesses")
    metrics = metrics_of(log)
    # Every paper gets the same list: each item's best match in each of the 3 other papers is
    # itself (cosine 1.00), so R = 1 + 3 = w and ln(w / R) = 0 for every item.
    assert metrics["itf_idf_score"] == pytest.approx(0.0, abs=1e-9)
    assert metrics["empty_prediction_rate"] == 0.0

    embedder = get_embedder(OFFLINE_MODEL)
    predicted = embedder.encode(list(GENERIC_WEAKNESSES))
    per_paper = [
        soft_precision_recall(predicted, [embedder.encode(r) for r in paper["output"]])
        for paper in DEMO_WEAKNESS
    ]
    for index, key in enumerate(("s_precision", "s_recall", "s_f1")):
        expected = sum(p[index] for p in per_paper) / len(per_paper)
        assert metrics[key] == pytest.approx(expected, rel=1e-6)
    meta = log.eval.metadata or {}
    block = meta["provenance"]
    assert block["embeddings"]["embedding_model"] == OFFLINE_MODEL
    assert block["itf_idf_embeddings"]["embedding_model"] == OFFLINE_MODEL
    assert meta["split"] == "split_combine" and meta["window_words"] == 3000
    assert meta["word_counting"] == "nltk" and block["paper_faithful"]["word_counting"] is True
    assert block["paper_faithful"]["embeddings"] is False  # S-metrics need mpnet
    assert block["paper_faithful"]["itf_idf_embeddings"] is True  # the same MiniLM weights
    assert block["paper_faithful"]["itf_idf_w"] is False  # 4 demo papers, not 993
    assert log.stats.model_usage


def test_split_combine_calls_each_piece_and_scores_itf_idf(
    demo_dir: Path, scripted_model: ScriptedModel
) -> None:
    lock = threading.Lock()
    pieces: list[str] = []

    def reviewer(messages: list[ChatMessage]) -> str:
        piece = _piece(messages)
        with lock:
            pieces.append(piece)
        first = piece.split()[:6] or ["nothing"]
        return f"1. The claim '{' '.join(first)}' lacks evidence.\n2. Section unclear: {first[-1]}"

    window = 15
    log = _run(demo_dir, scripted_model(reviewer), window_words=window)
    metrics = metrics_of(log)
    assert log.samples is not None
    expected_pieces = 0
    for sample in log.samples:
        words = len(nltk_words(str(sample.input)))
        n_pieces = words // window + 1
        expected_pieces += n_pieces
        score = next(iter(sample.scores.values())) if sample.scores else None
        assert score is not None and score.metadata is not None
        assert score.metadata["pieces"] == n_pieces
        predicted = str(score.answer).split("\n")
        assert len(predicted) == 2 * n_pieces
        assert [int(re.match(r"\d+", p).group()) for p in predicted] == list(  # type: ignore[union-attr]
            range(1, 2 * n_pieces + 1)
        )
    assert len(pieces) == expected_pieces > len(DEMO_WEAKNESS)
    assert metrics["itf_idf_score"] > 0.0
    # The metric equals ITF-IDF recomputed from the texts.
    embedder = get_embedder(OFFLINE_MODEL)
    answers = [
        str(next(iter(s.scores.values())).answer).split("\n")  # type: ignore[union-attr]
        for s in log.samples
    ]
    assert metrics["itf_idf_score"] == pytest.approx(
        itf_idf([embedder.encode(with_placeholder(a)) for a in answers]), rel=1e-6
    )


class _TrackingModel:
    name = "tracking"

    def __init__(self) -> None:
        self.in_flight = 0
        self.max_in_flight = 0

    async def generate(self, messages: list[ChatMessage], **_: object) -> ModelOutput:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return ModelOutput.from_content(model=self.name, content=f"1. About {_piece(messages)}")


def test_pieces_are_generated_concurrently(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _TrackingModel()
    monkeypatch.setattr(weakness_module, "get_model", lambda: fake)
    solve = weakness_module.weakness_solver("split_combine", 2, "whitespace")
    state = TaskState(
        model=ModelName("mockllm/model"), sample_id="s", epoch=1, input="a b c d e f g", messages=[]
    )

    async def no_generate(state: TaskState, *args: object, **kwargs: object) -> TaskState:
        raise AssertionError("the solver makes its own calls")

    state = asyncio.run(solve(state, no_generate))  # type: ignore[arg-type]
    # 7 words, window 2: 4 pieces of 2 words, all in flight at once.
    assert fake.max_in_flight == 4
    assert state.output.completion == "1. About a b\n2. About c d\n3. About e f\n4. About g"


def test_no_split_reads_only_the_first_window(
    demo_dir: Path, scripted_model: ScriptedModel
) -> None:
    pieces: list[str] = []

    def reviewer(messages: list[ChatMessage]) -> str:
        pieces.append(_piece(messages))
        return "1. Weak."

    metrics_of(
        _run(
            demo_dir,
            scripted_model(reviewer),
            split="none",
            window_words=5,
            word_counting="whitespace",
        )
    )
    assert len(pieces) == len(DEMO_WEAKNESS)
    assert all(len(piece.split()) == 5 for piece in pieces)


def test_no_research_content_is_an_empty_prediction_scored_zero(
    demo_dir: Path, scripted_model: ScriptedModel
) -> None:
    log = _run(demo_dir, scripted_model(lambda _: "No research content"))
    metrics = metrics_of(log)
    assert metrics["empty_prediction_rate"] == 1.0
    assert (metrics["s_precision"], metrics["s_recall"], metrics["s_f1"]) == (0.0, 0.0, 0.0)
    # Upstream scores an empty list as ["None"]: identical everywhere, so ITF-IDF is 0.
    assert metrics["itf_idf_score"] == pytest.approx(0.0, abs=1e-9)
    assert log.samples is not None and log.samples[0].scores is not None
    assert next(iter(log.samples[0].scores.values())).reason == INVALID_RESPONSE_FORMAT


def test_reviewer_with_empty_list_is_skipped(tmp_path: Path, scripted_model: ScriptedModel) -> None:
    record = {
        "ID": "x1",
        "input": {"title": "T", "abstractText": "A", "sections": []},
        "output": [["1. The method lacks an ablation study."], []],
    }
    path = tmp_path / "Paper_Weakness" / "ICLR_2023" / "x1" / "data_text.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record))
    metrics = metrics_of(
        _run(tmp_path, scripted_model(lambda _: "1. The method lacks an ablation study."))
    )
    # Identical texts, the empty reviewer skipped (not averaged in as 0): S-P = S-R = 1.
    assert metrics["s_precision"] == pytest.approx(1.0, abs=1e-5)
    assert metrics["s_recall"] == pytest.approx(1.0, abs=1e-5)


def test_bad_parameters_fail_fast(demo_dir: Path) -> None:
    with pytest.raises(ValueError, match="window_words"):
        paper_weakness(data_path=str(demo_dir), window_words=0, embedding_model=OFFLINE_MODEL)
    with pytest.raises(ValueError, match="split"):
        paper_weakness(data_path=str(demo_dir), split="halves", embedding_model=OFFLINE_MODEL)  # type: ignore[arg-type]
