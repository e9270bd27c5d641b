"""The ExpDesign judge sends the released ``Exp_entailment_v2`` prompt, filled as upstream fills it.

Source: RenzeLou/AAAR-1.0 @ be839d5d, ``scripts/prompt_templates.py`` class
``Exp_entailment_v2`` (line 484), imported by
``scripts/calculate_metrics_subtask2_exp_entailment.v2.py``, which fills ``query_prompt`` with
``format_map({"EXP1": item, "EXP2": " ".join(other_list)})``.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput

from research_taste_evals.aaar.judge_prompts import (
    ENTAILMENT_SYSTEM,
    ENTAILMENT_V1_PROMPT,
    ENTAILMENT_V2_PROMPT,
)
from research_taste_evals.aaar.scorer.expdesign_judge import judge_lists

# The released query_prompt opens and closes with these lines (quoted from the file above) ...
RELEASED_V2_OPENING = (
    "You are given two paragraphs (P1 and P2), P1 describes a specific ML experiment and P2 is "
    "a long paragraph that concatenates multiple experiments. Please help me decide whether P1 "
    "is included in P2.\n\n"
)
RELEASED_V2_CLOSING = (
    "Now, look at the following case, and give me only the decision without any explanation:\n"
    "## P1: {EXP1}\n## P2: {EXP2}\n## Decision: "
)
# ... and its full text (query_prompt with the examples) and system message have these hashes.
RELEASED_V2_SHA256 = "17f6fb4fd9c07adc394d7c1b96f58aa0c5cb9cd8460c8223b25083c6f66952e3"
RELEASED_SYSTEM_SHA256 = "49cdd2b2eee4bc98d6605777425336e812d6b5df9daf6f1234171da92fdd5bd7"


def _released_attributes(path: Path, class_name: str) -> dict[str, str]:
    """Evaluate the string attributes a template class's __init__ assigns (no code imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    values: dict[str, str] = {}
    for statement in init.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Attribute):
            expression = ast.Expression(body=statement.value)
            namespace = type("Self", (), dict(values))
            values[statement.targets[0].attr] = eval(  # only string literals and self.<attr>
                compile(expression, str(path), "eval"), {"__builtins__": {}}, {"self": namespace}
            )
    return values


def test_v2_template_is_the_released_text() -> None:
    assert ENTAILMENT_V2_PROMPT.startswith(RELEASED_V2_OPENING)
    assert ENTAILMENT_V2_PROMPT.endswith(RELEASED_V2_CLOSING)
    assert hashlib.sha256(ENTAILMENT_V2_PROMPT.encode()).hexdigest() == RELEASED_V2_SHA256
    assert hashlib.sha256(ENTAILMENT_SYSTEM.encode()).hexdigest() == RELEASED_SYSTEM_SHA256
    assert ENTAILMENT_V1_PROMPT != ENTAILMENT_V2_PROMPT


def test_v2_template_matches_the_upstream_file(upstream_dir: Path) -> None:
    released = _released_attributes(
        upstream_dir / "aaar-1.0" / "code" / "scripts" / "prompt_templates.py", "Exp_entailment_v2"
    )
    assert released["query_prompt"] == ENTAILMENT_V2_PROMPT
    assert released["system"] == ENTAILMENT_SYSTEM
    v1 = _released_attributes(
        upstream_dir / "aaar-1.0" / "code" / "scripts" / "prompt_templates.py", "Exp_entailment"
    )
    assert v1["query_prompt"] == ENTAILMENT_V1_PROMPT


class _RecordingJudge:
    def __init__(self) -> None:
        self.messages: list[list[ChatMessage]] = []

    async def generate(
        self, messages: list[ChatMessage], config: GenerateConfig, cache: Any = False
    ) -> ModelOutput:
        self.messages.append(messages)
        return ModelOutput.from_content("judge", "1")


def test_judge_sends_v2_filled_with_the_same_p1_p2_as_upstream() -> None:
    judge = _RecordingJudge()
    predicted = ["1. Ablate the {encoder}.", "2. Compare with BM25."]
    reference = ["Ablation of the encoder.", "Efficiency: count parameters."]
    asyncio.run(judge_lists(judge, predicted, reference))  # type: ignore[arg-type]
    sent = [(m[0].text, m[1].text) for m in judge.messages]
    expected = [
        (ENTAILMENT_SYSTEM, ENTAILMENT_V2_PROMPT.format_map({"EXP1": p, "EXP2": " ".join(o)}))
        for p, o in [(item, reference) for item in predicted]
        + [(item, predicted) for item in reference]
    ]
    assert sent == expected


def test_judge_v1_sends_exp_entailment_for_every_pair_as_upstream() -> None:
    """calculate_metrics_subtask2_exp_entailment.py: for gt in gt_exps, for pred in pred_exps,
    ``format_map({"EXP1": gt_exp, "EXP2": pred_exp})`` with ``Exp_entailment``."""
    judge = _RecordingJudge()
    predicted = ["1. Ablate the {encoder}.", "2. Compare with BM25."]
    reference = ["Ablation of the encoder.", "Efficiency: count parameters.", "Scaling."]
    asyncio.run(judge_lists(judge, predicted, reference, "v1"))  # type: ignore[arg-type]
    sent = [(m[0].text, m[1].text) for m in judge.messages]
    expected = [
        (ENTAILMENT_SYSTEM, ENTAILMENT_V1_PROMPT.format_map({"EXP1": gt, "EXP2": pred}))
        for gt in reference
        for pred in predicted
    ]
    assert sent == expected
