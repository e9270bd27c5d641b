"""TastyBench baselines for the offline ``baseline/<name>`` provider.

None of them judges the projects; they show what the metrics say about judges whose behaviour
is known:

- ``tastybench-first`` always prefers Project 1: position bias 1.0, order consistency 0, and
  (with ``schedule=all_pairs``) every paper wins and loses equally, so no rating signal.
- ``tastybench-longer`` prefers the project with the longer description: a length prior, the
  kind of shortcut a real judge may take. On a round it is the naive floor judged like a model
  (docs/rounds.md): it reads the frozen abstracts alone, no label, date or venue signal, so a
  model that cannot beat it shows no taste beyond a shortcut any reader has; and it is a fairer
  floor than the coin, since abstract length is a known (weak) correlate of a paper's reception
  that a judge could exploit without reading for quality. Two descriptions of the same length
  (in words) are told apart by a stated, order-free tie-break: the one whose text has the
  lexicographically larger sha256 hex digest wins, so the same project wins in both orders (no
  position bias) and the floor picks on every pair (its coverage on a round is 1.0); only two
  identical texts, which no tie-break can tell apart, get Project 1.
- ``random`` flips a seeded coin per ordered pair (a hash of the seed and the two
  texts, so the same prompt always gets the same answer, under any concurrency): the scale's
  zero. Its answers repeat per pair, which is exactly the judge split-half reliability must not
  mistake for a reliable one.
- ``citation-oracle`` is an ORACLE (a reference judge), not a judge: it reads the running
  sample's own ground truth (the two velocities, in the run's velocity mode, which the
  ``judge`` solver keeps in the sample store under ``TRUTH_STORE_KEY``) and picks the paper
  with the higher velocity. It keeps no state between tasks, so any number of tastybench
  tasks can be built before one runs. It shows the scale's ceiling (rho near 1 with
  Bradley-Terry); it answers with no pick outside a tastybench sample or for a missing
  velocity.
- ``tastybench-lead`` is an extractor: it returns the first sentences of the abstract or full
  text inside the requested tags, so the extraction pipeline runs offline.

Any of them asked to read a judge's answer (the choice-extraction prompt) answers "UNCLEAR".
"""

from __future__ import annotations

import hashlib
import math
import re

from inspect_ai.model import ChatMessage
from inspect_ai.util import store

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.tastybench.solvers import TRUTH_STORE_KEY

_PLAIN_PROJECTS = re.compile(r"Project 1: (.*?)\n\nProject 2: (.*)\Z", re.DOTALL)
_TAGGED_PROJECTS = re.compile(
    r"<project_1>\n(.*?)\n</project_1>.*?<project_2>\n(.*?)\n</project_2>", re.DOTALL
)
_SOURCE = re.compile(r"<(abstract|fulltext)>\n(.*?)\n</\1>", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
LEAD_SENTENCES = 2
UNCLEAR = "UNCLEAR"
NO_PICK = "Both projects look equally promising to me."
RANDOM_SEED = 20251108


def _prompt(messages: list[ChatMessage]) -> str:
    return messages[-1].text if messages else ""


def project_texts(prompt: str) -> tuple[str, str] | None:
    """The two project descriptions of a TastyBench judge prompt (any variant), or None."""
    match = _TAGGED_PROJECTS.search(prompt) or _PLAIN_PROJECTS.search(prompt)
    return (match.group(1), match.group(2)) if match else None


@register_baseline(
    "tastybench-first",
    "TastyBench: always prefers Project 1 (position bias 1.0, consistency 0)",
)
def always_first(messages: list[ChatMessage]) -> str:
    if project_texts(_prompt(messages)) is None:
        return UNCLEAR
    return "Project 1 is better."


@register_baseline(
    "tastybench-longer",
    "TastyBench: prefers the project with the longer description (a length prior)",
)
def longer_description(messages: list[ChatMessage]) -> str:
    projects = project_texts(_prompt(messages))
    if projects is None:
        return UNCLEAR
    first, second = (longer_key(text) for text in projects)
    return f"I recommend Project {1 if first >= second else 2}."


def longer_key(text: str) -> tuple[int, str]:
    """What ``tastybench-longer`` ranks a description by: its length in words, then (the tie-break,
    module docstring) the sha256 hex digest of its text; the larger key wins."""
    return len(text.split()), hashlib.sha256(text.encode()).hexdigest()


@register_baseline(
    "tastybench-lead",
    "TastyBench extractor: the first two sentences of the abstract/full text, in the asked tags",
)
def lead_sentences(messages: list[ChatMessage]) -> str:
    prompt = _prompt(messages)
    source = _SOURCE.search(prompt)
    if source is None:
        return UNCLEAR
    tag = "idea" if source.group(1) == "abstract" else "summary"
    lead = " ".join(_SENTENCE.split(source.group(2).strip())[:LEAD_SENTENCES])
    return f"<{tag}>{lead}</{tag}>"


@register_baseline(
    "random",
    "TastyBench: a seeded coin per ordered pair (the chance level; repeats itself per pair)",
)
def seeded_coin(messages: list[ChatMessage]) -> str:
    projects = project_texts(_prompt(messages))
    if projects is None:
        return UNCLEAR
    digest = hashlib.sha256(f"{RANDOM_SEED}\n{projects[0]}\n{projects[1]}".encode()).digest()
    return f"I recommend Project {1 + digest[0] % 2}."


@register_baseline(
    "citation-oracle",
    "TastyBench ORACLE: reads the loaded ground truth and picks the higher citation velocity",
)
def citation_oracle(messages: list[ChatMessage]) -> str:
    if project_texts(_prompt(messages)) is None:
        return UNCLEAR
    truth = store().get(TRUTH_STORE_KEY) or [None, None]
    first, second = (math.nan if v is None else float(v) for v in truth)
    if math.isnan(first) or math.isnan(second) or first == second:
        return NO_PICK
    return f"I recommend Project {1 if first > second else 2}."
