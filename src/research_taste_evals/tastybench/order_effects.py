"""How the presentation order sways a judge's picks: the share of picks for the first project
(position bias) and the share of pairs judged alike in both orders (order consistency).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from research_taste_evals.core.stats import NAN

Decision = tuple[str, str, str]


def _check_decision(index: int, decision: Decision) -> Decision:
    first, second, winner = decision
    if winner not in (first, second) or first == second:
        raise ValueError(f"decision {index}: winner {winner!r} is not one of {first!r}, {second!r}")
    return first, second, winner


def position_bias_rate(decisions: Iterable[Decision]) -> float:
    """Share of decisions won by the first-shown paper ("Project 1"); 0.5 is unbiased.

    Args:
        decisions: (first_shown_id, second_shown_id, winner_id), unclear answers excluded.

    Returns:
        The share, or NaN when there are no decisions.
    """
    checked = [_check_decision(i, decision) for i, decision in enumerate(decisions)]
    if not checked:
        return NAN
    return sum(winner == first for first, _, winner in checked) / len(checked)


def order_consistency(decisions: Iterable[Decision]) -> float:
    """Share of pairs judged the same way in both presentation orders.

    For every unordered pair shown in both orders, each decision made with one order is
    matched with each decision made with the other; the pair's consistency is the share of
    those matches naming the same winner (1 or 0 when each order was seen once). The result is
    the mean over such pairs. A judge that always picks the first-shown paper scores 0.

    Args:
        decisions: (first_shown_id, second_shown_id, winner_id), unclear answers excluded.

    Returns:
        The mean consistency, or NaN when no pair was seen in both orders.
    """
    import numpy as np

    by_order: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i, decision in enumerate(decisions):
        first, second, winner = _check_decision(i, decision)
        by_order[(first, second)].append(winner)
    scores = []
    for (first, second), winners in by_order.items():
        reverse = by_order.get((second, first))
        if first > second or not reverse:
            continue  # each unordered pair once, and only if seen in both orders
        agree = sum(a == b for a in winners for b in reverse)
        scores.append(agree / (len(winners) * len(reverse)))
    return float(np.mean(scores)) if scores else NAN
