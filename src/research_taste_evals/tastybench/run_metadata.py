"""The ``tastybench`` task's log metadata: the provenance block, the run's settings as the
task received them (the prompt actually used), and the matched pairing when there is one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.provenance import provenance
from research_taste_evals.tastybench.dataset import UPSTREAM_COMMIT, Paper
from research_taste_evals.tastybench.matched_schedule import matching
from research_taste_evals.tastybench.ratings import HEADLINE_METRIC, UPSTREAM_COMPARABLE_METRIC
from research_taste_evals.tastybench.schedule import MATCHED_HEADLINE
from research_taste_evals.tastybench.solvers import EXTRACTOR_ROLE
from research_taste_evals.tastybench.velocity import UPSTREAM_FETCH_DATE, VelocityMode
from research_taste_evals.tastybench.websearch import CITATION_COUNT_DOMAINS


@dataclass(frozen=True)
class RunSettings:
    """The ``tastybench`` arguments its metadata records (typed, as the task received them)."""

    representation: str
    prompt: str
    velocity: VelocityMode
    schedule: str
    rounds: int
    seed: int
    pairs_file: str | None
    choice_method: str
    web_search: bool
    knowledge_cutoff: object
    recall_probe: bool


def tastybench_metadata(
    settings: RunSettings,
    loaded_metadata: Mapping[str, Any],
    papers: Sequence[Paper],
    comparisons: int,
) -> dict[str, Any]:
    """The ``tastybench`` task's metadata: the provenance block and the run's settings.

    With ``schedule=matched`` also ``matching`` (``Matching.summary``: pairs, same-month pairs,
    the gap cap and the largest gap, papers left unpaired by reason) and the headline
    ``pairwise_accuracy``.
    """
    args = settings
    cutoff = args.knowledge_cutoff
    sources = {key: loaded_metadata[key] for key in ("papers_source", "representation_source")}
    details = {key: value for key, value in loaded_metadata.items() if key not in sources}
    schedule, pairs_file = args.schedule, args.pairs_file
    return {
        **provenance(
            benchmark="TastyBench",
            source=sources["papers_source"],
            revision=loaded_metadata.get("data_revision", UPSTREAM_COMMIT),
            prompt_variant=args.prompt,
            paper_faithful={
                "velocity": args.velocity == "upstream",
                "choice_method": args.choice_method == "extractor",
                "schedule": schedule in ("adjacent", "file"),
            },
            representation_source=sources["representation_source"],
        ),
        "headline_metric": MATCHED_HEADLINE if schedule == "matched" else HEADLINE_METRIC,
        "upstream_comparable_metric": UPSTREAM_COMPARABLE_METRIC,
        **details,
        "papers_judged": len(papers),
        "representation": args.representation,
        "prompt": args.prompt,
        "velocity": args.velocity,
        "velocity_fetch_date": loaded_metadata.get(
            "velocity_fetch_date", UPSTREAM_FETCH_DATE.isoformat()
        ),
        "schedule": schedule,
        "rounds": args.rounds if schedule == "adjacent" else None,
        "seed": args.seed if schedule != "file" else None,
        "pairs_file": pairs_file,
        "pairs_file_sha256": sha256_of(Path(pairs_file)) if pairs_file else None,
        "comparisons": comparisons,
        "matching": (
            matching(papers, args.velocity, args.seed).summary() if schedule == "matched" else None
        ),
        "choice_method": args.choice_method,
        "extractor_role": f"{EXTRACTOR_ROLE} (default: the judge model itself)",
        "web_search": args.web_search,
        # The run's cutoff (with its source and model-info entry) is in each sample's score.
        "knowledge_cutoff_arg": None if cutoff is None else str(cutoff),
        "recall_probe": args.recall_probe,
        "web_search_blocked_domains": list(CITATION_COUNT_DOMAINS) if args.web_search else None,
    }
