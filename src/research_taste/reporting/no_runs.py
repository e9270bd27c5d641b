"""Why a log folder gave no leaderboard: what its logs are, in one sentence, so "no successful
current-version logs" says the cause (round judgments not scored yet, unreadable files)."""

from __future__ import annotations

from collections.abc import Sequence

from research_taste.reporting.runs import Excluded

# The reasons ``runs.exclusion_reason`` and ``runs.read_runs`` give these logs (their prefixes).
ROUND_JUDGMENT = "a round's judgment"
UNREADABLE = "unreadable log"


def no_runs_message(log_dir: str, excluded: Sequence[Excluded]) -> str:
    """``log_dir`` has no fit run and no scored round log: the sentence saying why."""
    unscored = [e for e in excluded if e.reason.startswith(ROUND_JUDGMENT)]
    unreadable = [e for e in excluded if e.reason.startswith(UNREADABLE)]
    others = [e for e in excluded if e not in unscored and e not in unreadable]
    parts = []
    if unscored:
        parts.append(
            f"{len(unscored)} round judgment logs, none scored yet (resolve and score them: "
            f"research-taste round resolve <round>; research-taste round score <round> "
            f"--log-dir {log_dir})"
        )
    if unreadable:
        parts.append(f"{len(unreadable)} unreadable logs ({unreadable[0].log}: not an Inspect log)")
    if others:
        parts.append(f"{len(others)} other logs excluded ({others[0].log}: {others[0].reason})")
    cause = "; ".join(parts) or "it holds no Inspect log"
    return f"{log_dir}: no successful current-version logs: {cause}"
