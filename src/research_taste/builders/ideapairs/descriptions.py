"""Benchmark descriptions without the debris of the page they were scraped from (issue 31).

NLP-progress descriptions are the markdown around a results table, so the scraped text keeps
what only made sense next to the table: a lead-in with nothing after it ("Here is a subset of
results of recent models:", "Subtask A results:"), rows of the table itself (which quote
method names and scores: a leak), the page's "[Go back to the README](../README.md)" link, and
markdown link syntax around names. :func:`clean_description` removes them; the text that is
left is the benchmark's own words.
"""

from __future__ import annotations

import re

_LINK = re.compile(r"!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_BACK_LINK = re.compile(r"\[\s*go back to the readme\s*\]\([^)]*\)", re.IGNORECASE)
_TABLE_ROW = re.compile(r"^\s*\|")
# The last sentence of a line when it ends with a colon: a lead-in to what followed it.
_LEAD_IN = re.compile(r"(?:^|(?<=[.!?)])\s+)[^.!?]*:\s*$")


def _is_table(line: str) -> bool:
    return bool(_TABLE_ROW.match(line))


def clean_description(text: str) -> str:
    """The description without tables, back-links, dangling lead-ins and link markup.

    A line ending with ":" loses its last sentence when nothing but a table, or nothing at
    all, follows it (the table is not shown, so the lead-in points at nothing).
    """
    lines = _BACK_LINK.sub(" ", text).splitlines()
    kept: list[str] = []
    for index, line in enumerate(lines):
        if _is_table(line) or not line.strip():
            continue
        following = next((later for later in lines[index + 1 :] if later.strip()), None)
        if line.rstrip().endswith(":") and (following is None or _is_table(following)):
            line = _LEAD_IN.sub("", line.rstrip())
        kept.append(line)
    joined = " ".join(" ".join(kept).split())
    return " ".join(_LINK.sub(r"\1", joined).split())
