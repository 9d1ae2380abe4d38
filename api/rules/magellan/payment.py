"""MG-6 (ledger depth): the winner pays the price with money cards from the hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.magellan import events as ev
from api.rules.magellan.auction import must_keep
from api.rules.magellan.constants import EXPLORER_NAMES
from api.rules.magellan.followups import pop, winner_step
from api.rules.magellan.ledger import discard_from_hand
from api.rules.magellan.money import cards_text, contains, remove
from api.rules.magellan.state import MagellanState
from api.rules.magellan.table import set_player


def pay(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-6 (ledger): at least the bid, overpaying allowed, no change; Magellan B keeps the payment
    face up until one card is slid from it (MG-8)."""
    card, seat = winner_step(state, event, "pay", "payment", "MG-6")
    cards = ev.money_cards(event, "cards", "money cards paid", "MG-6")
    hand = state.players[seat].hand
    if not contains(hand, cards):
        raise IllegalMove(
            "cards-not-in-hand", f"{state.name(seat)} does not hold {cards_text(cards)} (MG-6).", "MG-6"
        )
    if sum(cards) < card.price:
        raise IllegalMove(
            "payment-too-low",
            f"The bid was {card.price}; {cards_text(cards)} make only {sum(cards)} (MG-6).",
            "MG-6",
        )
    if len(hand) - len(cards) < must_keep(state, card.explorer):
        raise IllegalMove(
            "must-keep-a-card",
            f"For {EXPLORER_NAMES[card.explorer]} a card must stay in hand after paying (MG-8).",
            "MG-8",
        )
    if (card.explorer, state.options.side(card.explorer)) == ("magellan", "B"):
        state = set_player(state, seat, hand=remove(hand, cards))
        return pop(state, payment=tuple(sorted(cards)))
    return pop(discard_from_hand(state, seat, cards))
