"""Ledger depth: money cards moving between the draw stack, the discard pile and the hands (MG-1:
every card always in exactly one place; MG-3 draw stack, MG-9 reshuffle)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from api.rules.errors import IllegalMove
from api.rules.magellan.chance import shuffled
from api.rules.magellan.money import add, remove
from api.rules.magellan.state import MagellanState
from api.rules.magellan.table import set_player


def reshuffle(state: MagellanState) -> MagellanState:
    """MG-9: the discard pile is shuffled into the draw stack (Decision: also whenever a card is due
    and the draw stack is empty)."""
    cards = tuple(sorted((*state.draw, *state.discard)))
    count = state.shuffles + 1
    draw = shuffled(cards, state.seed, f"money/{count}") if state.digital else cards
    return replace(state, draw=draw, discard=(), shuffles=count)


def take(state: MagellanState, value: int | None) -> tuple[MagellanState, int | None]:
    """One card off the draw stack: the typed-in value (physical) or the top card (digital, value None).
    None when the draw stack and the discard pile are both empty (the draw is lost, Decision)."""
    if not state.draw:
        if not state.discard:
            return state, None
        state = reshuffle(state)
    if value is None:
        return replace(state, draw=state.draw[1:], draws=state.draws + 1), state.draw[0]
    if value not in state.draw:
        raise IllegalMove(
            "card-not-in-draw-stack",
            f"By the ledger no {value} is left in the draw stack; check the card and type it in again.",
            "MG-3",
        )
    return replace(state, draw=remove(state.draw, [value])), value


def draw_into_hand(state: MagellanState, seat: int, values: Sequence[int | None], rule: str) -> MagellanState:
    """Cards off the draw stack into `seat`'s hand: typed-in values, or None per digital draw."""
    drawn: list[int] = []
    for value in values:
        state, got = take(state, value)
        if got is None:
            if value is None:
                break  # digital: nothing left anywhere, the rest of the draw is lost
            raise IllegalMove(
                "draw-stack-empty",
                f"The draw stack and the discard pile are empty: no more cards can be drawn ({rule}).",
                rule,
            )
        drawn.append(got)
    return set_player(state, seat, hand=add(state.players[seat].hand, drawn))


def check_in_hand(state: MagellanState, seat: int, value: int, rule: str, purpose: str = "") -> None:
    """A typed-in card must be one the ledger has in that hand."""
    if value not in state.players[seat].hand:
        raise IllegalMove("card-not-in-hand", f"{state.name(seat)} holds no {value}{purpose} ({rule}).", rule)


def discard_from_hand(state: MagellanState, seat: int, cards: Sequence[int]) -> MagellanState:
    """Hand cards onto the discard pile (payment MG-6, Cook B pull and Marco Polo swap MG-8)."""
    state = set_player(state, seat, hand=remove(state.players[seat].hand, cards))
    return replace(state, discard=(*state.discard, *cards))
