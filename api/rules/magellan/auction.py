"""The auction: turning up a card, the Columbus veto (MG-8), who may bid (MG-5) in which order (MG-4),
how much a ledger hand can pay (MG-6), bids and passes, and the sale that hands the card to its winner."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.common.events import claimed_seat
from api.rules.errors import IllegalMove, say
from api.rules.magellan import events as ev
from api.rules.magellan.cards import remove
from api.rules.magellan.constants import EXPLORER_NAMES, ROMAN
from api.rules.magellan.followups import todo_after_sale
from api.rules.magellan.state import (
    Bid,
    Card,
    CardOutcome,
    MagellanState,
    Outcome,
    current_card,
    place_ship,
    set_player,
    with_deck,
)
from api.rules.magellan.waiting import check_actor, pick_actor, waiting_text


def must_keep(state: MagellanState, explorer: str) -> int:
    """MG-8: Magellan A (a card to slide from the hand) and Cook B (a card to be pulled) need one hand
    card left after paying."""
    return state.power(explorer).keep_in_hand


def max_bid(state: MagellanState, seat: int, explorer: str) -> int | None:
    """Ledger: the most this hand can pay for this card (None in outcomes depth: hands unknown)."""
    if not state.ledger:
        return None
    hand = sorted(state.players[seat].hand)
    keep = must_keep(state, explorer)
    return sum(hand[keep:]) if len(hand) > keep else 0


def eligible(state: MagellanState, explorer: str) -> list[int]:
    """MG-5: phase I everybody with a ship left to place (MG-7 Decision); phases II/III whoever still
    has a ship on this explorer's previous field (which they got by winning it there, MG-5 Decision)."""
    phase = state.phase
    seats = range(len(state.players))
    if phase == 1:
        return [s for s in seats if state.players[s].ships_left > 0]
    return [s for s in seats if state.players[s].ships_on(explorer, phase - 1)]


def starter(state: MagellanState) -> int:
    """MG-4: the winner of the most recent sold card, across phases; for the very first the auctioneer."""
    return state.options.auctioneer if state.last_winner is None else state.last_winner


def bidding_order(state: MagellanState, explorer: str) -> tuple[int, ...]:
    """MG-4 Decision: from the starter clockwise, skipping those who may not bid (MG-5)."""
    allowed = set(eligible(state, explorer))
    return tuple(s for s in state.clockwise_from(starter(state)) if s in allowed)


def _start_auction(state: MagellanState, explorer: str) -> MagellanState:
    return replace(state, stage="auction", card=Card(explorer=explorer, order=bidding_order(state, explorer)))


def _turn_up(state: MagellanState, explorer: str) -> MagellanState:
    """The card leaves the unseen part of the phase's deck and goes up for auction."""
    deck = state.deck
    return _start_auction(with_deck(state, replace(deck, hidden=remove(deck.hidden, [explorer]))), explorer)


def _close_card(state: MagellanState, outcome: Outcome, seat: int | None = None) -> MagellanState:
    """The card leaves the table unsold (boxed, MG-4/MG-5, or vetoed, MG-8); the next is turned up."""
    card = current_card(state)
    record = CardOutcome(state.phase, card.explorer, outcome, seat=seat)
    return replace(state, stage="reveal", card=None, history=(*state.history, record))


def _open_auction(state: MagellanState) -> Card:
    if state.stage != "auction":
        raise IllegalMove(
            "no-auction",
            say("No card is being auctioned now: {waiting_text}", waiting_text=waiting_text(state)),
            "MG-4",
        )
    return current_card(state)


