"""Transcripts one click away: the bundled ``inspect view`` and each row's link into it.

``inspect view bundle`` copies a log folder and Inspect's viewer into ``viewer/``; the viewer
opens a log at ``viewer/index.html#/logs/<path below the log folder>``. Only the logs the
report shows are bundled: the leaderboards' runs and the Rounds section's judgments and scored
logs (copied to a scratch folder first, under the same relative paths, each rewritten with its
local paths as placeholders and no key: ``reporting.paths``), so an
unreadable or excluded log can neither sink the bundle nor be published. The
bundle's ``index.html`` records the absolute log folder it was built from; that entry is
removed, so no path of the building machine is published. Without a bundle, a row links to
its log file itself: relative to the report for a local log folder, the log's URL otherwise.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from inspect_ai.log import read_eval_log, write_eval_log

from research_taste.reporting.paths import scrubbed_log
from research_taste.reporting.runs import Excluded, Run
from research_taste_evals.core.data import DataError

VIEWER_DIR = "viewer"
CONTEXT = re.compile(r'(<script id="log_dir_context" type="application/json">)(.*?)(</script>)')


def transcript_link(run: Run, log_dir: str, out_dir: Path, bundled: bool) -> str:
    """The URL of ``run``'s transcripts, relative to ``out_dir/index.html`` where local."""
    if bundled:
        return f"{VIEWER_DIR}/index.html#/logs/{quote(run.relpath)}"
    if "://" in log_dir and not log_dir.startswith("file://"):
        return f"{log_dir.rstrip('/')}/{quote(run.relpath)}"
    logs = Path(log_dir.removeprefix("file://")).expanduser().resolve()
    relative = os.path.relpath(logs / run.relpath, out_dir.expanduser().resolve())
    return quote(Path(relative).as_posix())


def _stage(logs: list[tuple[str, str, tuple[str, ...]]], stage: Path) -> None:
    """Write each (location, relpath, local paths) log to ``stage/<relpath>`` with its local
    paths as placeholders and no key (``paths.scrubbed_log``).

    Read and written with Inspect's log API (local or remote logs, same format); the
    original log is never touched.
    """
    for location, relpath, local_paths in logs:
        target = stage / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        log = read_eval_log(location)
        write_eval_log(scrubbed_log(log, local_paths), target.as_posix())


def _scrub(index: Path) -> None:
    """Drop the building machine's absolute log folder from the viewer's page."""
    text = index.read_text(encoding="utf-8")

    def keep_relative(match: re.Match[str]) -> str:
        context = json.loads(match.group(2))
        context.pop("abs_log_dir", None)
        return match.group(1) + json.dumps(context) + match.group(3)

    index.write_text(CONTEXT.sub(keep_relative, text), encoding="utf-8")


def bundle_viewer(runs: list[Run], out_dir: Path, rounds: Sequence[Excluded] = ()) -> Path:
    """``inspect view bundle`` of ``runs``' logs and the Rounds section's logs (``rounds``:
    judgments and their scored copies, ``round_logs``) into ``out_dir/viewer``."""
    target = out_dir / VIEWER_DIR
    staged = [(run.log, run.relpath, run.local_paths) for run in runs]
    staged += [(entry.location, entry.log, ()) for entry in rounds]
    with tempfile.TemporaryDirectory(prefix="research-taste-bundle-") as scratch:
        stage = Path(scratch) / "logs"
        stage.mkdir()  # Inspect refuses a missing folder
        _stage(staged, stage)
        command = [sys.executable, "-m", "inspect_ai", "view", "bundle"]
        command += ["--log-dir", str(stage), "--output-dir", str(target), "--overwrite"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise DataError(f"inspect view bundle failed: {detail[-1] if detail else 'no message'}")
    _scrub(target / "index.html")
    return target
