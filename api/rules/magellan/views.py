"""Who sees what: `public_view`, the state as every player may see it; `private_view` and
`private_actions` for one seat; and `secret_seat`, whose secret an event is.

Secret, never in the public view: the seed, the order of the explorer decks and of the draw stack,
ledger hands (only their sizes; an open Cook A hand is shown), and the values slid face down under
Magellan A (only how many) until the scoring. A player's own hand is not in the public view: the
pure helper `private_view(state, seat)` gives it for a per-player view (the platform has none yet).
At the scoring every hand is counted openly, so the scores show them (MG-10).

What a player keeps to themselves in ledger depth is decided once (MG-3, MG-6, MG-8). Hands are
secret. An event whose legality or effect depends on a seat's hand — a bid (no more than the hand
can pay), a payment, a Magellan A slide, a Cook B pull typed in from the hand, a Marco Polo swap, a
typed draw into the hand — is that seat's to record: `secret_seat` names the seat from public
information only (the event's type and the public state, never a card value), so the platform can
refuse everyone else before the engine looks at the hand. What only that seat may know about what it
can do (its bid limit, that it cannot afford a card) is in `private_actions`, shown in the seat's own
view; the public legal actions never depend on a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.common.events import is_int
from api.rules.errors import note, say
from api.rules.magellan.auction import max_bid, must_keep
from api.rules.magellan.constants import EXPLORER_NAMES, EXPLORERS, FIELDS, PHASES, ROMAN
from api.rules.magellan.endgame import first_scorer, result, score_inputs
from api.rules.magellan.scoring import score_player, scoring_order
from api.rules.magellan.setup import options_json
from api.rules.magellan.sheet import missing_entries, sheet_json
from api.rules.magellan.state import Card, MagellanState, Player
from api.rules.magellan.waiting import missing_for_scoring, needed_now, waiting_text

JSON = dict[str, Any]


def revealed(state: MagellanState) -> bool:
    """From the scoring on every hand and every Magellan pile is counted openly (MG-10)."""
    return state.stage in ("scoring", "finished")


def scores_so_far(state: MagellanState) -> list[JSON] | None:
    """Every player's breakdown once hands and crowns are known (during and after the scoring)."""
    if not revealed(state) or missing_for_scoring(state):
        return None
    if not state.ledger and any(p.final_hand is None for p in state.players):
        return None
    sides = state.options.side_map()
    return [{"seat": s, **score_player(p, sides, state.sheet)} for s, p in enumerate(score_inputs(state))]


def _card_json(state: MagellanState, card: Card | None) -> JSON | None:
    if card is None:
        return None
    from_payment = state.power(card.explorer).slide_from == "payment"  # Magellan B (MG-8)
    return {
        "explorer": card.explorer,
        "phase": state.phase,
        "field": state.phase,
        "order": list(card.order),
        "bids": [{"seat": b.seat, "amount": b.amount} for b in card.bids],
        "high_bid": card.high_bid,
        "high_bidder": card.high_bidder,
        "passed": list(card.passed),
        "turn": card.turn,
        "winner": card.winner,
        "price": card.price if card.winner is not None else None,
        "todo": list(card.todo),
        "draws_due": card.draws_due,
        "payment": list(card.payment) if from_payment else [],
        "part": card.part,
    }


def _pile_json(state: MagellanState, pile: tuple[int, ...]) -> JSON:
    face_up = state.options.slid_face_up or revealed(state)
    return {"cards": len(pile), "slid": list(pile) if face_up else None}


def _player_json(state: MagellanState, seat: int, player: Player) -> JSON:
    won = [
        {"phase": h.phase, "explorer": h.explorer, "price": h.price}
        for h in state.history
        if h.outcome == "sold" and h.seat == seat
    ]
    ledger = state.ledger
    return {
        "seat": seat,
        "name": player.name,
        "ships_left": player.ships_left,
        "ships": [{"explorer": s.explorer, "field": s.field, "part": s.part} for s in player.ships],
        "won": won,
        "vetoes": player.vetoes,
        "vetoes_used": player.vetoes_used,
        "hand_size": len(player.hand) if ledger else None,
        "open_hand": list(player.hand) if ledger and (player.hand_open or revealed(state)) else None,
        "magellan_piles": [_pile_json(state, pile) for pile in player.piles],
        "final_hand_entered": None if ledger else player.final_hand is not None,
        "pizarro": list(player.pizarro),
    }


def _board(state: MagellanState) -> JSON:
    board: JSON = {e: {ROMAN[f]: [] for f in FIELDS} for e in EXPLORERS}
    for seat, player in enumerate(state.players):
        for ship in player.ships:
            board[ship.explorer][ROMAN[ship.field]].append({"seat": seat, "part": ship.part})
    return board


