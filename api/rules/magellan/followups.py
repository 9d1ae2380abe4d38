"""The winner's follow-up after a sale (MG-6, MG-8): the card's to-do list, head first. Each step that
needs a decision has its own event handler (payment, vasco, draws, slide, cook); the rest run here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.magellan.actors import check_actor
from api.rules.magellan.constants import VASCO_DRAWS
from api.rules.magellan.ledger import draw_into_hand, reshuffle
from api.rules.magellan.state import Card, MagellanState, Todo
from api.rules.magellan.table import current_card, set_player, winner
from api.rules.magellan.waiting import waiting_text


def todo_after_sale(state: MagellanState, explorer: str) -> tuple[tuple[Todo, ...], int]:
    """The steps a sold card brings and the money cards due to draw: payment in ledger depth (MG-6),
    then the explorer's action (MG-8)."""
    side, phase = state.options.side(explorer), state.phase
    todo: list[Todo] = ["pay"] if state.ledger else []
    draws_due = 0
    if explorer == "vasco":
        if side == "B":
            todo.append("vasco_part")
        elif state.ledger:
            todo.append("draw")
            draws_due = VASCO_DRAWS[phase]
    if explorer == "magellan":
        todo.append("slide")
    if explorer == "cook" and state.ledger:
        todo.append("open_hand" if side == "A" else "cook_pull")
    return tuple(todo), draws_due


def expect(state: MagellanState, step: Todo, what: str, rule: str) -> Card:
    """The card on the table, if `step` is the head of its to-do list; otherwise the event is refused."""
    card = state.card
    if state.stage != "sale" or card is None or not card.todo or card.todo[0] != step:
        raise IllegalMove("not-now", f"There is no {what} to record now: {waiting_text(state)}", rule)
    return card


def winner_step(
    state: MagellanState, event: Mapping[str, Any], step: Todo, what: str, rule: str
) -> tuple[Card, int]:
    """The card and its winner, when `step` is due and is the winner's own decision."""
    card = expect(state, step, what, rule)
    seat = winner(state)
    check_actor(state, event, seat, rule)
    return card, seat


def pop(state: MagellanState, **changes: Any) -> MagellanState:
    """The head step is done (with `changes` to the card)."""
    card = current_card(state)
    return replace(state, card=replace(card, todo=card.todo[1:], **changes))


def auto_sale(state: MagellanState) -> MagellanState | None:
    """What needs nobody's decision: the end of the list, digital draws, an empty draw stack, Cook A
    laying the hand open, a Cook B pull from an empty hand. None: a player must act."""
    card = current_card(state)
    if not card.todo:
        return replace(state, stage="reveal", card=None)
    head, seat = card.todo[0], winner(state)
    if head == "draw":
        if card.draws_due == 0:
            return pop(state, draws_due=0)
        if state.digital:
            return pop(draw_into_hand(state, seat, [None] * card.draws_due, "MG-8"), draws_due=0)
        if not state.draw:
            return reshuffle(state) if state.discard else pop(state, draws_due=0)
        return None
    if head == "open_hand":
        return pop(set_player(state, seat, hand_open=True))
    if head == "cook_pull" and not state.players[seat].hand:
        return pop(state)
    return None
