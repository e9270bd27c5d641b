"""One provenance block in every log's metadata: what data, which prompt, how paper-faithful.

Every task writes ``Task(metadata={**provenance(...), ...})``, so a reader (or the report
builder) finds the same keys in every log whatever the benchmark: where the data came from
(source, revision or sha256), the prompt variant, and one ``paper_faithful`` mapping whose
entries say, per aspect (``data``, ``prompt``, ``embeddings``, ``judge``, ``word_counting``,
...), whether the run matches the paper's released setting, with their conjunction in
``paper_faithful_all``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import ResolvedData, read_yaml

PROVENANCE_KEY = "provenance"


def provenance(
    data: ResolvedData | None = None,
    *,
    benchmark: str,
    source: str | None = None,
    revision: str | None = None,
    sha256: str | None = None,
    prompt_variant: str | None = None,
    paper_faithful: Mapping[str, bool] | None = None,
    **details: Any,
) -> dict[str, dict[str, Any]]:
    """The ``{"provenance": {...}}`` entry for a task's metadata.

    Args:
        benchmark: The benchmark's name as its paper gives it (the family passes it),
            required: the one place a log names its benchmark.
        data: Where the data was read from (its source and revision are used unless
            ``source``/``revision`` are given explicitly).
        source: Data source (a URL, ``hf://...`` or ``local:/path``).
        revision: Upstream commit or Hub revision of the data.
        sha256: Checksum of the data file, when it is one file.
        prompt_variant: Which prompt the task sends (e.g. ``normal``, ``v2``).
        paper_faithful: Per aspect, whether this run uses the paper's released setting.
        **details: Further benchmark-specific provenance (models, licences, budgets).
    """
    faithful = {name: bool(flag) for name, flag in (paper_faithful or {}).items()}
    block: dict[str, Any] = {
        "benchmark": benchmark,
        "data_source": source if source is not None else (data.source if data else None),
        "data_revision": revision if revision is not None else (data.revision if data else None),
        "data_sha256": sha256,
        "prompt_variant": prompt_variant,
        "paper_faithful": faithful,
        "paper_faithful_all": all(faithful.values()) if faithful else None,
        **details,
    }
    return {PROVENANCE_KEY: block}


@cache
def task_version(family_file: str, task: str) -> str:
    """A task's version ("N-X") as its family's ``eval.yaml`` declares it, the one source.

    Args:
        family_file: ``__file__`` of a module in the family folder (beside its ``eval.yaml``).
        task: The task name (``metadata.extras.tasks.<task>.version`` in that file).
    """
    declared = read_yaml(Path(family_file).parent / "eval.yaml")
    return str(declared["metadata"]["extras"]["tasks"][task]["version"])
