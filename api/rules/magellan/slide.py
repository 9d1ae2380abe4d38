"""MG-8 Magellan: the winner slides a money card under the Magellan card, onto one of their piles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.magellan import events as ev
from api.rules.magellan.constants import ROMAN
from api.rules.magellan.copies import check_copies, known_cards
from api.rules.magellan.followups import pop, winner_step
from api.rules.magellan.ledger import check_in_hand
from api.rules.magellan.money import cards_text, remove
from api.rules.magellan.state import MagellanState, Player
from api.rules.magellan.table import put, set_player


def _pile_index(player: Player, phase: int, pile: int | None) -> int:
    """Phase I starts a new pile; phases II/III continue a pile one card shorter than the phase
    number, the one of the ship that moved on (named by `pile` when there are several)."""
    piles = player.piles
    if phase == 1:
        if pile not in (None, len(piles)):
            raise IllegalMove("wrong-pile", "In phase I the Magellan card starts a new pile (MG-8).", "MG-8")
        return len(piles)
    candidates = [i for i, p in enumerate(piles) if len(p) == phase - 1]
    if pile is None:
        if len(candidates) > 1:
            raise IllegalMove(
                "pile-required",
                f"{player.name} has {len(candidates)} Magellan piles of {phase - 1} card(s): say which "
                "pile belongs to the ship that moved on (MG-8).",
                "MG-8",
            )
        return candidates[0]
    if pile not in candidates:
        raise IllegalMove(
            "wrong-pile",
            f"In phase {ROMAN[phase]} the card goes onto a pile of {phase - 1} card(s), the pile of the "
            f"ship that moved on from field {ROMAN[phase - 1]} (MG-8).",
            "MG-8",
        )
    return pile


def slide(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Magellan: one money card under the Magellan card(s): A from the hand, B from the payment;
    phase I starts a pile, phases II/III go onto the pile of the ship that moved."""
    card, seat = winner_step(state, event, "slide", "Magellan card to slide", "MG-8")
    value = ev.money_value(event, "value", "money card slid under Magellan", "MG-8")
    player = state.players[seat]
    index = _pile_index(player, state.phase, ev.index(event, "pile"))
    piles = player.piles if index < len(player.piles) else (*player.piles, ())
    piles = put(piles, index, (*piles[index], value))
    if not state.ledger:
        check_copies([*known_cards(state), value], f"a slid {value}", "MG-8")
    elif state.options.side("magellan") == "A":
        check_in_hand(state, seat, value, "MG-8", " to slide")
        state = set_player(state, seat, hand=remove(player.hand, [value]))
    else:
        if value not in card.payment:
            raise IllegalMove(
                "card-not-in-payment",
                f"On side B the slid card comes from the payment ({cards_text(card.payment)}) (MG-8).",
                "MG-8",
            )
        state = replace(state, discard=(*state.discard, *remove(card.payment, [value])))
    state = set_player(state, seat, piles=piles)
    return pop(state, payment=())
