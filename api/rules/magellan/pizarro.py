"""MG-11 Pizarro draw odds: exact, by dynamic programming over the remaining multiset of money cards.

The state of a draw is the multiset still in the stack (the running total follows from it), so
memoising on the count vector keeps even a full 63-card stack fast: only draws summing to at most 20
are ever explored.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from api.rules.magellan.constants import MONEY_VALUES, PIZARRO_LIMIT

Counts = tuple[int, ...]  # copies of 1 … 9 left in the stack


def counts_of(stack: Mapping[int, int]) -> Counts:
    return tuple(int(stack.get(v, 0)) for v in MONEY_VALUES)


@lru_cache(maxsize=200_000)
def _best(counts: Counts, total: int, goal: str, target: int) -> float:
    """Best achievable value from here, stopping optimally. goal "points": expected Pizarro points;
    "beat": chance to end above `target`; "reach": chance to end at `target` or above."""
    stop = _stop_value(total, goal, target)
    size = sum(counts)
    if size == 0 or total >= PIZARRO_LIMIT:
        return stop
    draw = 0.0
    for i, n in enumerate(counts):
        if n == 0:
            continue
        value = MONEY_VALUES[i]
        if total + value > PIZARRO_LIMIT:
            continue  # bust: worth 0 for every goal
        rest = (*counts[:i], n - 1, *counts[i + 1 :])
        draw += n / size * _best(rest, total + value, goal, target)
    return max(stop, draw)


def _stop_value(total: int, goal: str, target: int) -> float:
    if goal == "points":
        return float(total)
    if goal == "beat":
        return 1.0 if total > target else 0.0
    return 1.0 if total >= target else 0.0


def _draw_value(counts: Counts, total: int, goal: str, target: int) -> float | None:
    """Value of drawing exactly one more card, then stopping optimally (None: nothing to draw)."""
    size = sum(counts)
    if size == 0:
        return None
    result = 0.0
    for i, n in enumerate(counts):
        value = MONEY_VALUES[i]
        if n and total + value <= PIZARRO_LIMIT:
            rest = (*counts[:i], n - 1, *counts[i + 1 :])
            result += n / size * _best(rest, total + value, goal, target)
    return result


def odds(stack: Mapping[int, int], total: int, target: int | None = None) -> dict[str, Any]:
    """Bust chance of the next card, and the best stopping rule's expected points / chance to beat
    `target` (a Pizarro sum to exceed, e.g. blue's lead over you)."""
    counts = counts_of(stack)
    size = sum(counts)
    bust = sum(n for i, n in enumerate(counts) if total + MONEY_VALUES[i] > PIZARRO_LIMIT)
    stop_points = 0 if total > PIZARRO_LIMIT else total
    draw_ev = _draw_value(counts, total, "points", 0)
    result: dict[str, Any] = {
        "total": total,
        "stack_size": size,
        "bust_chance": None if size == 0 else round(bust / size, 6),
        "points_if_stop": stop_points,
        "expected_points": round(max(float(stop_points), draw_ev or 0.0), 6),
        "advice": "draw" if draw_ev is not None and draw_ev > stop_points else "stop",
        "next_card": [
            {"value": MONEY_VALUES[i], "chance": round(n / size, 6), "total": total + MONEY_VALUES[i]}
            for i, n in enumerate(counts)
            if n
        ],
        "target": target,
    }
    if total > PIZARRO_LIMIT:
        result.update(advice="stop", expected_points=0.0)
    if target is not None:
        for goal, key in (("beat", "beat_chance"), ("reach", "tie_or_beat_chance")):
            stop = 0.0 if total > PIZARRO_LIMIT else _stop_value(total, goal, target)
            drawn = None if total > PIZARRO_LIMIT else _draw_value(counts, total, goal, target)
            result[key] = round(max(stop, drawn or 0.0), 6)
            if goal == "beat":
                result["beat_advice"] = "draw" if drawn is not None and drawn > stop else "stop"
    return result