def public_view(state: MagellanState) -> JSON:
    options = options_json(state.options)
    del options["board_sheet"]  # the current sheet is `board_sheet` below (set_board_sheet changes it)
    pe, sc = state.phase_end, state.scoring
    return {
        "game": "magellan",
        "options": options,
        "phase": state.phase,
        "stage": state.stage,
        "waiting_for": waiting_text(state),
        "decks": [
            {
                "phase": p,
                "remaining": deck.size,
                "composition": {e: n for e in EXPLORERS if (n := (*deck.hidden, *deck.bottom).count(e))},
                "under_deck": list(deck.bottom),
            }
            for p, deck in zip(PHASES, state.decks, strict=True)
        ],
        "card": _card_json(state, state.card),
        "players": [_player_json(state, s, p) for s, p in enumerate(state.players)],
        "board": _board(state),
        "history": [
            {"phase": h.phase, "explorer": h.explorer, "outcome": h.outcome, "seat": h.seat, "price": h.price}
            for h in state.history
        ],
        "last_winner": state.last_winner,
        "money": {"draw_stack": len(state.draw), "discard": list(state.discard), "reshuffles": state.shuffles}
        if state.ledger
        else None,
        "incomes": [{"phase": i + 1, "cards": list(cards)} for i, cards in enumerate(state.incomes)],
        "phase_end": None
        if pe is None
        else {
            "phase": pe.phase,
            "income": None if pe.income is None else list(pe.income),
            "due": list(pe.due),
            "swaps": list(pe.swaps),
        },
        "scoring": None
        if sc is None
        else {
            "order": scoring_order(first_scorer(state), len(state.players)),
            "pizarro_seat": sc.pizarro_seat,
            "pizarro_done": sc.pizarro_done,
            "scores": scores_so_far(state),
        },
        "board_sheet": sheet_json(state.sheet),
        "board_sheet_missing": missing_entries(state.sheet, state.options.side_map()),
        "board_sheet_needed_now": needed_now(state),
        "result": result(state),
    }


def private_view(state: MagellanState, seat: int) -> JSON:
    """What only `seat` may see: the own hand (ledger) and the own Magellan values."""
    player = state.players[seat]
    return {
        "seat": seat,
        "name": player.name,
        "hand": list(player.hand) if state.ledger else None,
        "hand_open": player.hand_open,
        "magellan_piles": [list(pile) for pile in player.piles],
    }


def hand_of(state: MagellanState, seat: int) -> list[int] | None:
    """The seat's money cards in ledger depth (None in outcomes depth, where hands are not tracked)."""
    return list(state.players[seat].hand) if state.ledger else None


def _one_of(event: Mapping[str, Any], seats: list[int]) -> int | None:
    """The seat an event is sent for (or the only one that could act); None when it names somebody
    else or that is not clear yet — the engine then refuses from public information alone
    (seat-required, not-your-turn, may-not-bid) before it looks at any hand."""
    claimed = event.get("seat")
    if is_int(claimed):
        return int(claimed) if claimed in seats else None
    return seats[0] if len(seats) == 1 else None


def secret_seat(state: MagellanState, event: Any) -> int | None:
    """The seat whose hidden hand this event depends on, from public information only."""
    if not state.ledger or not isinstance(event, Mapping):
        return None
    kind, card, pe = event.get("type"), state.card, state.phase_end
    if kind == "bid" and state.stage == "auction" and card is not None and card.turn is not None:
        return _one_of(event, [card.turn])  # no more than the hand can pay (MG-6)
    if kind == "auction" and state.stage == "auction":  # issue 33: the one bidder's (engine: MG-6)
        steps = event.get("steps")
        bidders = (
            [step.get("seat") for step in steps if isinstance(step, Mapping) and step.get("type") == "bid"]
            if isinstance(steps, list)
            else []
        )
        seat = bidders[0] if bidders else None
        return int(seat) if is_int(seat) and 0 <= seat < len(state.players) else None
    if state.stage == "sale" and card is not None and card.winner is not None and card.todo:
        head = card.todo[0]
        if kind == head == "pay":
            return _one_of(event, [card.winner])
        if kind == head == "slide" and state.power(card.explorer).slide_from == "hand":  # B: the payment
            return _one_of(event, [card.winner])
        if kind == head == "draw":
            return _one_of(event, [card.winner])
        if kind == head == "cook_pull" and not state.digital:  # typed in: a card of the winner's hand
            return card.winner  # the puller sends it, but it is the winner's hand that decides
    if state.stage == "phase_end" and pe is not None:
        if kind == "draw":
            return _one_of(event, [s for s, n in enumerate(pe.due) if n > 0])
        if kind == "swap":
            return _one_of(event, [s for s, n in enumerate(pe.swaps) if n > 0])
    return None


def private_actions(state: MagellanState, seat: int) -> JSON:
    """What only `seat` may know about its own options: its bid limit (MG-6, MG-8)."""
    card = state.card
    if not state.ledger or state.stage != "auction" or card is None or card.turn != seat:
        return {"bid_max": None, "notes": []}
    cap = max_bid(state, seat, card.explorer)
    minimum = card.high_bid + 1
    notes: list[JSON] = []
    if cap is not None and cap < minimum:
        explorer = EXPLORER_NAMES[card.explorer]
        text = (
            say(
                "You cannot pay {minimum} for {explorer} and keep a card in hand (MG-8): "
                "only a pass is possible.",
                minimum=minimum,
                explorer=explorer,
            )
            if must_keep(state, card.explorer)
            else say(
                "You cannot pay {minimum} for {explorer}: only a pass is possible.",
                minimum=minimum,
                explorer=explorer,
            )
        )
        notes.append(note("cannot-afford", "MG-6", text))
    return {"bid_max": cap, "notes": notes}
