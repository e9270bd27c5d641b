"""``research-taste local-model``: convert the packaged GGUF models once (``local-llm`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from research_taste.local.local_llm import LOCAL_MODELS, prepare
from research_taste_evals.core.packaged_models import PackagedModelError

# argparse's exit status for a bad command line; a missing package is the same kind of mistake.
USAGE_ERROR_EXIT = 2


def cmd_local_model(args: argparse.Namespace) -> int:
    try:
        prepared = prepare(args.name or None)
    except PackagedModelError as error:
        print(f"research-taste local-model: error: {error}", file=sys.stderr)
        return USAGE_ERROR_EXIT
    for name, folder in prepared:
        model = LOCAL_MODELS[name]
        print(f"local/{name}  {model.version()} ({model.license})  {folder}")
    return 0


def register(commands: Any) -> None:
    command = commands.add_parser(
        "local-model",
        help="convert the packaged GGUF chat models once, for --model local/<name>",
        description=(
            "Convert the GGUF models of the local-llm extra into transformers folders in the "
            "package cache (once; later runs load them in seconds) and print where they are. "
            "Then: inspect eval research_taste_evals/<task> --model local/<name>, or "
            "research-taste sweep sweeps/local.yaml."
        ),
    )
    command.add_argument(
        "name", nargs="*", choices=sorted(LOCAL_MODELS), help="models to convert (default: all)"
    )
    command.set_defaults(func=cmd_local_model)
