"""Issue 61: a provider that echoes the request's ``Authorization`` header in its error text puts
the key into the judgment log; ``round score`` writes its scored log through the same redaction
as the report's viewer bundle (``core/redaction.redacted_log``), so the key is in neither."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.event import InfoEvent
from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log
from judged_round import judged_round

from research_taste.rounds.score import score_round

pytestmark = pytest.mark.slow

ECHOED = "rt-echoed-3f9a7c21d5e8"  # no variable of the environment holds it


def test_an_echoed_key_reaches_no_scored_log(tmp_path: Path) -> None:
    folder, logs = judged_round(tmp_path)
    [info] = list_eval_logs(str(logs))
    log = read_eval_log(info)
    assert log.samples
    echo = f'upstream 401: {{"headers": {{"Authorization": "Bearer {ECHOED}"}}}}'
    log.samples[0].events.append(InfoEvent(source="provider", data=echo))
    write_eval_log(log, info.name)
    assert ECHOED in read_eval_log(info.name).model_dump_json()

    [scored] = score_round(folder, logs)
    text = read_eval_log(scored.scored).model_dump_json()
    assert "upstream 401" in text  # the event is kept, its key is not
    assert ECHOED not in text and "[REDACTED]" in text
