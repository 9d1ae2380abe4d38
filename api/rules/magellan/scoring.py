"""MG-10 scoring, MG-11 Pizarro points and odds, MG-12 winner — pure, for tables and the stateless
endpoints.

Order (MG-10): from the winner of the last sold card clockwise; each player adds the crowns of the
fields with their ships, the crowns of the money cards in hand, each Magellan pile's crowns times its
number of Magellan cards, and last the Pizarro draw.

The Pizarro draw's odds (MG-11) are exact, by dynamic programming over the remaining multiset of
money cards: the state of a draw is the multiset still in the stack (the running total follows from
it), so memoising on the count vector keeps even a full 63-card stack fast: only draws summing to at
most 20 are ever explored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from api.rules.errors import IllegalMove, say
from api.rules.magellan.cards import crowns_of
from api.rules.magellan.constants import EXPLORERS, MONEY_VALUES, PIZARRO_LIMIT
from api.rules.magellan.powers import DRAW_SCORES_FOR, PILES_SCORE_FOR
from api.rules.magellan.sheet import BoardSheet, Slot, crowns_fixed_by_rule, missing_entries, side_map
from api.rules.magellan.state import Ship

JSON = dict[str, Any]


@dataclass(frozen=True)
class ScoreInput:
    """One player's end position. `pizarro` is None when the player has no Pizarro draw (no ship on
    Pizarro side B field III); () when they stopped before the first card."""

    name: str
    ships: tuple[Ship, ...]
    money: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    pizarro: tuple[int, ...] | None = None


def crown_slots_of(players: Sequence[ScoreInput], sides: Mapping[str, str]) -> list[Slot]:
    chosen = side_map(sides)
    return [
        (s.explorer, chosen[s.explorer], s.field, s.part, "crowns")
        for p in players
        for s in p.ships
        if crowns_fixed_by_rule(s.explorer, chosen[s.explorer], s.field, s.part) is None
    ]


def require_crowns(players: Sequence[ScoreInput], sides: Mapping[str, str], sheet: BoardSheet) -> None:
    """MG-2: no score from a sheet that lacks a number it needs."""
    missing = missing_entries(sheet, sides, crown_slots_of(players, sides))
    if missing:
        raise IllegalMove(
            "board-sheet-incomplete",
            say(
                "Scoring needs numbers the board sheet does not have yet: {items}. Type them in from your "
                "board (MG-2).",
                items="; ".join(missing),
            ),
            "MG-2",
        )


def pizarro_json(draws: Sequence[int] | None) -> JSON | None:
    """MG-11: the sum of the money values if 20 or less, else 0."""
    if draws is None:
        return None
    total = sum(draws)
    bust = total > PIZARRO_LIMIT
    return {"draws": list(draws), "sum": total, "points": 0 if bust else total, "bust": bust}


def score_player(player: ScoreInput, sides: Mapping[str, str], sheet: BoardSheet) -> JSON:
    """One player's MG-10 breakdown (the sheet must hold the crowns needed, see require_crowns)."""
    chosen = side_map(sides)
    fields: list[JSON] = []
    by_explorer = dict.fromkeys(EXPLORERS, 0)
    for ship in sorted(player.ships, key=lambda s: (EXPLORERS.index(s.explorer), s.field, s.part or "")):
        side = chosen[ship.explorer]
        points = sheet.crowns(ship.explorer, side, ship.field, ship.part)
        assert points is not None, "require_crowns first"
        entry: JSON = {"explorer": ship.explorer, "field": ship.field, "part": ship.part, "crowns": points}
        reason = crowns_fixed_by_rule(ship.explorer, side, ship.field, ship.part)
        if reason is not None:
            entry["note"] = reason
        fields.append(entry)
        by_explorer[ship.explorer] += points
    field_total = sum(f["crowns"] for f in fields)
    money: JSON = {"cards": sorted(player.money), "crowns": crowns_of(player.money)}
    piles: list[JSON] = [
        {
            "cards": len(pile),
            "slid": list(pile),
            "crowns": crowns_of(pile),
            "multiplier": len(pile),
            "points": crowns_of(pile) * len(pile),
        }
        for pile in sorted(player.piles, key=len, reverse=True)
    ]
    magellan = sum(int(p["points"]) for p in piles)
    by_explorer[PILES_SCORE_FOR] += magellan
    before = field_total + money["crowns"] + magellan
    pizarro = pizarro_json(player.pizarro)
    pizarro_points = 0 if pizarro is None else int(pizarro["points"])
    by_explorer[DRAW_SCORES_FOR] += pizarro_points
    return {
        "name": player.name,
        "fields": fields,
        "fields_total": field_total,
        "money": money,
        "magellan": {"piles": piles, "points": magellan},
        "pizarro": pizarro,
        "by_explorer": by_explorer,
        "before_pizarro": before,
        "total": before + pizarro_points,
    }


def scoring_order(first_seat: int, count: int) -> list[int]:
    return [(first_seat + i) % count for i in range(count)]


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def rank(scores: Sequence[JSON], order: Sequence[int]) -> JSON:
    """MG-12: most points wins; equal points share the place (Decision: no tie-break)."""
    totals = [int(s["total"]) for s in scores]
    seats = sorted(range(len(scores)), key=lambda s: (-totals[s], order.index(s)))
    places = {s: 1 + sum(1 for o in seats if totals[o] > totals[s]) for s in seats}
    ranking = [{"seat": s, "name": scores[s]["name"], "score": totals[s], "place": places[s]} for s in seats]
    winners = [s for s in seats if places[s] == 1]
    best = totals[seats[0]]
    if len(winners) == 1:
        runner = f"; next {scores[seats[1]]['name']} with {totals[seats[1]]}" if len(seats) > 1 else ""
        points = f"{best} point" if best == 1 else f"{best} points"
        explanation = f"{scores[seats[0]]['name']} wins with {points}{runner} (MG-12)."
        decided_by = "points"
    else:
        names = [scores[s]["name"] for s in winners]
        points = f"{best} point" if best == 1 else f"{best} points"
        explanation = f"{_names(names)} share the win with {points} each (MG-12 Decision)."
        decided_by = "shared"
    return {"ranking": ranking, "winners": winners, "decided_by": decided_by, "explanation": explanation}


def score_game(
    players: Sequence[ScoreInput], sides: Mapping[str, str], sheet: BoardSheet, first_seat: int
) -> JSON:
    """Every player's breakdown (listed by seat), the MG-10 order and the MG-12 ranking."""
    require_crowns(players, sides, sheet)
    order = scoring_order(first_seat, len(players))
    scores = [{"seat": seat, **score_player(p, sides, sheet)} for seat, p in enumerate(players)]
    return {"scoring_order": order, "scores": scores, **rank(scores, order)}


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
