"""MG-8 Cook side B: the winner's left neighbour pulls a card from the winner's hand (ledger depth)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.magellan import events as ev
from api.rules.magellan.actors import check_actor
from api.rules.magellan.chance import pick
from api.rules.magellan.followups import expect, pop
from api.rules.magellan.ledger import check_in_hand, discard_from_hand
from api.rules.magellan.state import MagellanState
from api.rules.magellan.table import winner


def cook_pull(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Cook B: the winner's left (clockwise next) neighbour pulls one hand card onto the discard;
    digital, the server picks it at random."""
    expect(state, "cook_pull", "Cook pull", "MG-8")
    seat = winner(state)
    puller = (seat + 1) % len(state.players)
    check_actor(state, event, puller, "MG-8")
    hand = state.players[seat].hand
    if state.digital:
        ev.refuse_in_digital(event, "value", "pulls the card", "MG-8")
        value = hand[pick(state.seed, f"pull/{state.draws}", len(hand))]
        state = replace(state, draws=state.draws + 1)
    else:
        value = ev.money_value(event, "value", "pulled card", "MG-8")
        check_in_hand(state, seat, value, "MG-8")
    return pop(discard_from_hand(state, seat, [value]))
