"""TastyBench per-sample scorer: the judge's pick as numbers that survive Inspect's reduction.

Values: ``first_won`` (1 = Project 1, 0 = Project 2, NaN = unclear), ``unclear``, ``agree``
(the pick has the higher velocity), ``extractor_used`` and ``extractor_failed`` (the extractor
call failed: provider error or refusal; reason ``grader_failed``, while an answer nobody could
read is ``invalid_response_format``). ``Score.metadata`` also holds the run's knowledge cutoff,
its source, ``post_cutoff`` and the recognition probe's result per paper (``recall.py``). The
dataset-level metrics (``metrics.py``) rebuild the
comparisons from them: the first score group here, every other figure in ``tastybench_details``
(``core/metric_groups.py``); the task declares both again with its bootstrap settings.
"""

from __future__ import annotations

import re

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.leaks import name_leaks, title_names
from research_taste_evals.core.metric_groups import copy_score, with_metrics
from research_taste_evals.core.reasons import GRADER_FAILED, INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.stats import NAN, import_scipy
from research_taste_evals.tastybench.dataset import ExtractKind
from research_taste_evals.tastybench.metrics import (
    extraction_rate,
    tastybench_figures,
    tastybench_headline,
)
from research_taste_evals.tastybench.parsing import ChoiceMethod
from research_taste_evals.tastybench.recall import TASTYBENCH
from research_taste_evals.tastybench.solvers import read_pick, stored_pick

EXTRACTOR_FAILURES = ("extractor_failed", "extractor_refused")


@scorer(metrics=[tastybench_headline()])  # the task declares it again with its settings
def tastybench_scorer(choice_method: ChoiceMethod = "parser_then_extractor") -> Scorer:
    """Score the pick that ``read_choice`` stored (or read it now when the solver did not)."""

    async def score(state: TaskState, target: Target) -> Score:
        result = stored_pick(state) or await read_pick(state, choice_method)
        extractor_failed = result.unclear_reason in EXTRACTOR_FAILURES
        reason = GRADER_FAILED if extractor_failed else INVALID_RESPONSE_FORMAT
        first_won = NAN if result.choice is None else float(result.choice == 1)
        agree = NAN
        if result.choice is not None and target.text in ("1", "2"):
            agree = float(str(result.choice) == target.text)
        return Score(
            value={
                "first_won": first_won,
                "unclear": float(result.choice is None),
                "agree": agree,
                "extractor_used": float(result.method == "extractor"),
                "extractor_failed": float(extractor_failed),
                # Unread by parser and extractor alike (not an extractor call that failed).
                "unparsed": float(result.choice is None and not extractor_failed),
            },
            answer="unclear" if result.choice is None else str(result.choice),
            reason=reason if result.choice is None else None,
            explanation=(
                f"picked Project {result.choice} (read by {result.method})"
                if result.choice is not None
                else f"unclear ({result.unclear_reason})"
            ),
            metadata={
                "choice_method": choice_method,
                "read_by": result.method,
                "unclear_reason": result.unclear_reason,
                "extractor_reply": result.extractor_reply,
                **recall_fields(TASTYBENCH, state),
            },
        )

    return score


@scorer(metrics=[tastybench_figures()])
def tastybench_details(of: str = "tastybench_scorer") -> Scorer:
    """The second score group: a copy of ``tastybench_scorer``'s score, every other figure."""
    return copy_score(of)


def tastybench_scorers(choice_method: ChoiceMethod, resamples: int, seed: int) -> list[Scorer]:
    """Both score groups, their metrics with the run's bootstrap settings."""
    import_scipy()  # before the run, not on its event loop
    first = with_metrics(tastybench_scorer, tastybench_headline(resamples, seed))
    details = with_metrics(tastybench_details, tastybench_figures(resamples, seed))
    return [first(choice_method), details()]


# ``tastybench_extract``: did the extractor's reply hold the tagged text?


def parse_tagged(text: str, tag: str) -> str | None:
    """The stripped content of the first ``<tag>...</tag>`` (upstream's regex), or None."""
    match = re.search(rf"<{tag}>(.*?)</{tag}>", text, re.DOTALL)
    content = match.group(1).strip() if match else ""
    return content or None


@scorer(metrics=[extraction_rate()])
def extraction_scorer(kind: ExtractKind, anonymize: bool = False) -> Scorer:
    """1 when the reply holds a usable ``<idea>``/``<summary>`` text, 0 (counted) when not.

    With ``anonymize`` a text naming its paper (``core.leaks``) is withheld: value 0, no
    answer, its leaks in the metadata (``withheld_rate``).
    """

    async def score(state: TaskState, target: Target) -> Score:
        text = parse_tagged(state.output.completion, kind)
        title = str(state.metadata.get("title") or "")
        leaks = name_leaks(text, title_names(title)) if text and anonymize else []
        explanation = f"no <{kind}> tags in the reply" if text is None else None
        if leaks:
            explanation = "withheld: the text names its paper (" + ", ".join(leaks) + ")"
        return Score(
            value=0.0 if text is None or leaks else 1.0,
            answer="" if leaks else text or "",
            reason=INVALID_RESPONSE_FORMAT if text is None else None,
            explanation=explanation,
            metadata={"tagged": text is not None, "leaks": leaks, "text": text},
        )

    return score
