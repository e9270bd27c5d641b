"""Issue 61: one name, one definition. For one judgment, every column of the report page's
Rounds tables and of ``rounds.csv`` / ``rounds_leaderboard.csv`` that share a name hold one
value (the page's three significant digits); a figure has one CI; a ``--limit`` judgment is
marked partial wherever it is listed; a test log's judgment, listed among the excluded logs, is
in no table; the rounds table says what its shared pairs count; a round whose ``pairs.csv``
changed since open is refused by the report as by the round's tasks."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from judged_round import FULL, judged_round
from openreview_round import quality_judge

from research_taste.reporting.report import write_report
from research_taste.rounds.score import score_round
from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.rounds import read_manifest
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow

MODEL, LIMITED = "baseline/random", "baseline/tastybench-longer"
CI = re.compile(r"^(\S+) \[(\S+), (\S+)\]$")


def _name(header: str) -> str:
    """A page header as the CSVs spell it."""
    name = header.replace(" [95% CI]", "").replace(" (missing at 0.5)", " missing at half")
    return name.strip().replace(" ", "_")


def _tables(markdown: str) -> list[list[list[str]]]:
    tables, current = [], []
    for line in markdown.splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables + ([current] if current else [])


def _values(header: list[str], row: list[str], page: bool) -> dict[str, str]:
    out = {}
    for column, cell in zip(header, row, strict=True):
        name = _name(column) if page else column
        found = CI.match(cell) if page and "[95% CI]" in column else None
        if found:
            out.update({name: found[1], f"{name}_ci_low": found[2], f"{name}_ci_high": found[3]})
        else:
            out[name] = cell
    return out


def _shown(value: str) -> str:
    """A value as the page shows it: a number to three significant digits, NaN as 'nan'."""
    if value in ("", "nan"):
        return "nan"
    try:
        return f"{float(value):.3g}"
    except ValueError:
        return value


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_name_holds_one_value_for_a_judgment(tmp_path: Path) -> None:
    judges = [(MODEL, FULL), ("baseline/tastybench-first", FULL), (LIMITED, 2)]
    folder, logs = judged_round(tmp_path, judges)
    inspect_eval(  # a test log (Inspect's mock provider): excluded, so in no table
        tastybench_round(round=str(folder)),
        model=quality_judge(),
        log_dir=str(logs),
        display="none",
    )
    score_round(folder, logs)
    write_report(str(logs), tmp_path / "site", bundle=False, min_pairs=1)
    report = (tmp_path / "site" / "report.md").read_text(encoding="utf-8")
    rounds_part, _, excluded_part = report.partition("## Rounds")[2].partition("## Excluded")
    assert "mockllm/model" in excluded_part and "mockllm/model" not in rounds_part

    seen: dict[str, set[str]] = {}

    def add(values: dict[str, str]) -> None:
        for name, value in values.items():
            seen.setdefault(name, set()).add(_shown(value))

    tables = _tables(rounds_part)
    per_round, ranking, _, used = tables[:4]
    [row] = [r for r in per_round[1:] if r[0] == MODEL]
    add(_values(per_round[0], row, page=True))
    [row] = [r for r in ranking[1:] if r[1] == MODEL]
    add(_values(ranking[0], row, page=True))
    [round_name] = {r[1] for r in per_round[1:]}
    [row] = [r for r in used[1:] if r[0] == round_name]
    add(_values(used[0], row, page=True))
    [line] = [r for r in _read(tmp_path / "site" / "rounds.csv") if r["model"] == MODEL]
    add(line)
    [line] = [r for r in _read(tmp_path / "site" / "rounds_leaderboard.csv") if r["model"] == MODEL]
    add(line)
    many = {name: values for name, values in seen.items() if len(values) > 1}
    assert not many, many
    assert {"pairs", "prospective_share", "pairwise_accuracy_ci_low", "round"} <= set(seen)

    # the --limit judgment: marked partial on the page and in rounds.csv, its model not ranked
    [limited] = [r for r in per_round[1:] if r[0].startswith(LIMITED)]
    assert limited[0] == f"{LIMITED} (partial)"
    [line] = [r for r in _read(tmp_path / "site" / "rounds.csv") if r["model"] == LIMITED]
    assert line["complete"] == "no"
    [row] = [r for r in ranking[1:] if r[1] == LIMITED]
    assert _values(ranking[0], row, page=True)["ranked"] == "no"
    assert "judged prospectively by two or more complete judgments" in " ".join(used[0])

    # a round whose pairs.csv changed since open is refused by the report, as by its tasks
    pairs = folder / "pairs.csv"
    pairs.write_text(pairs.read_text().replace(",True", ",False", 1).replace(",False", ",True", 1))
    if sha256_of(pairs) == read_manifest(folder)["pairs_sha256"]:
        pairs.write_text(pairs.read_text() + "\n")
    with pytest.raises(DataError, match=r"pairs\.csv: its sha256 no longer matches 'pairs_sha256'"):
        write_report(str(logs), tmp_path / "site2", bundle=False, min_pairs=1)