def reveal(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: the auctioneer turns up the top card of the phase's deck and types in its explorer."""
    if state.digital:
        raise IllegalMove(
            "cards-are-digital", "In a digital game the server turns up the explorer cards (MG-4).", "MG-4"
        )
    if state.stage != "reveal":
        raise IllegalMove(
            "no-card-to-reveal",
            say("No card is to be turned up now: {waiting_text}", waiting_text=waiting_text(state)),
            "MG-4",
        )
    check_actor(state, event, state.options.auctioneer, "MG-4")
    explorer = ev.explorer(event)
    if explorer not in state.deck.hidden:
        raise IllegalMove(
            "card-not-in-deck",
            say(
                "No {explorer_names} card is left in the phase {roman} deck (MG-1).",
                explorer_names=EXPLORER_NAMES[explorer],
                roman=ROMAN[state.phase],
            ),
            "MG-1",
        )
    return _turn_up(state, explorer)


def auto_reveal(state: MagellanState) -> MagellanState | None:
    """A card no one needs to type in (the engine ends the phase first when the deck is empty, MG-9):
    vetoed cards under the deck are known to all, so they come up by themselves once the rest is
    gone; digital, the server turns up the top card. None: the auctioneer types it in."""
    deck = state.deck
    if not deck.hidden:
        return _start_auction(with_deck(state, replace(deck, bottom=deck.bottom[1:])), deck.bottom[0])
    if state.digital:
        return _turn_up(replace(state, draws=state.draws + 1), deck.hidden[0])
    return None


def auto_auction(state: MagellanState) -> MagellanState | None:
    """MG-5: a card nobody may bid on goes to the box at once."""
    return _close_card(state, "nobody-eligible") if not current_card(state).order else None


def veto(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Columbus: before the first bid the owner of an unused phase I Columbus card sends the
    card under its deck; the next card is turned up."""
    card = _open_auction(state)
    if card.has_bid:  # MG-8 Decision: a pass is not a bid; the veto stays open until someone bids
        raise IllegalMove("veto-too-late", "A veto comes before the first bid on a card (MG-8).", "MG-8")
    holders = [s for s, p in enumerate(state.players) if p.vetoes > 0]
    if not holders:
        raise IllegalMove("no-veto", "Nobody holds an unused Columbus veto (MG-8).", "MG-8")
    seat = pick_actor(state, event, holders, "veto", "MG-8")
    deck = state.deck
    if deck.size == 0:
        raise IllegalMove(
            "veto-last-card",
            "This is the last card of the deck: a veto would turn it up again at once (MG-8).",
            "MG-8",
        )
    player = state.players[seat]
    state = set_player(state, seat, vetoes=player.vetoes - 1, vetoes_used=player.vetoes_used + 1)
    state = with_deck(state, replace(deck, bottom=(*deck.bottom, card.explorer)))
    return _close_card(state, "vetoed", seat=seat)


def _bidder(state: MagellanState, event: Mapping[str, Any]) -> tuple[Card, int]:
    """MG-4: the card being auctioned and the seat whose turn it is to bid or pass."""
    card = _open_auction(state)
    seat = card.turn
    assert seat is not None
    claimed = claimed_seat(event)
    if claimed is not None and 0 <= claimed < len(state.players) and claimed not in card.order:
        raise may_not_bid(state, claimed, card.explorer)
    check_actor(state, event, seat, "MG-4")
    return card, seat


def bid(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: more than the current high bid (at least 1); ledger: no more than the hand can pay."""
    card, seat = _bidder(state, event)
    amount = ev.amount(event)
    minimum = card.high_bid + 1
    if amount < minimum:
        raise IllegalMove(
            "bid-too-low", say("The bid must be at least {minimum} (MG-4).", minimum=minimum), "MG-4"
        )
    cap = max_bid(state, seat, card.explorer)  # ledger: only the bidder's own phone gets here
    if cap is not None and amount > cap:
        keep = must_keep(state, card.explorer)
        name = state.name(seat)
        said = (
            say(
                "{name} can pay at most {cap} with the cards in hand and must keep one for {explorer} "
                "(MG-6, MG-8).",
                name=name,
                cap=cap,
                explorer=EXPLORER_NAMES[card.explorer],
            )
            if keep
            else say("{name} can pay at most {cap} with the cards in hand (MG-6).", name=name, cap=cap)
        )
        raise IllegalMove(
            "bid-above-money",
            said,
            "MG-8" if keep else "MG-6",
        )
    return _resolve(replace(state, card=replace(card, bids=(*card.bids, Bid(seat, amount)))))


def pass_(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-4: a pass is final for this card."""
    card, seat = _bidder(state, event)
    return _resolve(replace(state, card=replace(card, bids=(*card.bids, Bid(seat, None)))))


def may_not_bid(state: MagellanState, seat: int, explorer: str) -> IllegalMove:
    """Why a player is left out of this card's bidding (MG-5, MG-7 Decisions)."""
    name, card_name = state.name(seat), EXPLORER_NAMES[explorer]
    if state.phase == 1:
        return IllegalMove(
            "may-not-bid",
            say("{name} has placed all six ships, so may not bid on a phase I card (MG-7).", name=name),
            "MG-7",
        )
    return IllegalMove(
        "may-not-bid",
        say(
            "{name} has no ship on {card_name} field {roman} that could sail on, so may not bid on this "
            "card (MG-5).",
            name=name,
            card_name=card_name,
            roman=ROMAN[state.phase - 1],
        ),
        "MG-5",
    )


def _resolve(state: MagellanState) -> MagellanState:
    """MG-4: the last bidder left wins; nobody bidding sends the card to the box."""
    card = current_card(state)
    active = card.active
    if card.high_bidder is not None and active == (card.high_bidder,):
        return _sell(state)
    if not active:
        return _close_card(state, "no-bids")
    return state


def _sell(state: MagellanState) -> MagellanState:
    """The sale (MG-4) and what follows it: payment (MG-6), ship (MG-7), explorer action (MG-8)."""
    card = current_card(state)
    seat, price, explorer, phase = card.high_bidder, card.high_bid, card.explorer, state.phase
    assert seat is not None
    player, won = state.players[seat], state.power(explorer)
    # A part choice places the ship once the part is chosen (MG-8).
    ships = player.ships if won.part_choice else place_ship(player.ships, explorer, phase, None, None)
    vetoes = player.vetoes + won.veto
    todo, draws_due = todo_after_sale(state, explorer)
    state = set_player(state, seat, ships=ships, vetoes=vetoes)
    card = replace(card, winner=seat, price=price, todo=todo, draws_due=draws_due)
    record = CardOutcome(phase, explorer, "sold", seat=seat, price=price)
    return replace(state, stage="sale", card=card, last_winner=seat, history=(*state.history, record))
