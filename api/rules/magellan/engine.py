"""`apply`: one event in, the next state out; the input state is never changed (frozen dataclasses).

Every handler ends in `settle`, which carries out what needs nobody's decision: digital card turns
and draws, boxing a card nobody may bid on, Cook A hands laid open, phase ends (MG-9) and the step
into scoring (MG-10). A step that needs board-sheet numbers waits until they are entered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent
from api.rules.magellan import events as ev
from api.rules.magellan.auction import bidding_order, max_bid, must_keep
from api.rules.magellan.chance import pick, shuffled
from api.rules.magellan.constants import (
    EXPLORER_NAMES,
    FULL_MONEY,
    MARCO_POLO_SWAPS,
    PHASE_END_CARDS,
    PIZARRO_LIMIT,
    ROMAN,
    VASCO_DRAWS,
)
from api.rules.magellan.money import add, cards_text, contains, over_copies, remove
from api.rules.magellan.sheet import Slot, crowns_fixed_by_rule, missing_entries, parse_sheet
from api.rules.magellan.state import (
    Bid,
    Card,
    CardOutcome,
    Deck,
    MagellanState,
    Outcome,
    PhaseEnd,
    Scoring,
    Ship,
    Todo,
)


def apply(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    kind = ev.event_type(event)
    if state.stage == "finished":
        raise IllegalMove("game-over", "The game is over: the scores are final (MG-12).", "MG-12")
    return settle(_HANDLERS[kind](state, event))


# --- small helpers -----------------------------------------------------------------------------------


def _set_player(state: MagellanState, seat: int, **changes: Any) -> MagellanState:
    player = replace(state.players[seat], **changes)
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def _with_deck(state: MagellanState, deck: Deck) -> MagellanState:
    index = state.phase - 1
    return replace(state, decks=(*state.decks[:index], deck, *state.decks[index + 1 :]))


def _card(state: MagellanState) -> Card:
    assert state.card is not None
    return state.card


def _winner(state: MagellanState) -> int:
    seat = _card(state).winner
    assert seat is not None
    return seat


def _check_actor(state: MagellanState, event: Mapping[str, Any], seat: int, rule: str) -> None:
    """When the event names the sending seat, it must be the seat whose decision this is."""
    claimed = ev.claimed_seat(event)
    if claimed is not None and claimed != seat:
        raise IllegalMove("not-your-turn", f"This is {state.name(seat)}'s decision now ({rule}).", rule)


def _pick_actor(
    state: MagellanState, event: Mapping[str, Any], seats: Sequence[int], what: str, rule: str
) -> int:
    """Where several players may act at once, the event's `seat` says whose event it is."""
    claimed = ev.claimed_seat(event)
    if claimed is None:
        if len(seats) == 1:
            return seats[0]
        names = ", ".join(state.name(s) for s in seats)
        raise MalformedEvent(
            "seat-required", f"Several players can {what} now ({names}): give the seat ({rule}).", rule
        )
    if claimed not in seats:
        who = state.name(claimed) if 0 <= claimed < len(state.players) else f"Seat {claimed}"
        raise IllegalMove("not-your-turn", f"{who} cannot {what} now ({rule}).", rule)
    return claimed


def sheet_incomplete(missing: Sequence[str], why: str) -> IllegalMove:
    return IllegalMove(
        "board-sheet-incomplete",
        f"{why} needs numbers the board sheet does not have yet: {'; '.join(missing)}. "
        "Type them in from your board (set_board_sheet) (MG-2).",
        "MG-2",
    )


def income_slots(state: MagellanState) -> list[Slot]:
    """MG-9: the bags of the fields of the phase just finished where ships stand."""
    sides = state.options.side_map()
    return [
        (ship.explorer, sides[ship.explorer], ship.field, ship.part, "bags")
        for player in state.players
        for ship in player.ships
        if ship.field == state.phase
    ]


def crown_slots(state: MagellanState) -> list[Slot]:
    """MG-10: the crowns of every field with a ship, except where a rule scores it otherwise."""
    sides = state.options.side_map()
    return [
        (s.explorer, sides[s.explorer], s.field, s.part, "crowns")
        for player in state.players
        for s in player.ships
        if crowns_fixed_by_rule(s.explorer, sides[s.explorer], s.field, s.part) is None
    ]


