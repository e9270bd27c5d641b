"""A publication's dataset card (``README.md``): Hugging Face Hub YAML front matter (licence,
one config per table with its ``data_files``, so ``datasets.load_dataset(<repo>, <config>)``
finds the splits) and a body naming each source's licence and what was withheld.

The front matter's keys are the Hub's dataset card metadata
(https://huggingface.co/docs/hub/datasets-cards, https://huggingface.co/docs/hub/datasets-manual-configuration).
"""

from __future__ import annotations

from typing import Any

import yaml

from research_taste.reporting.round_publish_rows import OPEN_LICENCES, SOURCE_TERMS

# config name -> (its files, what a row is)
CONFIGS = {
    "rounds": ("rounds.jsonl", "one per round: id, source, times, counts, sha256s"),
    "items": ("*/items.jsonl", "the frozen items (texts only where licensed)"),
    "pairs": ("*/pairs.jsonl", "the label-blind pairs fixed at open (each judged in both orders)"),
    "resolutions": (
        "*/resolutions/*.jsonl",
        "every item in every labels version, resolved true or false",
    ),
    "picks": ("*/picks.jsonl", "each judgment's pick on each ordered pair"),
    "leaderboard": ("leaderboard/*.csv", "per task: rank, adjusted accuracy with CI, ..."),
}


S, N, B, T = "string", "int64", "bool", "timestamp[s]"
# Each JSONL table's fields and types (the Hub's dataset card ``dataset_info.features``): one
# type per field whatever a file holds, so several rounds' files read as one split.
SCHEMAS: dict[str, dict[str, Any]] = {
    "rounds": {
        **dict.fromkeys(("name", "round_id", "source", "query"), S),
        "opened_at": T,
        "judge_by": T,
        "items": N,
        "pairs": N,
        "items_sha256": S,
        "pairs_sha256": S,
        "texts_published": N,
        "label_versions": {"file": S, "resolved_at": T, "labels_sha256": S, "resolved": B},
    },
    "items": {
        **dict.fromkeys(("round_id", "item_id"), S),
        "pub_date": T,
        "group": S,
        "opened_at": T,
        "judge_by": T,
        "text_published": B,
        **dict.fromkeys(("title", "abstract", "title_sha256", "abstract_sha256"), S),
        "licence": S,
        "link": S,
    },
    "pairs": {
        "round_id": S,
        "pair_id": N,
        "item_1": S,
        "item_2": S,
        "gap_days": N,
        "same_month": B,
    },
    "resolutions": {
        **dict.fromkeys(("round_id", "labels_file"), S),
        "resolved_at": T,
        "item_id": S,
        "resolved": B,
        "state": S,
        "label": "float64",
        "label_time": T,
        **dict.fromkeys(("dropped", "status"), S),
    },
    "picks": {
        **dict.fromkeys(("round_id", "task", "model", "eval_id"), S),
        "judged_at": T,
        "sample_id": S,
        "pair_id": N,
        **dict.fromkeys(("item_first", "item_second", "pick"), S),
        "unclear": B,
        "decided_at": T,
    },
}


def _yaml_features(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"name": name, "dtype": kind}
        if isinstance(kind, str)
        else {"name": name, "list": _yaml_features(kind)}
        for name, kind in schema.items()
    ]


def features(config: str) -> Any:
    """A table's ``datasets.Features`` (:data:`SCHEMAS`), for
    ``datasets.load_dataset("json", data_files=..., features=features("resolutions"))``."""
    from datasets import Features, Value

    def typed(kind: Any) -> Any:
        return Value(kind) if isinstance(kind, str) else [{k: typed(v) for k, v in kind.items()}]

    return Features({name: typed(kind) for name, kind in SCHEMAS[config].items()})


def card(rounds: list[dict[str, Any]], withheld: dict[str, int], configs: list[str]) -> str:
    """The card of a publication of ``rounds`` (their ``rounds.jsonl`` rows); ``withheld``: per
    round name, the items whose texts were not published; ``configs``: those with files."""
    sources = sorted({str(r["source"]) for r in rounds})
    front = {
        "license": "other",
        "license_name": "per-source",
        "license_link": "README.md#licences",
        "pretty_name": "research_taste_evals rounds",
        "tags": ["research-taste", "forecasting", "peer-review"],
        "configs": [
            {"config_name": name, "data_files": [{"split": "train", "path": CONFIGS[name][0]}]}
            for name in configs
        ],
        "dataset_info": [
            {"config_name": name, "features": _yaml_features(SCHEMAS[name])}
            for name in configs
            if name in SCHEMAS
        ],
    }
    lines = [
        "---",
        yaml.safe_dump(front, sort_keys=False).rstrip(),
        "---",
        "",
        "# research_taste_evals rounds",
        "",
        "Items frozen before their labels existed, the picks every model made then, and the",
        "labels as each resolve found them (written by `research-taste round publish`;",
        'docs/rounds.md of research_taste_evals, "Publishing a round").',
        "",
        "| round | round_id | source | opened_at | judge_by | items | pairs | labels versions |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rounds:
        lines.append(
            f"| {r['name']} | {r['round_id']} | {r['source']} | {r['opened_at']} | "
            f"{r['judge_by']} | {r['items']} | {r['pairs']} | {len(r['label_versions'])} |"
        )
    lines += ["", "## Configs", ""]
    lines += [f"- `{name}` (`{CONFIGS[name][0]}`): {CONFIGS[name][1]}" for name in configs]
    lines += [
        "",
        "Each round's folder is also in the layout the round tasks read: "
        "`inspect eval research_taste_evals/tastybench_round -T round=<copy>/<round>` "
        "(or `-T round=hf://<repo>@<40-hex commit>/<round>`), checked against round.json's "
        "sha256s.",
        "",
        "## Licences",
        "",
    ]
    lines += [f"- **{source}**: {SOURCE_TERMS.get(source, 'not known')}" for source in sources]
    lines += [
        "",
        "A title and abstract are published only under an open licence allowing redistribution "
        f"({', '.join(OPEN_LICENCES)}) or when this package wrote them; otherwise their sha256 "
        "and a link stand in their place (`items.jsonl`: `text_published` false), and the "
        "round's `items.csv` is left out. Review texts (PaperWeakness references) are never "
        "published.",
    ]
    for name, count in sorted(withheld.items()):
        lines.append(f"- {name}: {count} items' texts withheld")
    return "\n".join(lines) + "\n"
