"""A published round's dataset rows: its frozen items (texts only where their licence allows),
its pairs, one resolution set per labels version and each model's picks (docs/rounds.md,
"Publishing a round"). Every row names its round's ``round_id``; each table's rows share one
set of fields, declared with their types in the dataset card (``publish_card.SCHEMAS``): read
several files as one split with those features, as ``datasets`` reads the card (a file whose
``label`` is all null would otherwise be typed apart from the next file's). Every time is
written in one shape (:func:`when`), a missing one as null; a labels version is named by its
file (``labels/2025-10-02.csv``: a bare version would be read as a date).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from research_taste.rounds.log_check import read_log
from research_taste.rounds.manifest import utc_iso
from research_taste.rounds.score import round_logs
from research_taste_evals.core.data import read_csv
from research_taste_evals.core.round_manifest import parse_time
from research_taste_evals.core.rounds import LABELS_DIR, Round, item_state

# The licences under which a text may be published beside the ids: open licences that allow
# redistribution with attribution (no NC, no ND: a lab's publication may be used by anyone).
OPEN_LICENCES = ("CC BY 4.0", "CC BY-SA 4.0", "CC0 1.0")
# Sources whose texts this package wrote itself (the demo round, the simulated venue): the
# package's own licence (pyproject.toml).
OWN_TEXT_SOURCES = ("demo", "simulated")
OWN_TEXT_LICENCE = "MIT (invented by research_taste_evals)"
# Each source's licence of its items' texts, as the dataset card states it.
SOURCE_TERMS = {
    "openreview": (
        "each submission's own licence, as OpenReview's API states it (a note's `license`, "
        "recorded at open in round.json's `item_licences`); OpenReview's terms of use: "
        "https://openreview.net/legal/terms"
    ),
    "arxiv": (
        "each paper's licence, chosen by its authors (https://info.arxiv.org/help/license/); "
        "the arXiv API listing `round open` reads does not state it, so no text is published"
    ),
    "demo": OWN_TEXT_LICENCE,
    "simulated": OWN_TEXT_LICENCE,
}
LINKS = {"openreview": "https://openreview.net/forum?id={}", "arxiv": "https://arxiv.org/abs/{}"}


def when(value: object) -> str | None:
    """A time as every published table writes it, ``YYYY-MM-DDTHH:MM:SSZ`` (UTC; a date alone
    stays a date), or None: one shape, which ``datasets`` reads as ``timestamp[s]``."""
    text = str(value or "")
    if not text:
        return None
    if len(text) == 10:
        return text
    stamp = parse_time(text)
    return utc_iso(stamp) if stamp else None


def _norm(licence: str) -> str:
    return " ".join(licence.upper().split())


def item_licence(round_: Round, item_id: str) -> str:
    """The licence of an item's texts ("" when its source stated none)."""
    source = str(round_.manifest.get("source") or "")
    if source in OWN_TEXT_SOURCES:
        return OWN_TEXT_LICENCE
    return str((round_.manifest.get("item_licences") or {}).get(item_id) or "")


def text_shareable(round_: Round, item_id: str) -> bool:
    """Whether the item's title and abstract may be published (an open licence, or ours)."""
    licence = item_licence(round_, item_id)
    return licence == OWN_TEXT_LICENCE or _norm(licence) in {_norm(x) for x in OPEN_LICENCES}


def all_texts_shareable(round_: Round) -> bool:
    return all(text_shareable(round_, item.item_id) for item in round_.items)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def item_rows(round_: Round) -> list[dict[str, Any]]:
    """The frozen items: ids, dates, group, the round's times, each text's sha256, a link, and
    the texts themselves only where :func:`text_shareable` (else "")."""
    manifest = round_.manifest
    link = LINKS.get(str(manifest.get("source")))
    rows = []
    for item in round_.items:
        shared = text_shareable(round_, item.item_id)
        rows.append(
            {
                "round_id": str(manifest.get("round_id") or round_.name),
                "item_id": item.item_id,
                "pub_date": when(item.pub_date),
                "group": item.group,
                "opened_at": when(manifest["opened_at"]),
                "judge_by": when(manifest.get("judge_by")),
                "text_published": shared,
                "title": item.title if shared else "",
                "abstract": item.abstract if shared else "",
                "title_sha256": _sha(item.title),
                "abstract_sha256": _sha(item.abstract),
                "licence": item_licence(round_, item.item_id),
                "link": link.format(item.item_id) if link else "",
            }
        )
    return rows


def pair_rows(round_: Round) -> list[dict[str, Any]]:
    round_id = str(round_.manifest.get("round_id") or round_.name)
    return [
        {
            "round_id": round_id,
            "pair_id": pair.pair_id,
            "item_1": pair.item_1,
            "item_2": pair.item_2,
            "gap_days": pair.gap_days,
            "same_month": pair.same_month,
        }
        for pair in round_.pairs
    ]


def resolution_rows(round_: Round, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """One labels version's resolution set: every item of the round, ``resolved`` true once it
    has a label or left the round with none (``dropped``: the reason), false while pending."""
    found = {
        str(row["item_id"]): row
        for row in read_csv(round_.folder / LABELS_DIR / f"{entry['version']}.csv")
    }
    rows = []
    for item in round_.items:
        row = found.get(item.item_id, {})
        text = str(row.get("label") or "")
        label = float(text) if text else math.nan
        dropped = str(row.get("dropped") or "")
        state = item_state(math.isfinite(label), bool(dropped))
        rows.append(
            {
                "round_id": str(round_.manifest.get("round_id") or round_.name),
                "labels_file": str(entry["file"]),
                "resolved_at": when(entry.get("resolved_at")),
                "item_id": item.item_id,
                "resolved": state != "pending",
                "state": state,
                "label": label if math.isfinite(label) else None,
                "label_time": when(row.get("label_time")),
                "dropped": dropped,
                "status": str(row.get("status") or ""),
            }
        )
    return rows


def pick_rows(round_: Round, log_dir: str, unreadable: list[str]) -> list[dict[str, Any]]:
    """Each pairwise judgment's picks, read from the round's judgment logs under ``log_dir``
    (Inspect's public log API; a log that cannot be read is named in ``unreadable``): per
    ordered pair the item shown first and second, the item picked ("" when unclear) and when."""
    rows = []
    for location in round_logs(round_.folder, log_dir, unreadable).judgments:
        log = read_log(location)
        for sample in log.samples or []:
            metadata = sample.metadata or {}
            if "paper_1" not in metadata:  # not a pairwise judgment (PaperWeakness's lists)
                continue
            scores = list((sample.scores or {}).values())
            answer = str(scores[0].answer) if scores and scores[0].answer else "unclear"
            first, second = str(metadata.get("paper_1")), str(metadata.get("paper_2"))
            decided = (scores[0].metadata or {}).get("decided_at") if scores else None
            rows.append(
                {
                    "round_id": str(round_.manifest.get("round_id") or round_.name),
                    "task": log.eval.task.rsplit("/", 1)[-1],
                    "model": log.eval.model,
                    "eval_id": log.eval.eval_id,
                    "judged_at": when(log.eval.created),
                    "sample_id": str(sample.id),
                    "pair_id": int(metadata.get("pair_id", -1)),
                    "item_first": first,
                    "item_second": second,
                    "pick": {"1": first, "2": second}.get(answer, ""),
                    "unclear": answer not in ("1", "2"),
                    "decided_at": when(decided),
                }
            )
    return sorted(rows, key=lambda r: (r["task"], r["model"], r["eval_id"], r["sample_id"]))
