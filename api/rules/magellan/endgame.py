"""After phase III: the step into scoring (MG-10), final hands typed in (outcomes depth), the
Pizarro B draw (MG-11), the end of the game once everything can be counted, and its result (MG-12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, say, term
from api.rules.magellan import events as ev
from api.rules.magellan.cards import check_copies, known_cards, shuffled, take, unplaced_cards
from api.rules.magellan.constants import PIZARRO_LIMIT
from api.rules.magellan.scoring import ScoreInput, score_game
from api.rules.magellan.state import MagellanState, Scoring, set_player
from api.rules.magellan.waiting import check_actor, missing_for_scoring, pick_actor, sheet_incomplete


def begin_scoring(state: MagellanState) -> MagellanState:
    """MG-10 after phase III; MG-11: the owner of a ship on Pizarro B field III will draw."""
    drawer = next(
        (
            seat
            for seat, player in enumerate(state.players)
            if any(state.power(ship.explorer, ship.field).pizarro_draw for ship in player.ships)
        ),
        None,
    )
    return replace(state, stage="scoring", phase_end=None, scoring=Scoring(pizarro_seat=drawer))


def auto_scoring(state: MagellanState) -> MagellanState | None:
    """The game ends (MG-12) once the hands and crowns are in and any Pizarro draw is over. None: it
    waits for them."""
    sc = state.scoring
    assert sc is not None
    if not state.ledger and any(p.final_hand is None for p in state.players):
        return None
    if missing_for_scoring(state):
        return None
    if sc.pizarro_seat is not None and not sc.pizarro_done:
        if state.digital and not state.ledger and not sc.stack_built:
            # Outcomes depth: the stack is simulated from the cards whose place is not known (Decision).
            stack = shuffled(unplaced_cards(state), state.seed, "pizarro")
            return replace(state, scoring=replace(sc, stack=stack, stack_built=True))
        return None
    return replace(state, stage="finished")


def final_hand(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """Outcomes depth: each player types in the money cards left in hand (MG-10)."""
    if state.stage != "scoring" or state.scoring is None:
        raise IllegalMove("not-scoring-yet", "Hands are entered once the game has ended (MG-10).", "MG-10")
    if state.ledger:
        raise IllegalMove(
            "hands-tracked", "In ledger depth the referee already knows every hand (MG-10).", "MG-10"
        )
    sc = state.scoring
    if sc.pizarro_seat is not None and state.players[sc.pizarro_seat].pizarro:
        raise IllegalMove(
            "hands-closed", "The Pizarro draw has begun: the hands can no longer change (MG-11).", "MG-11"
        )
    seat = pick_actor(state, event, range(len(state.players)), "enter a hand", "MG-10")
    cards = ev.money_cards(event, "cards", term("money cards left in hand"), "MG-10", allow_empty=True)
    state = set_player(state, seat, final_hand=None)  # a re-entry replaces the earlier hand
    check_copies([*known_cards(state), *cards], say("{name}'s hand", name=state.name(seat)), "MG-10")
    return set_player(state, seat, final_hand=tuple(sorted(cards)))


def final_hands(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """Outcomes depth, issue 33: every hand typed in, as one entry (MG-10). Each is checked as its
    own final_hand would be, in seat order on the hands before it (MG-1's copies count them all);
    the first refusal refuses the whole entry, so no hand is taken unless all are."""
    for seat, cards in ev.hands(event, len(state.players)):
        state = final_hand(state, {"type": "final_hand", "seat": seat, "cards": cards})
    return state


def _pizarro_seat(state: MagellanState, event: Mapping[str, Any]) -> tuple[int, Scoring]:
    """MG-11: the draw is open once the hands (MG-10) and crowns (MG-2) are in; only its owner acts."""
    sc = state.scoring
    if state.stage != "scoring" or sc is None:
        raise IllegalMove("not-scoring-yet", "The Pizarro draw comes at the scoring (MG-11).", "MG-11")
    if sc.pizarro_seat is None:
        raise IllegalMove(
            "no-pizarro-draw", "Nobody has a ship on Pizarro side B field III (MG-11).", "MG-11"
        )
    if sc.pizarro_done:
        raise IllegalMove("pizarro-done", "The Pizarro draw is over (MG-11).", "MG-11")
    missing_hands = [p.name for p in state.players if p.final_hand is None]
    if not state.ledger and missing_hands:
        raise IllegalMove(
            "hands-first",
            say(
                "First every player enters the money left in hand (MG-10): {items}.",
                items=", ".join(missing_hands),
            ),
            "MG-10",
        )
    missing = missing_for_scoring(state)
    if missing:
        raise sheet_incomplete(missing, "Scoring")
    check_actor(state, event, sc.pizarro_seat, "MG-11")
    return sc.pizarro_seat, sc


def _pizarro_card(
    state: MagellanState, event: Mapping[str, Any], sc: Scoring
) -> tuple[MagellanState, int | None]:
    """The card turned up: off the draw stack (ledger), off the simulated stack (outcomes, digital) or
    typed in (outcomes, physical). None: no card is left."""
    if state.digital:
        ev.refuse_in_digital(event, "value", term("draws the card"), "MG-11")
        if state.ledger:
            return take(state, None)
        got = sc.stack[0] if sc.stack else None
        sc = replace(sc, stack=sc.stack[1:])
        return replace(state, scoring=sc, draws=state.draws + 1 if got is not None else state.draws), got
    value = ev.money_value(event, "value", term("card turned up"), "MG-11")
    if state.ledger:
        return take(state, value)
    check_copies([*known_cards(state), value], say("a drawn {value}", value=value), "MG-11")
    return state, value


def pizarro_draw(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-11: one more card from the shuffled draw stack; over 20 ends the draw with 0."""
    seat, sc = _pizarro_seat(state, event)
    state, got = _pizarro_card(state, event, sc)
    if got is None:
        raise IllegalMove(
            "stack-empty", "No money card is left to turn up: the draw must stop (MG-11).", "MG-11"
        )
    drawn = (*state.players[seat].pizarro, got)
    state = set_player(state, seat, pizarro=drawn)
    return _end_draw(state) if sum(drawn) > PIZARRO_LIMIT else state


def pizarro_stop(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-11: the drawer stops and keeps the total so far."""
    _pizarro_seat(state, event)
    return _end_draw(state)


def _end_draw(state: MagellanState) -> MagellanState:
    sc = state.scoring
    assert sc is not None
    return replace(state, scoring=replace(sc, pizarro_done=True))


def first_scorer(state: MagellanState) -> int:
    """MG-10: the winner of the last sold card (Decision: if the last card went to the box, the most
    recent winner; if nobody ever won, the auctioneer)."""
    return state.options.auctioneer if state.last_winner is None else state.last_winner


def score_inputs(state: MagellanState) -> list[ScoreInput]:
    sc = state.scoring
    return [
        ScoreInput(
            name=p.name,
            ships=p.ships,
            money=p.hand if state.ledger else (p.final_hand or ()),
            piles=p.piles,
            pizarro=p.pizarro if sc is not None and sc.pizarro_seat == seat else None,
        )
        for seat, p in enumerate(state.players)
    ]


def result(state: MagellanState) -> dict[str, Any] | None:
    """Final standings once everything is counted, else None."""
    if state.stage != "finished":
        return None
    return score_game(score_inputs(state), state.options.side_map(), state.sheet, first_scorer(state))
