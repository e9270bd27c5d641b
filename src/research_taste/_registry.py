"""Inspect entry point of the tooling: the ``local/`` model provider (packaged GGUF models).

Registered apart from the evals (``[project.entry-points.inspect_ai]``) so that
``research_taste_evals`` stays free of local-model code; importing this module loads nothing
heavy (torch and transformers load only when a ``local/`` model is used).
"""

from inspect_ai.model import ModelAPI, modelapi


@modelapi(name="local")
def local() -> type[ModelAPI]:
    from research_taste.local.local_provider import LocalChatAPI

    return LocalChatAPI


__all__ = ["local"]
