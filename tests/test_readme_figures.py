"""Every generated README figure equals its generator's output (no figure typed by hand).

Each README block between figure markers is registered in :data:`GENERATORS` with the script
that writes it. Blocks computed from runs are re-rendered here from the runs' saved log headers
(``tests/readme_logs/<family>``, written by the generators through ``bench/readme_logs.py``);
blocks computed from upstream data are re-computed when that data is present. A new marker
block without a generator, a README edited by hand, or a generator changed without
regenerating the README fails here (the idea-pairs blocks are re-computed by
``tests/ideapairs/test_readme_tables.py``, the local-model table by
``tests/test_local_model_table.py``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from readme_logs import ROOT as HEADERS  # noqa: E402
from readme_logs import load_headers  # noqa: E402

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

PACKAGE = REPO / "src" / "research_taste_evals"
TASTYBENCH_README = PACKAGE / "tastybench" / "README.md"
MARKER = re.compile(r"<!-- (BEGIN generated: [\w-]+|[\w-]+:start|[\w-]+:begin)\b")
GENERATORS = {
    ("tastybench", "BEGIN generated: data-facts"): "bench/tastybench_readme.py",
    ("tastybench", "BEGIN generated: upstream-runs"): "bench/tastybench_readme.py",
    ("tastybench", "BEGIN generated: baselines"): "bench/tastybench_readme.py",
    # Re-computed and compared by tests/tastybench/test_matched_bench.py.
    ("tastybench", "BEGIN generated: matched-ci"): "bench/matched_ci.py",
    ("aaar", "paper-table:start"): "bench/aaar_paper_table.py",
    ("lft", "figures:start"): "python -m research_taste.docs.lft_figures --write-readme",
    # Re-computed and compared by tests/ideapairs/test_readme_tables.py (the ideapairs owner's).
    ("ideapairs", "BEGIN generated: build-facts"): "bench/ideapairs_readme.py",
    ("ideapairs", "BEGIN generated: baselines"): "bench/ideapairs_readme.py",
    ("ideapairs", "BEGIN generated: ranking"): "bench/ideapairs_readme.py",
    ("docs/sweeps-and-reports", "BEGIN generated: demo-report"): "bench/demo_report_excerpt.py",
    # Re-computed and compared by tests/test_local_model_table.py.
    ("docs/offline-real-model", "local-model-table:begin"): "bench/local_model_table.py",
    ("reviewcritique", "BEGIN generated: data-facts"): "bench/reviewcritique_readme.py",
    ("aaar", "BEGIN generated: nltk-agreement"): "bench/aaar_nltk_agreement.py",
    ("docs/performance", "BEGIN generated: performance"): "bench/performance_readme.py",
    # Re-computed and compared by tests/test_recall_dates_readme.py.
    ("aaar", "BEGIN generated: recall-dates"): "bench/recall_dates.py",
    ("ideapairs", "BEGIN generated: recall-dates"): "bench/recall_dates.py",
}


def _readmes() -> dict[str, Path]:
    found = {path.parent.name: path for path in sorted(PACKAGE.glob("*/README.md"))}
    docs = {f"docs/{path.stem}": path for path in sorted((REPO / "docs").glob("*.md"))}
    return {"(root)": REPO / "README.md", **found, **docs}


def test_every_generated_readme_block_has_a_registered_generator() -> None:
    blocks = {
        (family, match.group(1))
        for family, path in _readmes().items()
        for match in MARKER.finditer(path.read_text(encoding="utf-8"))
    }
    assert blocks == set(GENERATORS)
    for generator in set(GENERATORS.values()):
        if generator.startswith("bench/"):
            assert (REPO / generator).is_file(), generator


def _block(text: str, start: str, end: str) -> str:
    assert text.count(start) == 1 and text.count(end) == 1, (start, end)
    return start + text.split(start, 1)[1].split(end, 1)[0] + end


def test_aaar_paper_table_equals_its_logs() -> None:
    import aaar_paper_table

    logs = load_headers("aaar")
    assert logs, f"no log headers in {HEADERS / 'aaar'}: run bench/aaar_paper_table.py"
    readme = (PACKAGE / "aaar" / "README.md").read_text(encoding="utf-8")
    expected = aaar_paper_table.table(logs)
    assert _block(readme, aaar_paper_table.START, aaar_paper_table.END) == expected


def test_tastybench_baselines_table_equals_its_logs() -> None:
    from tastybench_readme import _matches

    from research_taste.docs.tastybench_tables import (
        BASELINE_RUNS,
        baselines_table,
    )
    from research_taste_evals.core.text import replace_block

    headers = list(load_headers("tastybench").values())
    assert len(headers) == len(BASELINE_RUNS), "run bench/tastybench_readme.py"
    logs = [(next(h for h in headers if _matches(h, run)), run.label) for run in BASELINE_RUNS]
    readme = TASTYBENCH_README.read_text(encoding="utf-8")
    assert replace_block(readme, "baselines", baselines_table(logs)) == readme


@pytest.mark.upstream
def test_tastybench_upstream_blocks_equal_their_generator(upstream_dir: Path) -> None:
    from research_taste.docs.tastybench_tables import (
        data_facts,
        parser_facts,
        upstream_runs_table,
    )
    from research_taste_evals.core.text import replace_block

    upstream = upstream_dir / "tastybench"
    readme = TASTYBENCH_README.read_text(encoding="utf-8")
    facts = data_facts(upstream) + "\n" + parser_facts(upstream)
    updated = replace_block(readme, "data-facts", facts)
    updated = replace_block(updated, "upstream-runs", upstream_runs_table(upstream))
    assert updated == readme


def test_lft_figures_equal_their_logs() -> None:
    from research_taste.docs import lft_figures as figures

    files = {path.stem: path for path in sorted((HEADERS / "lft").glob("*.json"))}
    assert set(files) == {"check_keyword", "check_oracle", "documents_alone", "demo"}
    readme = figures.README.read_text(encoding="utf-8")
    block = readme.split(figures.START_MARKER, 1)[1].split(figures.END_MARKER, 1)[0]
    assert block == f"\n{figures.report(files)}\n"


def _assert_block_is(script: ModuleType, content: str) -> None:
    """``script.README``'s block ``script.BLOCK`` equals ``content`` (the script's output)."""
    from research_taste_evals.core.text import replace_block

    readme = script.README.read_text(encoding="utf-8")
    assert replace_block(readme, script.BLOCK, content) == readme, (
        f"README block {script.BLOCK!r} differs: run bench/{script.__name__}.py --write "
        "(see its docstring for the inputs to refresh first)"
    )


def test_root_demo_report_excerpt_equals_its_logs() -> None:
    import demo_report_excerpt

    _assert_block_is(demo_report_excerpt, demo_report_excerpt.excerpt())


@pytest.mark.upstream
def test_reviewcritique_data_facts_equal_the_upstream_files(upstream_dir: Path) -> None:
    import reviewcritique_readme

    _assert_block_is(reviewcritique_readme, reviewcritique_readme.data_facts(upstream_dir))


def test_aaar_nltk_agreement_equals_its_fixtures() -> None:
    import aaar_nltk_agreement

    readme = aaar_nltk_agreement.README.read_text(encoding="utf-8")
    written = readme.split("`nltk_installed` (NLTK ", 1)[1].split(")", 1)[0]
    if written != aaar_nltk_agreement.installed_nltk():
        pytest.skip(f"the block describes NLTK {written}; this environment has another NLTK")
    _assert_block_is(aaar_nltk_agreement, aaar_nltk_agreement.agreement())


def test_performance_section_equals_the_saved_bench_outputs() -> None:
    import performance_readme

    _assert_block_is(performance_readme, performance_readme.performance())


# A number with three or more decimals outside every generated block and code fence is a
# computed figure typed by hand, unless it is an upstream or library value a test pins (named
# here, and the test's file must hold the number).
PRECISE_NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d{3,}\b")
BLOCK = re.compile(
    r"<!-- (?:BEGIN generated: [\w-]+|[\w-]+:start|[\w-]+:begin)\b.*?"
    r"<!-- (?:END generated: [\w-]+|[\w-]+:end)\b[^>]*-->",
    re.DOTALL,
)
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
ARXIV_ID = re.compile(r"arXiv[: ]\s*\d{4}\.\d{4,5}")
PINNED_BY_A_TEST = {
    ("tastybench", "-0.06993835941204363"): "tests/tastybench/test_tastybench_task.py",
    ("reviewcritique", "0.8312"): "tests/reviewcritique/test_scorer.py",
}


def test_no_precise_figure_is_typed_outside_a_generated_block() -> None:
    found = set()
    others = {str(path.relative_to(REPO)): path for path in sorted(REPO.glob("docs/**/*.md"))}
    others["CONTRIBUTING.md"] = REPO / "CONTRIBUTING.md"
    for family, path in {**_readmes(), **others}.items():
        text = path.read_text(encoding="utf-8")
        prose = ARXIV_ID.sub("", FENCE.sub("", BLOCK.sub("", text)))
        found |= {(family, match.group()) for match in PRECISE_NUMBER.finditer(prose)}
    assert found <= set(PINNED_BY_A_TEST), sorted(found - set(PINNED_BY_A_TEST))
    for (_, number), test_file in PINNED_BY_A_TEST.items():
        assert number in (REPO / test_file).read_text(encoding="utf-8"), (number, test_file)
