"""Outcomes depth: the money cards whose place is known, kept within seven of each value (MG-1)."""

from __future__ import annotations

from api.rules.errors import IllegalMove
from api.rules.magellan.constants import FULL_MONEY
from api.rules.magellan.money import over_copies, remove
from api.rules.magellan.state import MagellanState


def known_cards(state: MagellanState) -> list[int]:
    """Outcomes depth: money cards whose place is known (slid under Magellan, final hands, Pizarro)."""
    cards: list[int] = []
    for player in state.players:
        cards += [v for pile in player.piles for v in pile]
        cards += list(player.final_hand or ())
        cards += list(player.pizarro)
    return cards


def unplaced_cards(state: MagellanState) -> tuple[int, ...]:
    """Outcomes depth: the money cards whose place is not known, what a Pizarro draw comes from."""
    return remove(FULL_MONEY, sorted(known_cards(state)))


def check_copies(cards: list[int], what: str, rule: str) -> None:
    """MG-1: a recorded card may not make an eighth copy of its value."""
    over = over_copies(cards)
    if over:
        raise IllegalMove(
            "too-many-copies",
            f"There are only seven money cards of each value (MG-1): {what} would make "
            f"more than seven {over[0]}s among the cards already recorded ({rule}).",
            rule,
        )
