"""The `draw` event (ledger depth, physical chance): money cards a player drew are typed in, for
Vasco da Gama (MG-8) or the phase-end income (MG-9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.magellan import events as ev
from api.rules.magellan.actors import check_actor, pick_actor
from api.rules.magellan.followups import pop
from api.rules.magellan.ledger import draw_into_hand
from api.rules.magellan.sheet_needs import missing_for_income, sheet_incomplete
from api.rules.magellan.state import MagellanState
from api.rules.magellan.table import put, winner
from api.rules.magellan.waiting import waiting_text


def _check_count(state: MagellanState, seat: int, cards: Sequence[int], due: int, rule: str) -> None:
    if len(cards) > due:
        raise IllegalMove(
            "too-many-cards", f"{state.name(seat)} draws {due} more card(s) now ({rule}).", rule
        )


def draw(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """Ledger + physical: the cards a player drew are typed in (Vasco da Gama MG-8, income MG-9)."""
    if not state.ledger:
        raise IllegalMove(
            "hands-not-tracked",
            "In outcomes depth hands are not tracked: draw at the table, nothing to record.",
        )
    if state.digital:
        raise IllegalMove("draws-are-digital", "In a digital game the server draws the money cards.", "MG-6")
    cards = ev.money_cards(event, "cards", "money cards drawn", "MG-9")
    card, pe = state.card, state.phase_end
    if state.stage == "sale" and card is not None and card.todo[:1] == ("draw",):
        seat = winner(state)
        check_actor(state, event, seat, "MG-8")
        _check_count(state, seat, cards, card.draws_due, "MG-8")
        state = draw_into_hand(state, seat, cards, "MG-8")
        left = card.draws_due - len(cards)
        return pop(state, draws_due=0) if left == 0 else replace(state, card=replace(card, draws_due=left))
    if state.stage == "phase_end" and pe is not None:
        if pe.income is None:
            raise sheet_incomplete(missing_for_income(state), "The income at the end of this phase (MG-9)")
        seats = [s for s, n in enumerate(pe.due) if n > 0]
        if seats:
            seat = pick_actor(state, event, seats, "draw income cards", "MG-9")
            _check_count(state, seat, cards, pe.due[seat], "MG-9")
            state = draw_into_hand(state, seat, cards, "MG-9")
            return replace(state, phase_end=replace(pe, due=put(pe.due, seat, pe.due[seat] - len(cards))))
    raise IllegalMove("no-draw-due", f"Nobody draws money cards now: {waiting_text(state)}")
