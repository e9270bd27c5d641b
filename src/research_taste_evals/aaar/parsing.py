"""How AAAR-1.0 answers are read: the release code's rules, and the project's strict ones.

Every EqInfer and ExpDesign answer is read both ways and both results are scored, so each log
holds the paper-comparable (``faithful``) and the strict numbers side by side.
"""

from __future__ import annotations

import re
import string
from typing import Literal

from research_taste_evals.aaar.prompts import UPSTREAM_JUDGE_DIGIT
from research_taste_evals.core.answers import parse_binary, parse_choice

BINARY_LABELS = (0, 1)
# Which release script's reading fills EqInfer's faithful_* metrics: the API script's
# (int(), re-asks) or the vLLM script's (exact "0"/"1" on the one answer).
FaithfulReader = Literal["api", "vllm"]


def faithful_binary(answer: str) -> int | None:
    """EqInfer binary, as released: ``int(answer.strip())`` if it is 0 or 1, else None.

    RenzeLou/AAAR-1.0 ``scripts/subtask1_equation_model_eval_binary.py`` (with
    ``Equation_eval_binary.extract_content``, a ``strip()``). Python's ``int`` accepts ``01``,
    ``+1`` and ``0_1`` and rejects ``**1**``, ``1.`` and ``(1)``; upstream re-asks on None and
    finally forces the wrong label.
    """
    try:
        value = int(answer.strip())
    except ValueError:
        return None
    return value if value in BINARY_LABELS else None


def vllm_binary(answer: str) -> int | None:
    """EqInfer binary, as the open-weights (vLLM) script reads it: exactly ``0`` or ``1``.

    ``scripts/subtask1_equation_model_eval_binary.open_source.py``: ``output.strip()`` must be
    ``"1"`` or ``"0"``; anything else (``01``, ``**1**``) is never re-asked and is forced to the
    wrong label. Read from the first answer only.
    """
    text = answer.strip()
    return int(text) if text in ("0", "1") else None


def strict_binary(answer: str) -> int | None:
    """EqInfer binary, strict: the bare digit 0 or 1 once decoration (``**``) is stripped."""
    return parse_binary(answer)


def _normalise(text: str) -> str:
    # calculate_metrics_src.normalize_answer: lower case, no punctuation, single spaces.
    lowered = text.lower()
    kept = "".join(ch for ch in lowered if ch not in set(string.punctuation))
    return " ".join(kept.split())


def faithful_choice_correct(answer: str, target: str) -> bool:
    """EqInfer multiple choice, as released: exact match after normalisation.

    ``scripts/subtask1_equation_model_eval.py`` scores ``exact_match_score(pred, answer)``
    (``scripts/calculate_metrics_src.py``): lower-cased, punctuation removed, whitespace
    collapsed; so ``a``, ``(A)`` and ``**A**`` match ``A``, ``A) eq`` does not.
    """
    return _normalise(answer) == _normalise(target)


def strict_choice(answer: str, letters: tuple[str, ...]) -> str | None:
    """EqInfer multiple choice, strict: one option letter (either case) once decoration is gone."""
    choice = parse_choice(answer.strip().upper(), letters)
    return choice


def judge_decision(answer: str) -> int:
    """ExpDesign judge answer, as released: the first ``0`` or ``1`` anywhere in it.

    ``Exp_entailment(_v2).extract_content`` in ``scripts/prompt_templates.py``.

    Raises:
        ValueError: the answer holds neither digit (a typed ``unparseable`` grader failure).
    """
    match = re.search(UPSTREAM_JUDGE_DIGIT, answer.strip())
    if match is None:
        raise ValueError(f"no 0 or 1 in the judge's answer {answer[:80]!r}")
    return int(match.group(0))
