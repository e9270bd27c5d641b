"""The evaluated model's decoding in AAAR-1.0's release code, used as each task's default.

``OpenAIDecodingArguments`` of RenzeLou/AAAR-1.0 @ be839d5d: temperature 1, top-p 0.99, and
200 max tokens in ``scripts/subtask1_equation_model_eval_binary.py`` and
``subtask1_equation_model_eval.py`` (EqInfer), 720 in
``subtask2_experiment_model_prediction.close_source.v2.py`` (ExpDesign) and
``subtask3_review_model_prediction.close_source.py`` (PaperWeakness). Set as the task's
``GenerateConfig``, so Inspect's usual flags (``--temperature``, ``--top-p``,
``--max-tokens``) override them; the log's plan records the values in effect.
(Upstream's vLLM scripts for open models sample at temperature 0.8, top-p 0.95 instead.)
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import GenerateConfig

UPSTREAM_TEMPERATURE = 1.0
UPSTREAM_TOP_P = 0.99
EQINFER_MAX_TOKENS = 200
EXPDESIGN_MAX_TOKENS = 720
WEAKNESS_MAX_TOKENS = 720


def upstream_decoding(max_tokens: int) -> GenerateConfig:
    """The release code's decoding for the evaluated model (the task's default config)."""
    return GenerateConfig(
        temperature=UPSTREAM_TEMPERATURE, top_p=UPSTREAM_TOP_P, max_tokens=max_tokens
    )


def decoding_provenance(config: GenerateConfig, script: str) -> dict[str, Any]:
    """What the log's provenance says about the evaluated model's default decoding."""
    return {
        "temperature": config.temperature,
        "top_p": config.top_p,
        "max_tokens": config.max_tokens,
        "source": f"RenzeLou/AAAR-1.0 scripts/{script} (OpenAIDecodingArguments)",
        "note": "task default; --temperature/--top-p/--max-tokens override it (see the plan)",
    }