def missing_for_income(state: MagellanState) -> list[str]:
    return missing_entries(state.sheet, state.options.side_map(), income_slots(state))


def missing_for_scoring(state: MagellanState) -> list[str]:
    return missing_entries(state.sheet, state.options.side_map(), crown_slots(state))


def income_of(state: MagellanState, seat: int) -> int | None:
    """MG-9: 2 cards after phases I and II, plus each own ship's bags on the field just finished."""
    sides = state.options.side_map()
    total = PHASE_END_CARDS if state.phase < 3 else 0
    for ship in state.players[seat].ships:
        if ship.field == state.phase:
            bags = state.sheet.bags(ship.explorer, sides[ship.explorer], ship.field, ship.part)
            if bags is None:
                return None
            total += bags
    return total


def known_cards(state: MagellanState) -> list[int]:
    """Outcomes depth: money cards whose place is known (slid under Magellan, final hands, Pizarro)."""
    cards: list[int] = []
    for player in state.players:
        cards += [v for pile in player.piles for v in pile]
        cards += list(player.final_hand or ())
        cards += list(player.pizarro)
    return cards


def _check_copies(cards: list[int], what: str, rule: str) -> None:
    over = over_copies(cards)
    if over:
        raise IllegalMove(
            "too-many-copies",
            f"There are only seven money cards of each value (MG-1): {what} would make "
            f"more than seven {over[0]}s among the cards already recorded ({rule}).",
            rule,
        )


# --- money stack (ledger) ----------------------------------------------------------------------------


def reshuffle(state: MagellanState) -> MagellanState:
    """MG-9: the discard pile is shuffled into the draw stack (Decision: also whenever a card is due
    and the draw stack is empty)."""
    cards = tuple(sorted((*state.draw, *state.discard)))
    count = state.shuffles + 1
    draw = shuffled(cards, state.seed, f"money/{count}") if state.digital else cards
    return replace(state, draw=draw, discard=(), shuffles=count)


def _take(state: MagellanState, value: int | None) -> tuple[MagellanState, int | None]:
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


def _draw_into_hand(
    state: MagellanState, seat: int, values: Sequence[int | None], rule: str
) -> MagellanState:
    drawn: list[int] = []
    for value in values:
        state, got = _take(state, value)
        if got is None:
            if value is None:
                break  # digital: nothing left anywhere, the rest of the draw is lost
            raise IllegalMove(
                "draw-stack-empty",
                f"The draw stack and the discard pile are empty: no more cards can be drawn ({rule}).",
                rule,
            )
        drawn.append(got)
    return _set_player(state, seat, hand=add(state.players[seat].hand, drawn))


# --- the auction (MG-4, MG-5) -------------------------------------------------------------------------


def _start_auction(state: MagellanState, explorer: str) -> MagellanState:
    return replace(state, stage="auction", card=Card(explorer=explorer, order=bidding_order(state, explorer)))


def _close_card(state: MagellanState, outcome: Outcome) -> MagellanState:
    card = _card(state)
    record = CardOutcome(state.phase, card.explorer, outcome)
    return replace(state, stage="reveal", card=None, history=(*state.history, record))


def _auction(state: MagellanState) -> Card:
    if state.stage != "auction":
        raise IllegalMove("no-auction", f"No card is being auctioned now: {waiting_text(state)}", "MG-4")
    return _card(state)


