"""Reading and replacing parts of a MagellanState: the card on the table, a player, the phase's deck,
a ship. Every update returns a new state (frozen dataclasses), so the handlers share these."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from api.rules.magellan.state import Card, Deck, MagellanState, Ship

T = TypeVar("T")


def put(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """`items` with the entry at `index` replaced by `item`."""
    return (*items[:index], item, *items[index + 1 :])


def set_player(state: MagellanState, seat: int, **changes: Any) -> MagellanState:
    return replace(state, players=put(state.players, seat, replace(state.players[seat], **changes)))


def with_deck(state: MagellanState, deck: Deck) -> MagellanState:
    """The current phase's deck replaced."""
    return replace(state, decks=put(state.decks, state.phase - 1, deck))


def current_card(state: MagellanState) -> Card:
    """The explorer card on the table; callers only ask during an auction or a sale."""
    assert state.card is not None
    return state.card


def winner(state: MagellanState) -> int:
    """The seat that won the card on the table (MG-4)."""
    seat = current_card(state).winner
    assert seat is not None
    return seat


def place_ship(
    ships: tuple[Ship, ...], explorer: str, phase: int, part: str | None, from_part: str | None
) -> tuple[Ship, ...]:
    """MG-7: phase I a new ship on field I; phases II/III one ship moves on from the previous field."""
    if phase == 1:
        return (*ships, Ship(explorer, 1, part))
    for i, ship in enumerate(ships):
        if ship.explorer == explorer and ship.field == phase - 1 and from_part in (None, ship.part):
            return put(ships, i, Ship(explorer, phase, part))
    raise AssertionError("MG-5 lets only owners of a ship on the previous field win")
