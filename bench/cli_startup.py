"""Time `research-taste --help` and `research-taste list` beside a bare `import inspect_ai`.

Each is run in a fresh interpreter (best of ``--repeat`` runs, so a busy machine's worst moment
does not count) and printed with its ratio to a bare ``import inspect_ai``; the CLI must stay
under :data:`BUDGET_SECONDS` and must not import the heavy libraries listed in :data:`HEAVY`
at start-up (checked here and in tests/test_cli.py). A timing, not a test: run it by hand.

Run: ``python bench/cli_startup.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

BUDGET_SECONDS = 2.0
HEAVY = (
    "torch",
    "sentence_transformers",
    "transformers",
    "scipy",
    "sklearn",
    "matplotlib",
    "inspect_ai",
)
CLI = "import sys; from research_taste.cli import main; sys.argv[0] = 'research-taste'; "
CASES = {
    "import inspect_ai": "import inspect_ai",
    "research-taste --help": CLI + "import contextlib, io\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try: main(['--help'])\n    except SystemExit: pass",
    "research-taste list": CLI + "import contextlib, io\n"
    "with contextlib.redirect_stdout(io.StringIO()): main(['list'])",
}
LOADED = "\nprint('loaded:' + ','.join(m for m in {heavy!r} if m in sys.modules))"


def best_seconds(code: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def heavy_imports(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", "import sys\n" + code + LOADED.format(heavy=HEAVY)],
        check=True,
        capture_output=True,
        text=True,
    )
    last = (done.stdout.splitlines() or [""])[-1].removeprefix("loaded:")
    return [name for name in last.split(",") if name]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    baseline = best_seconds(CASES["import inspect_ai"], repeat)
    print(f"{'import inspect_ai':<24} {baseline:6.2f} s")
    ok = True
    for name, code in list(CASES.items())[1:]:
        seconds = best_seconds(code, repeat)
        loaded = heavy_imports(code)
        fits = seconds < BUDGET_SECONDS and not loaded
        ok &= fits
        print(
            f"{name:<24} {seconds:6.2f} s  ({seconds / baseline:.2f} x import inspect_ai)"
            f"  heavy imports: {', '.join(loaded) or 'none'}  {'ok' if fits else 'TOO SLOW'}"
        )
    print(f"budget: {BUDGET_SECONDS:.1f} s, best of {repeat} runs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
