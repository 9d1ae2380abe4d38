"""Scoring without a table (MG-10 … MG-12): an end position in, breakdown and ranking out.

Input (already shape-checked by the HTTP schema, re-checked here against the rules): sides, board
sheet, the winner of the last card (`first_seat`), and per player the ships, the money left, the
Magellan piles and the Pizarro draw — typed in (`draws`) or simulated from a seeded shuffle of the
stack (`simulate: {seed, count}`; the same seed always gives the same cards, so asking again with a
larger count continues the same draw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.common.setup import player_count
from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent
from api.rules.magellan.cards import over_copies, remove, shuffled
from api.rules.magellan.constants import (
    CARDS_PER_EXPLORER,
    EXPLORER_NAMES,
    FULL_MONEY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONEY_VALUES,
    PIZARRO_LIMIT,
    ROMAN,
    SHIPS_PER_PLAYER,
)
from api.rules.magellan.powers import POWERS
from api.rules.magellan.scoring import ScoreInput, score_game
from api.rules.magellan.sheet import parse_sheet, parts_of, side_map
from api.rules.magellan.state import Ship

JSON = dict[str, Any]


def _bad(code: str, detail: str, rule: str) -> IllegalMove:
    return IllegalMove(code, detail, rule)


def _ships(name: str, raw: Sequence[Mapping[str, Any]], sides: Mapping[str, str]) -> tuple[Ship, ...]:
    ships = []
    for entry in raw:
        explorer, field, part = entry["explorer"], int(entry["field"]), entry.get("part")
        parts = parts_of(explorer, sides[explorer])
        if part not in parts:
            where = f"{EXPLORER_NAMES[explorer]} side {sides[explorer]}"
            if parts == (None,):
                raise _bad("no-parts", f"{name}: {where} fields have no left/right part (MG-8).", "MG-8")
            raise _bad("part-required", f"{name}: say left or right for the ship on {where} (MG-8).", "MG-8")
        ships.append(Ship(explorer, field, part))
    if len(ships) > SHIPS_PER_PLAYER:
        raise _bad("too-many-ships", f"{name} has only {SHIPS_PER_PLAYER} ships (MG-1).", "MG-1")
    return tuple(ships)


def _check_fields(players: Sequence[ScoreInput]) -> None:
    """MG-7: at most 3 / 2 / 1 ships on each explorer's field I / II / III (the cards of each deck)."""
    counted = Counter((s.explorer, s.field) for p in players for s in p.ships)
    for (explorer, field), count in counted.items():
        if count > CARDS_PER_EXPLORER[field]:
            raise _bad(
                "too-many-ships",
                f"{EXPLORER_NAMES[explorer]} field {ROMAN[field]} holds at most "
                f"{CARDS_PER_EXPLORER[field]} ship(s) (MG-7), not {count}.",
                "MG-7",
            )


def _check_piles(player: ScoreInput, sides: Mapping[str, str]) -> None:
    """MG-8: each Magellan pile belongs to one ship: a pile of k cards to a ship on field k."""
    piles = Counter(len(p) for p in player.piles)
    ships = Counter(
        s.field for s in player.ships if POWERS[s.explorer, sides[s.explorer], s.field].slide_from
    )
    if piles != ships:
        raise _bad(
            "magellan-piles-mismatch",
            f"{player.name}: Magellan piles of 1/2/3 cards ({piles[1]}/{piles[2]}/{piles[3]}) must match "
            f"the ships on Magellan fields I/II/III ({ships[1]}/{ships[2]}/{ships[3]}) (MG-8).",
            "MG-8",
        )


def _has_pizarro_ship(ships: Sequence[Ship], sides: Mapping[str, str]) -> bool:
    return any(POWERS[s.explorer, sides[s.explorer], s.field].pizarro_draw for s in ships)


def _check_draws(name: str, draws: Sequence[int]) -> None:
    for n in range(1, len(draws)):
        if sum(draws[:n]) > PIZARRO_LIMIT:
            raise _bad(
                "draws-after-bust", f"{name}'s Pizarro draw was over 20 after {n} cards (MG-11).", "MG-11"
            )