def _reveal(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: the auctioneer turns up the top card of the phase's deck and types in its explorer."""
    if state.digital:
        raise IllegalMove(
            "cards-are-digital", "In a digital game the server turns up the explorer cards (MG-4).", "MG-4"
        )
    if state.stage != "reveal":
        raise IllegalMove(
            "no-card-to-reveal", f"No card is to be turned up now: {waiting_text(state)}", "MG-4"
        )
    _check_actor(state, event, state.options.auctioneer, "MG-4")
    explorer = ev.explorer(event)
    deck = state.deck
    if explorer not in deck.hidden:
        raise IllegalMove(
            "card-not-in-deck",
            f"No {EXPLORER_NAMES[explorer]} card is left in the phase {ROMAN[state.phase]} deck (MG-1).",
            "MG-1",
        )
    return _start_auction(_with_deck(state, replace(deck, hidden=remove(deck.hidden, [explorer]))), explorer)


def _veto(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Columbus: before the first bid the owner of an unused phase I Columbus card sends the
    card under its deck; the next card is turned up."""
    card = _auction(state)
    if card.bids:
        raise IllegalMove(
            "veto-too-late", "A veto comes before the first bid or pass on a card (MG-8).", "MG-8"
        )
    holders = [s for s, p in enumerate(state.players) if p.vetoes > 0]
    if not holders:
        raise IllegalMove("no-veto", "Nobody holds an unused Columbus veto (MG-8).", "MG-8")
    seat = _pick_actor(state, event, holders, "veto", "MG-8")
    deck = state.deck
    if deck.size == 0:
        raise IllegalMove(
            "veto-last-card",
            "This is the last card of the deck: a veto would turn it up again at once (MG-8 Decision).",
            "MG-8",
        )
    player = state.players[seat]
    state = _set_player(state, seat, vetoes=player.vetoes - 1, vetoes_used=player.vetoes_used + 1)
    state = _with_deck(state, replace(deck, bottom=(*deck.bottom, card.explorer)))
    record = CardOutcome(state.phase, card.explorer, "vetoed", seat=seat)
    return replace(state, stage="reveal", card=None, history=(*state.history, record))


def _bid(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: more than the current high bid (at least 1); ledger: no more than the hand can pay."""
    card = _auction(state)
    seat = card.turn
    assert seat is not None
    _check_actor(state, event, seat, "MG-4")
    amount = ev.amount(event)
    minimum = card.high_bid + 1
    if amount < minimum:
        raise IllegalMove("bid-too-low", f"The bid must be at least {minimum} (MG-4).", "MG-4")
    cap = max_bid(state, seat, card.explorer)
    if cap is not None and amount > cap:
        keep = must_keep(state, card.explorer)
        extra = f" and must keep a card in hand for {EXPLORER_NAMES[card.explorer]} (MG-8)" if keep else ""
        raise IllegalMove(
            "bid-above-money",
            f"{state.name(seat)} can pay at most {cap} with the cards in hand{extra} (MG-6).",
            "MG-8" if keep else "MG-6",
        )
    return _resolve(replace(state, card=replace(card, bids=(*card.bids, Bid(seat, amount)))))


def _pass(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: a pass is final for this card."""
    card = _auction(state)
    seat = card.turn
    assert seat is not None
    _check_actor(state, event, seat, "MG-4")
    return _resolve(replace(state, card=replace(card, bids=(*card.bids, Bid(seat, None)))))


def _resolve(state: MagellanState) -> MagellanState:
    """MG-4: the last bidder left wins; nobody bidding sends the card to the box."""
    card = _card(state)
    active = card.active
    if card.high_bidder is not None and active == (card.high_bidder,):
        return _win(state)
    if not active:
        return _close_card(state, "no-bids")
    return state


def place_ship(
    ships: tuple[Ship, ...], explorer: str, phase: int, part: str | None, from_part: str | None
) -> tuple[Ship, ...]:
    """MG-7: phase I a new ship on field I; phases II/III one ship moves on from the previous field."""
    if phase == 1:
        return (*ships, Ship(explorer, 1, part))
    for i, ship in enumerate(ships):
        if ship.explorer == explorer and ship.field == phase - 1 and from_part in (None, ship.part):
            return (*ships[:i], Ship(explorer, phase, part), *ships[i + 1 :])
    raise AssertionError("MG-5 lets only owners of a ship on the previous field win")


def _win(state: MagellanState) -> MagellanState:
    """The sale (MG-4) and what follows it: payment (MG-6), ship (MG-7), explorer action (MG-8)."""
    card = _card(state)
    seat, price, explorer, phase = card.high_bidder, card.high_bid, card.explorer, state.phase
    assert seat is not None
    side = state.options.side(explorer)
    player = state.players[seat]
    ships = (
        player.ships
        if (explorer, side) == ("vasco", "B")
        else place_ship(player.ships, explorer, phase, None, None)
    )
    vetoes = player.vetoes + (1 if explorer == "columbus" and phase == 1 else 0)
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
    state = _set_player(state, seat, ships=ships, vetoes=vetoes)
    card = replace(card, winner=seat, price=price, todo=tuple(todo), draws_due=draws_due)
    record = CardOutcome(phase, explorer, "sold", seat=seat, price=price)
    return replace(state, stage="sale", card=card, last_winner=seat, history=(*state.history, record))


# --- the winner's follow-up (MG-6, MG-8) -------------------------------------------------------------


def _expect(state: MagellanState, step: Todo, what: str, rule: str) -> Card:
    card = state.card
    if state.stage != "sale" or card is None or not card.todo or card.todo[0] != step:
        raise IllegalMove("not-now", f"There is no {what} to record now: {waiting_text(state)}", rule)
    return card


def _pop(state: MagellanState, **changes: Any) -> MagellanState:
    card = _card(state)
    return replace(state, card=replace(card, todo=card.todo[1:], **changes))


def _pay(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-6 (ledger): at least the bid, overpaying allowed, no change; Magellan B keeps the payment
    face up until one card is slid from it (MG-8)."""
    card = _expect(state, "pay", "payment", "MG-6")
    seat = _winner(state)
    _check_actor(state, event, seat, "MG-6")
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
    state = _set_player(state, seat, hand=remove(hand, cards))
    if (card.explorer, state.options.side(card.explorer)) == ("magellan", "B"):
        return _pop(state, payment=tuple(sorted(cards)))
    return _pop(replace(state, discard=(*state.discard, *cards)))


def _vasco_part(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Vasco da Gama B: left part (draw 1/2/3 at once, no crowns) or right part (crowns)."""
    _expect(state, "vasco_part", "Vasco da Gama part", "MG-8")
    seat, phase = _winner(state), state.phase
    _check_actor(state, event, seat, "MG-8")
    part = ev.part(event, "part")
    if part is None:
        raise MalformedEvent("part-required", 'Choose the part: "left" or "right" (MG-8).', "MG-8")
    from_part = ev.part(event, "from_part")
    player = state.players[seat]
    if phase == 1:
        if from_part is not None:
            raise IllegalMove(
                "nothing-to-move",
                "In phase I the ship is placed new; from_part is for phases II/III (MG-7).",
                "MG-7",
            )
    else:
        options = sorted({s.part for s in player.ships_on("vasco", phase - 1) if s.part is not None})
        if from_part is None:
            if len(options) > 1:
                raise IllegalMove(
                    "from-part-required",
                    f"{player.name} has ships on both parts of Vasco da Gama field {ROMAN[phase - 1]}: "
                    "say which one moves on (from_part) (MG-7).",
                    "MG-7",
                )
            from_part = options[0]
        elif from_part not in options:
            raise IllegalMove(
                "no-ship-there",
                f"{player.name} has no ship on the {from_part} part of field {ROMAN[phase - 1]} (MG-7).",
                "MG-7",
            )
    state = _set_player(state, seat, ships=place_ship(player.ships, "vasco", phase, part, from_part))
    state = _pop(state, part=part)
    if part == "left" and state.ledger:
        card = _card(state)
        state = replace(state, card=replace(card, todo=("draw", *card.todo), draws_due=VASCO_DRAWS[phase]))
    return state


def _draw(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
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
        seat = _winner(state)
        _check_actor(state, event, seat, "MG-8")
        if len(cards) > card.draws_due:
            raise IllegalMove(
                "too-many-cards",
                f"{state.name(seat)} draws {card.draws_due} more card(s) now (MG-8).",
                "MG-8",
            )
        state = _draw_into_hand(state, seat, cards, "MG-8")
        left = card.draws_due - len(cards)
        return _pop(state, draws_due=0) if left == 0 else replace(state, card=replace(card, draws_due=left))
    if state.stage == "phase_end" and pe is not None:
        if pe.income is None:
            raise sheet_incomplete(missing_for_income(state), "The income at the end of this phase (MG-9)")
        seats = [s for s, n in enumerate(pe.due) if n > 0]
        if seats:
            seat = _pick_actor(state, event, seats, "draw income cards", "MG-9")
            if len(cards) > pe.due[seat]:
                raise IllegalMove(
                    "too-many-cards",
                    f"{state.name(seat)} draws {pe.due[seat]} more card(s) now (MG-9).",
                    "MG-9",
                )
            state = _draw_into_hand(state, seat, cards, "MG-9")
            due = tuple(n - len(cards) if s == seat else n for s, n in enumerate(pe.due))
            return replace(state, phase_end=replace(pe, due=due))
    raise IllegalMove("no-draw-due", f"Nobody draws money cards now: {waiting_text(state)}")


def _slide(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Magellan: one money card under the Magellan card(s): A from the hand, B from the payment;
    phase I starts a pile, phases II/III go onto the pile of the ship that moved."""
    card = _expect(state, "slide", "Magellan card to slide", "MG-8")
    seat, phase = _winner(state), state.phase
    _check_actor(state, event, seat, "MG-8")
    value = ev.money_value(event, "value", "money card slid under Magellan", "MG-8")
    pile = ev.index(event, "pile")
    player = state.players[seat]
    piles = list(player.piles)
    if phase == 1:
        if pile not in (None, len(piles)):
            raise IllegalMove("wrong-pile", "In phase I the Magellan card starts a new pile (MG-8).", "MG-8")
        piles.append((value,))
    else:
        candidates = [i for i, p in enumerate(piles) if len(p) == phase - 1]
        if pile is None:
            if len(candidates) > 1:
                raise IllegalMove(
                    "pile-required",
                    f"{player.name} has {len(candidates)} Magellan piles of {phase - 1}: say which pile "
                    f"(0–{len(piles) - 1}) the ship that moved belongs to (MG-8).",
                    "MG-8",
                )
            pile = candidates[0]
        elif pile not in candidates:
            raise IllegalMove(
                "wrong-pile",
                f"In phase {ROMAN[phase]} the card goes onto a pile of {phase - 1} (the ship moved from "
                f"field {ROMAN[phase - 1]}): piles {', '.join(map(str, candidates))} (MG-8).",
                "MG-8",
            )
        piles[pile] = (*piles[pile], value)
    if state.ledger:
        if state.options.side("magellan") == "A":
            if value not in player.hand:
                raise IllegalMove(
                    "card-not-in-hand", f"{player.name} holds no {value} to slide (MG-8).", "MG-8"
                )
            state = _set_player(state, seat, hand=remove(player.hand, [value]))
        else:
            if value not in card.payment:
                raise IllegalMove(
                    "card-not-in-payment",
                    f"On side B the slid card comes from the payment ({cards_text(card.payment)}) (MG-8).",
                    "MG-8",
                )
            rest = remove(card.payment, [value])
            state = replace(state, discard=(*state.discard, *rest))
    else:
        _check_copies([*known_cards(state), value], f"a slid {value}", "MG-8")
    state = _set_player(state, seat, piles=tuple(piles))
    return _pop(state, payment=())


def _cook_pull(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Cook B: the winner's left (clockwise next) neighbour pulls one hand card onto the discard."""
    _expect(state, "cook_pull", "Cook pull", "MG-8")
    seat = _winner(state)
    puller = (seat + 1) % len(state.players)
    _check_actor(state, event, puller, "MG-8")
    hand = state.players[seat].hand
    if state.digital:
        if ev.has(event, "value"):
            raise MalformedEvent(
                "value-not-allowed-digital",
                "In a digital game the server pulls the card: send no value.",
                "MG-8",
            )
        value = hand[pick(state.seed, f"pull/{state.draws}", len(hand))]
        state = replace(state, draws=state.draws + 1)
    else:
        value = ev.money_value(event, "value", "pulled card", "MG-8")
        if value not in hand:
            raise IllegalMove("card-not-in-hand", f"{state.name(seat)} holds no {value} (MG-8).", "MG-8")
    state = _set_player(state, seat, hand=remove(hand, [value]))
    return _pop(replace(state, discard=(*state.discard, value)))


def _swaps(state: MagellanState) -> PhaseEnd:
    pe = state.phase_end
    if state.stage != "phase_end" or pe is None or pe.income is None or any(pe.due) or not any(pe.swaps):
        raise IllegalMove("no-swap-now", f"No Marco Polo swap is open now: {waiting_text(state)}", "MG-8")
    return pe


def _swap(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Marco Polo A: after income, per ship on the field just finished up to 3 swaps, one by one."""
    pe = _swaps(state)
    seat = _pick_actor(state, event, [s for s, n in enumerate(pe.swaps) if n > 0], "swap", "MG-8")
    value = ev.money_value(event, "discard", "card to discard", "MG-8")
    hand = state.players[seat].hand
    if value not in hand:
        raise IllegalMove("card-not-in-hand", f"{state.name(seat)} holds no {value} (MG-8).", "MG-8")
    if state.digital and ev.has(event, "draw"):
        raise MalformedEvent(
            "value-not-allowed-digital",
            "In a digital game the server draws the new card: send no draw.",
            "MG-8",
        )
    drawn = None if state.digital else ev.money_value(event, "draw", "card drawn", "MG-8")
    state = _set_player(state, seat, hand=remove(hand, [value]))
    state = replace(state, discard=(*state.discard, value))
    state = _draw_into_hand(state, seat, [drawn], "MG-8")
    swaps = tuple(n - 1 if s == seat else n for s, n in enumerate(pe.swaps))
    return replace(state, phase_end=replace(pe, swaps=swaps))


def _end_swaps(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    pe = _swaps(state)
    seat = _pick_actor(state, event, [s for s, n in enumerate(pe.swaps) if n > 0], "stop swapping", "MG-8")
    swaps = tuple(0 if s == seat else n for s, n in enumerate(pe.swaps))
    return replace(state, phase_end=replace(pe, swaps=swaps))


# --- scoring (MG-10, MG-11) ----------------------------------------------------------------------------


def _final_hand(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
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
    seat = _pick_actor(state, event, range(len(state.players)), "enter a hand", "MG-10")
    cards = ev.money_cards(event, "cards", "money cards left in hand", "MG-10", allow_empty=True)
    state = _set_player(state, seat, final_hand=None)
    _check_copies([*known_cards(state), *cards], f"{state.name(seat)}'s hand", "MG-10")
    return _set_player(state, seat, final_hand=tuple(sorted(cards)))


def _pizarro_seat(state: MagellanState, event: Mapping[str, Any]) -> tuple[int, Scoring]:
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
            f"First every player enters the money left in hand (MG-10): {', '.join(missing_hands)}.",
            "MG-10",
        )
    missing = missing_for_scoring(state)
    if missing:
        raise sheet_incomplete(missing, "Scoring")
    _check_actor(state, event, sc.pizarro_seat, "MG-11")
    return sc.pizarro_seat, sc


def _pizarro_draw(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-11: one more card from the shuffled draw stack; over 20 ends the draw with 0."""
    seat, sc = _pizarro_seat(state, event)
    got: int | None
    if state.digital:
        if ev.has(event, "value"):
            raise MalformedEvent(
                "value-not-allowed-digital",
                "In a digital game the server draws the card: send no value.",
                "MG-11",
            )
        if state.ledger:
            state, got = _take(state, None)
        else:
            got = sc.stack[0] if sc.stack else None
            sc = replace(sc, stack=sc.stack[1:])
            state = replace(state, scoring=sc, draws=state.draws + 1 if got is not None else state.draws)
    else:
        value = ev.money_value(event, "value", "card turned up", "MG-11")
        if state.ledger:
            state, got = _take(state, value)
        else:
            _check_copies([*known_cards(state), value], f"a drawn {value}", "MG-11")
            got = value
    if got is None:
        raise IllegalMove(
            "stack-empty", "No money card is left to turn up: the draw must stop (MG-11).", "MG-11"
        )
    drawn = (*state.players[seat].pizarro, got)
    state = _set_player(state, seat, pizarro=drawn)
    if sum(drawn) > PIZARRO_LIMIT:
        state = replace(state, scoring=replace(sc, pizarro_done=True))
    return state


def _pizarro_stop(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    _, sc = _pizarro_seat(state, event)
    return replace(state, scoring=replace(sc, pizarro_done=True))


def _set_board_sheet(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-2: the sheet (replaced as a whole) may be entered or completed at any time; numbers already
    used for income stay as drawn (Decision)."""
    if event.get("sheet") is None:
        raise MalformedEvent("sheet-required", "Send the board sheet as `sheet` (MG-2).", "MG-2")
    try:
        sheet = parse_sheet(event["sheet"])
    except InvalidSetup as error:
        raise MalformedEvent(error.code, error.detail, error.rule) from None
    return replace(state, sheet=sheet)


_HANDLERS: dict[str, Callable[[MagellanState, Mapping[str, Any]], MagellanState]] = {
    "set_board_sheet": _set_board_sheet,
    "reveal": _reveal,
    "veto": _veto,
    "bid": _bid,
    "pass": _pass,
    "pay": _pay,
    "vasco_part": _vasco_part,
    "draw": _draw,
    "slide": _slide,
    "cook_pull": _cook_pull,
    "swap": _swap,
    "end_swaps": _end_swaps,
    "final_hand": _final_hand,
    "pizarro_draw": _pizarro_draw,
    "pizarro_stop": _pizarro_stop,
}


# --- what happens by itself ------------------------------------------------------------------------------


def settle(state: MagellanState) -> MagellanState:
    while True:
        step = _automatic(state)
        if step is None:
            return state
        state = step


def _automatic(state: MagellanState) -> MagellanState | None:
    if state.stage == "reveal":
        return _auto_reveal(state)
    if state.stage == "auction":
        return _close_card(state, "nobody-eligible") if not _card(state).order else None
    if state.stage == "sale":
        return _auto_sale(state)
    if state.stage == "phase_end":
        return _auto_phase_end(state)
    if state.stage == "scoring":
        return _auto_scoring(state)
    return None


def _auto_reveal(state: MagellanState) -> MagellanState | None:
    """Digital: the server turns up the top card. Vetoed cards under the deck are known to all, so they
    come up by themselves once the rest is gone. An empty deck ends the phase (MG-9)."""
    deck = state.deck
    if deck.size == 0:
        return _begin_phase_end(state)
    if not deck.hidden:
        return _start_auction(_with_deck(state, replace(deck, bottom=deck.bottom[1:])), deck.bottom[0])
    if state.digital:
        turned = replace(_with_deck(state, replace(deck, hidden=deck.hidden[1:])), draws=state.draws + 1)
        return _start_auction(turned, deck.hidden[0])
    return None


def _auto_sale(state: MagellanState) -> MagellanState | None:
    card = _card(state)
    if not card.todo:
        return replace(state, stage="reveal", card=None)
    head, seat = card.todo[0], _winner(state)
    if head == "draw":
        if card.draws_due == 0:
            return _pop(state, draws_due=0)
        if state.digital:
            return _pop(_draw_into_hand(state, seat, [None] * card.draws_due, "MG-8"), draws_due=0)
        if not state.draw:
            return reshuffle(state) if state.discard else _pop(state, draws_due=0)
        return None
    if head == "open_hand":
        return _pop(_set_player(state, seat, hand_open=True))
    if head == "cook_pull" and not state.players[seat].hand:
        return _pop(state)
    return None


def _begin_phase_end(state: MagellanState) -> MagellanState:
    """MG-9: Cook A hands close; after phases I/II the discard is shuffled into the draw stack."""
    phase = state.phase
    if not state.ledger:
        income = tuple(income_of(state, s) for s in range(len(state.players)))
        return replace(state, stage="phase_end", phase_end=PhaseEnd(phase), incomes=(*state.incomes, income))
    state = replace(state, players=tuple(replace(p, hand_open=False) for p in state.players))
    if phase < 3:
        state = reshuffle(state)
    marco_a = phase < 3 and state.options.side("marco_polo") == "A"
    swaps = tuple(
        MARCO_POLO_SWAPS * len(p.ships_on("marco_polo", phase)) if marco_a else 0 for p in state.players
    )
    return replace(state, stage="phase_end", phase_end=PhaseEnd(phase, swaps=swaps))


def _auto_phase_end(state: MagellanState) -> MagellanState | None:
    pe = state.phase_end
    assert pe is not None
    if state.ledger:
        if pe.income is None:
            if missing_for_income(state):
                return None  # waits for set_board_sheet
            income = tuple(income_of(state, s) or 0 for s in range(len(state.players)))
            return replace(
                state, phase_end=replace(pe, income=income, due=income), incomes=(*state.incomes, income)
            )
        if any(pe.due):
            if state.digital:
                first = (state.options.auctioneer + 1) % len(state.players)
                for seat in state.clockwise_from(first):
                    state = _draw_into_hand(state, seat, [None] * pe.due[seat], "MG-9")
                return replace(state, phase_end=replace(pe, due=(0,) * len(pe.due)))
            if not state.draw:
                return (
                    reshuffle(state)
                    if state.discard
                    else replace(state, phase_end=replace(pe, due=(0,) * len(pe.due)))
                )
            return None
        if any(pe.swaps):
            return None
    if state.phase < 3:
        return replace(state, phase=state.phase + 1, stage="reveal", phase_end=None)
    side_b = state.options.side("pizarro") == "B"
    drawer = next((s for s, p in enumerate(state.players) if side_b and p.ships_on("pizarro", 3)), None)
    return replace(state, stage="scoring", phase_end=None, scoring=Scoring(pizarro_seat=drawer))


def _auto_scoring(state: MagellanState) -> MagellanState | None:
    sc = state.scoring
    assert sc is not None
    if not state.ledger and any(p.final_hand is None for p in state.players):
        return None
    if missing_for_scoring(state):
        return None
    if sc.pizarro_seat is not None and not sc.pizarro_done:
        if state.digital and not state.ledger and not sc.stack_built:
            # Outcomes depth: the stack is simulated from the cards whose place is not known (Decision).
            rest = remove(FULL_MONEY, sorted(known_cards(state)))
            stack = shuffled(rest, state.seed, "pizarro")
            return replace(state, scoring=replace(sc, stack=stack, stack_built=True))
        return None
    return replace(state, stage="finished")


# --- telling players what is awaited -----------------------------------------------------------------


def waiting_text(state: MagellanState) -> str:
    """One sentence: what the game waits for now."""
    card = state.card
    if state.stage == "reveal":
        return f"{state.name(state.options.auctioneer)} turns up the next explorer card (MG-4)."
    if state.stage == "auction" and card is not None:
        seat = card.turn
        bidder = state.name(seat) if seat is not None else "nobody"
        return f"{EXPLORER_NAMES[card.explorer]} is being auctioned; {bidder} bids or passes (MG-4)."
    if state.stage == "sale" and card is not None and card.todo:
        winner = state.name(_winner(state))
        puller = state.name((_winner(state) + 1) % len(state.players))
        return {
            "pay": f"{winner} pays {card.price} (MG-6).",
            "vasco_part": f"{winner} chooses the left or right part of Vasco da Gama (MG-8).",
            "draw": f"{winner} draws {card.draws_due} money card(s) (MG-8).",
            "slide": f"{winner} slides a money card under Magellan (MG-8).",
            "open_hand": f"{winner} lays the hand open (MG-8).",
            "cook_pull": f"{puller} pulls a card from {winner}'s hand (MG-8).",
        }[card.todo[0]]
    if state.stage == "phase_end":
        pe = state.phase_end
        if pe is not None and pe.income is None:
            return "the phase-end income waits for the board sheet's bags (MG-2, MG-9)."
        if pe is not None and any(pe.due):
            return "players draw their phase-end money cards (MG-9)."
        return "Marco Polo swaps (MG-8)."
    if state.stage == "scoring":
        if not state.ledger and any(p.final_hand is None for p in state.players):
            return "every player enters the money cards left in hand (MG-10)."
        if missing_for_scoring(state):
            return "the scoring waits for the board sheet's crowns (MG-2, MG-10)."
        return "the Pizarro draw (MG-11)."
    return "the game is over (MG-12)."
