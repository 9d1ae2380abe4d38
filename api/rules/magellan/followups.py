"""The winner's follow-up after a sale (MG-6, MG-8): the card's to-do list, head first, built from the
explorer's power (powers.py), and the handler of each step that needs a decision: `pay`, `vasco_part`,
`draw` (also the phase-end income, MG-9), `slide` and `cook_pull`. Open Cook A hands run here too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, say, term
from api.rules.magellan import events as ev
from api.rules.magellan.cards import (
    cards_text,
    check_copies,
    check_in_hand,
    contains,
    discard_from_hand,
    draw_into_hand,
    known_cards,
    pick,
    remove,
    reshuffle,
)
from api.rules.magellan.constants import EXPLORER_NAMES, ROMAN
from api.rules.magellan.state import (
    Card,
    MagellanState,
    Player,
    Todo,
    current_card,
    left_neighbour,
    place_ship,
    put,
    set_player,
    winner,
)
from api.rules.magellan.waiting import (
    check_actor,
    missing_for_income,
    pick_actor,
    sheet_incomplete,
    waiting_text,
)


def todo_after_sale(state: MagellanState, explorer: str) -> tuple[tuple[Todo, ...], int]:
    """The steps a sold card brings and the money cards due to draw: payment in ledger depth (MG-6),
    then the explorer's action (MG-8)."""
    won = state.power(explorer)
    todo: list[Todo] = ["pay"] if state.ledger else []
    draws_due = 0
    if won.part_choice:
        todo.append("vasco_part")
    elif won.draws and state.ledger:
        todo.append("draw")
        draws_due = won.draws
    if won.slide_from:
        todo.append("slide")
    if state.ledger and (won.open_hand or won.neighbour_pull):
        todo.append("open_hand" if won.open_hand else "cook_pull")
    return tuple(todo), draws_due


def expect(state: MagellanState, step: Todo, what: str, rule: str) -> Card:
    """The card on the table, if `step` is the head of its to-do list; otherwise the event is refused."""
    card = state.card
    if state.stage != "sale" or card is None or not card.todo or card.todo[0] != step:
        raise IllegalMove(
            "not-now",
            say(
                "There is no {what} to record now: {waiting_text}",
                what=what,
                waiting_text=waiting_text(state),
            ),
            rule,
        )
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