def stack_counts(raw: Mapping[str, Any] | None, known: Sequence[int]) -> dict[int, int]:
    """The Pizarro stack: given as value → copies, or all 63 money cards less the known ones."""
    if raw is None:
        over = over_copies(known)
        if over:
            raise _bad("too-many-copies", f"More than seven {over[0]}s are listed (MG-1).", "MG-1")
        rest = remove(list(FULL_MONEY), known)
        return {v: rest.count(v) for v in MONEY_VALUES}
    stack = {int(k): int(n) for k, n in raw.items()}
    if any(v not in MONEY_VALUES or not 0 <= n <= 7 for v, n in stack.items()):
        raise MalformedEvent("invalid-stack", "The stack maps money values 1–9 to 0–7 copies (MG-1).", "MG-1")
    return {v: stack.get(v, 0) for v in MONEY_VALUES}


def simulate_draws(stack: Mapping[int, int], seed: int, count: int) -> tuple[int, ...]:
    """Digital Pizarro draw without a table: the first `count` cards of a seeded shuffle (stops at a
    bust)."""
    cards = shuffled([v for v in MONEY_VALUES for _ in range(stack.get(v, 0))], seed, "pizarro")
    drawn: list[int] = []
    for value in cards[:count]:
        drawn.append(value)
        if sum(drawn) > PIZARRO_LIMIT:
            break
    return tuple(drawn)


def score_position(body: Mapping[str, Any]) -> JSON:
    raw_players = body["players"]
    try:  # Magellan is for 3 to 6 players (MG-3): a position with fewer cannot be scored either
        player_count(raw_players, "Magellan", MIN_PLAYERS, MAX_PLAYERS, "MG-3", cite_rule=True)
    except InvalidSetup as error:
        raise IllegalMove(error.code, error.detail, error.rule) from None
    try:
        sheet = parse_sheet(body.get("board_sheet"))
    except InvalidSetup as error:
        raise MalformedEvent(error.code, error.detail, error.rule) from None
    sides = side_map(body.get("sides") or {})
    first_seat = int(body.get("first_seat", 0))
    if not 0 <= first_seat < len(raw_players):
        raise MalformedEvent(
            "invalid-seat", "The first scorer must be one of the players' seats (MG-10).", "MG-10"
        )
    players: list[ScoreInput] = []
    simulated: list[tuple[int, Mapping[str, Any]]] = []
    for seat, raw in enumerate(raw_players):
        ships = _ships(raw["name"], raw.get("ships", []), sides)
        pizarro = raw.get("pizarro")
        draws: tuple[int, ...] | None = None
        if _has_pizarro_ship(ships, sides):
            draws = tuple(pizarro.get("draws") or ()) if pizarro else ()
            if pizarro and pizarro.get("simulate"):
                simulated.append((seat, pizarro["simulate"]))
            _check_draws(raw["name"], draws)
        elif pizarro:
            raise _bad(
                "no-pizarro-draw",
                f"{raw['name']} has no ship on Pizarro side B field III: no Pizarro draw (MG-11).",
                "MG-11",
            )
        player = ScoreInput(
            name=raw["name"],
            ships=ships,
            money=tuple(raw.get("money", [])),
            piles=tuple(tuple(p) for p in raw.get("magellan_piles", [])),
            pizarro=draws,
        )
        _check_piles(player, sides)
        players.append(player)
    _check_fields(players)
    known = [
        v for p in players for v in (*p.money, *(c for pile in p.piles for c in pile), *(p.pizarro or ()))
    ]
    over = over_copies(known)
    if over:
        raise _bad("too-many-copies", f"More than seven {over[0]}s are listed (MG-1).", "MG-1")
    for seat, simulate in simulated:
        stack = stack_counts(body.get("stack"), known)
        draws = simulate_draws(stack, int(simulate["seed"]), int(simulate["count"]))
        players[seat] = replace(players[seat], pizarro=draws)
    return score_game(players, sides, sheet, first_seat)