def pay(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-6 (ledger): at least the bid, overpaying allowed, no change; Magellan B keeps the payment
    face up until one card is slid from it (MG-8)."""
    card, seat = winner_step(state, event, "pay", term("payment"), "MG-6")
    cards = ev.money_cards(event, "cards", term("money cards paid"), "MG-6")
    hand = state.players[seat].hand
    if not contains(hand, cards):
        raise IllegalMove(
            "cards-not-in-hand",
            say(
                "{name} does not hold {cards_text} (MG-6).",
                name=state.name(seat),
                cards_text=cards_text(cards),
            ),
            "MG-6",
        )
    if sum(cards) < card.price:
        raise IllegalMove(
            "payment-too-low",
            say(
                "The bid was {price}; {cards_text} make only {sum} (MG-6).",
                price=card.price,
                cards_text=cards_text(cards),
                sum=sum(cards),
            ),
            "MG-6",
        )
    if len(hand) - len(cards) < state.power(card.explorer).keep_in_hand:
        raise IllegalMove(
            "must-keep-a-card",
            say(
                "For {explorer_names} a card must stay in hand after paying (MG-8).",
                explorer_names=EXPLORER_NAMES[card.explorer],
            ),
            "MG-8",
        )
    if state.power(card.explorer).slide_from == "payment":
        state = set_player(state, seat, hand=remove(hand, cards))
        return pop(state, payment=tuple(sorted(cards)))
    return pop(discard_from_hand(state, seat, cards))


def _from_part(player: Player, explorer: str, phase: int, from_part: str | None) -> str | None:
    """MG-7: the part of the previous field whose ship moves on (None in phase I, where it is new)."""
    if phase == 1:
        if from_part is not None:
            raise IllegalMove(
                "nothing-to-move",
                "In phase I the ship is placed new: there is no ship on a part to move on (MG-7).",
                "MG-7",
            )
        return None
    options = sorted({s.part for s in player.ships_on(explorer, phase - 1) if s.part is not None})
    if from_part is None:
        if len(options) > 1:
            raise IllegalMove(
                "from-part-required",
                say(
                    "{name} has ships on both parts of Vasco da Gama field {roman}: say which one moves on "
                    "(MG-7).",
                    name=player.name,
                    roman=ROMAN[phase - 1],
                ),
                "MG-7",
            )
        return options[0]
    if from_part not in options:
        raise IllegalMove(
            "no-ship-there",
            say(
                "{name} has no ship on the {from_part} part of field {roman} (MG-7).",
                name=player.name,
                from_part=from_part,
                roman=ROMAN[phase - 1],
            ),
            "MG-7",
        )
    return from_part


def vasco_part(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Vasco da Gama B: left part (draw 1/2/3 at once, no crowns) or right part (crowns)."""
    card, seat = winner_step(state, event, "vasco_part", term("Vasco da Gama part"), "MG-8")
    phase = state.phase
    part = ev.part(event, "part")
    if part is None:
        raise MalformedEvent("part-required", 'Choose the part: "left" or "right" (MG-8).', "MG-8")
    player = state.players[seat]
    from_part = _from_part(player, card.explorer, phase, ev.part(event, "from_part"))
    state = set_player(state, seat, ships=place_ship(player.ships, card.explorer, phase, part, from_part))
    state = pop(state, part=part)
    if part == "left" and state.ledger:
        card = current_card(state)
        draws_due = state.power(card.explorer).draws_left
        state = replace(state, card=replace(card, todo=("draw", *card.todo), draws_due=draws_due))
    return state


def cook_pull(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Cook B: the winner's left (clockwise next) neighbour pulls one hand card onto the discard;
    digital, the server picks it at random."""
    expect(state, "cook_pull", term("Cook pull"), "MG-8")
    seat = winner(state)
    puller = left_neighbour(state, seat)
    check_actor(state, event, puller, "MG-8")
    hand = state.players[seat].hand
    if state.digital:
        ev.refuse_in_digital(event, "value", term("pulls the card"), "MG-8")
        value = hand[pick(state.seed, f"pull/{state.draws}", len(hand))]
        state = replace(state, draws=state.draws + 1)
    else:
        value = ev.money_value(event, "value", term("pulled card"), "MG-8")
        check_in_hand(state, seat, value, "MG-8")
    return pop(discard_from_hand(state, seat, [value]))


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
                say(
                    "{name} has {count} Magellan piles of {value} card(s): say which pile belongs to the "
                    "ship that moved on (MG-8).",
                    name=player.name,
                    count=len(candidates),
                    value=phase - 1,
                ),
                "MG-8",
            )
        return candidates[0]
    if pile not in candidates:
        raise IllegalMove(
            "wrong-pile",
            say(
                "In phase {roman} the card goes onto a pile of {value} card(s), the pile of the ship that "
                "moved on from field {roman2} (MG-8).",
                roman=ROMAN[phase],
                value=phase - 1,
                roman2=ROMAN[phase - 1],
            ),
            "MG-8",
        )
    return pile


def slide(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Magellan: one money card under the Magellan card(s): A from the hand, B from the payment;
    phase I starts a pile, phases II/III go onto the pile of the ship that moved."""
    card, seat = winner_step(state, event, "slide", term("Magellan card to slide"), "MG-8")
    value = ev.money_value(event, "value", term("money card slid under Magellan"), "MG-8")
    player = state.players[seat]
    index = _pile_index(player, state.phase, ev.index(event, "pile"))
    piles = player.piles if index < len(player.piles) else (*player.piles, ())
    piles = put(piles, index, (*piles[index], value))
    if not state.ledger:
        check_copies([*known_cards(state), value], say("a slid {value}", value=value), "MG-8")
    elif state.power(card.explorer).slide_from == "hand":
        check_in_hand(state, seat, value, "MG-8", to_slide=True)
        state = set_player(state, seat, hand=remove(player.hand, [value]))
    else:
        if value not in card.payment:
            raise IllegalMove(
                "card-not-in-payment",
                say(
                    "On side B the slid card comes from the payment ({cards_text}) (MG-8).",
                    cards_text=cards_text(card.payment),
                ),
                "MG-8",
            )
        state = replace(state, discard=(*state.discard, *remove(card.payment, [value])))
    state = set_player(state, seat, piles=piles)
    return pop(state, payment=())


def _check_count(state: MagellanState, seat: int, cards: Sequence[int], due: int, rule: str) -> None:
    if len(cards) > due:
        raise IllegalMove(
            "too-many-cards",
            say("{name} draws {due} more card(s) now ({rule}).", name=state.name(seat), due=due, rule=rule),
            rule,
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
    cards = ev.money_cards(event, "cards", term("money cards drawn"), "MG-9")
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
    raise IllegalMove(
        "no-draw-due", say("Nobody draws money cards now: {waiting_text}", waiting_text=waiting_text(state))
    )
