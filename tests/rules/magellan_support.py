"""Helpers for the Magellan tests: a TEST board sheet, games, events and a random player.

TEST_SHEET is made-up test data (MG-2: the real numbers are on the players' boards and are never
shipped by the software); it only has to be complete and varied.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.magellan.constants import EXPLORERS, FULL_MONEY, MONEY_VALUES
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.sheet import blank_sheet
from api.rules.magellan.state import MagellanState
from api.rules.magellan.views import private_actions

Event = dict[str, Any]
NAMES = ["Red", "Blue", "Green", "Yellow", "Black", "White"]


def test_sheet(offset: int = 0) -> dict[str, Any]:
    """Every entry filled with small made-up numbers (TEST DATA, not a real board)."""
    sheet = blank_sheet()
    for i, explorer in enumerate(EXPLORERS):
        for s, side in enumerate(("A", "B")):
            for f, roman in enumerate(("I", "II", "III"), start=1):
                node = sheet["explorers"][explorer][side][roman]
                leaves = [node["left"], node["right"]] if "left" in node else [node]
                for k, leaf in enumerate(leaves):
                    leaf["bags"] = (i + s + f + k + offset) % 3
                    leaf["crowns"] = 2 * f + (i + k + offset) % 3
    return sheet


TEST_SHEET = test_sheet()


def players(count: int) -> list[dict[str, str]]:
    return [{"name": n} for n in NAMES[:count]]


def new(count: int = 3, seed: int = 7, **options: Any) -> MagellanState:
    return MAGELLAN.new_game(players(count), options, seed)


def play(state: MagellanState, *events: Event) -> MagellanState:
    for event in events:
        state = MAGELLAN.apply(state, event)
    return state


def reveal(explorer: str) -> Event:
    return {"type": "reveal", "explorer": explorer}


def bid(amount: int, seat: int | None = None) -> Event:
    return (
        {"type": "bid", "amount": amount} if seat is None else {"type": "bid", "amount": amount, "seat": seat}
    )


PASS: Event = {"type": "pass"}


def sell(state: MagellanState, explorer: str | None, winner: int, price: int = 1) -> MagellanState:
    """Turn up `explorer` (physical; None: already on the table) and let `winner` buy it for `price`:
    the winner bids `price`, everyone else passes."""
    if explorer is not None:
        state = play(state, reveal(explorer))
    while state.stage == "auction":
        card = state.card
        assert card is not None and card.turn is not None
        if card.turn == winner and card.high_bidder != winner:
            state = play(state, bid(max(price, card.high_bid + 1)))
        else:
            state = play(state, PASS)
    return state


def no_sale(state: MagellanState, explorer: str) -> MagellanState:
    state = play(state, reveal(explorer))
    while state.stage == "auction":
        state = play(state, PASS)
    return state


def actions_of(state: MagellanState) -> dict[str, Any]:
    return MAGELLAN.legal_actions(state)


# --- a random player, for the property tests ----------------------------------------------------------


def _available(state: MagellanState) -> list[int]:
    """Outcomes depth: values that can still be recorded without exceeding seven copies."""
    known: Counter[int] = Counter()
    for p in state.players:
        known.update(v for pile in p.piles for v in pile)
        known.update(p.final_hand or ())
        known.update(p.pizarro)
    return [v for v in MONEY_VALUES for _ in range(7 - known[v])]


def _stack_value(state: MagellanState, rng: random.Random, extra: Sequence[int] = ()) -> int:
    pool = list(state.draw) or [*state.discard, *extra]
    return rng.choice(pool)


def random_event(state: MagellanState, rng: random.Random) -> Event:
    legal = actions_of(state)
    if legal["blocked"] is not None:
        return {"type": "set_board_sheet", "sheet": TEST_SHEET}
    actor = rng.choice(legal["actors"])
    seat = actor["seat"]
    action = rng.choice(actor["actions"])
    kind = action["type"]
    event: Event = {"type": kind, "seat": seat}
    if kind == "reveal":
        event["explorer"] = rng.choice(action["explorers"])
    elif kind == "bid":
        # The bidder's own phone knows its limit (ledger: the seat's private actions, MG-6).
        cap = private_actions(state, seat)["bid_max"]
        if cap is not None and cap < action["min"]:
            return {"type": "pass", "seat": seat}
        top = cap if cap is not None else action["min"] + 6
        event["amount"] = rng.randint(action["min"], min(top, action["min"] + 4))
    elif kind == "pay":
        hand = sorted(state.players[seat].hand, reverse=True)
        paid: list[int] = []
        for value in hand:
            if sum(paid) >= action["at_least"]:
                break
            paid.append(value)
        event["cards"] = paid
    elif kind == "vasco_part":
        event.update(rng.choice(action["options"]))
        event.pop("draws")
        if event["from_part"] is None:
            event.pop("from_part")
    elif kind == "draw":
        if not state.draw and state.stage == "sale":
            event["cards"] = [rng.choice(state.discard)]
        else:
            event["cards"] = [_stack_value(state, rng)]
    elif kind == "slide":
        event["pile"] = rng.choice(action["piles"])
        if action["source"] == "hand":
            event["value"] = rng.choice(state.players[seat].hand)
        elif action["source"] == "payment":
            event["value"] = rng.choice(action["values"])
        else:
            event["value"] = rng.choice(_available(state))
    elif kind == "cook_pull":
        if action["value_required"]:
            event["value"] = rng.choice(state.players[action["from_seat"]].hand)
    elif kind == "swap":
        discard = rng.choice(state.players[seat].hand)
        event["discard"] = discard
        if action["draw_required"]:
            event["draw"] = _stack_value(state, rng, [discard])
    elif kind == "final_hand":
        pool = _available(state)
        rng.shuffle(pool)
        event["cards"] = pool[: rng.randint(0, 6)]
    elif kind == "pizarro_draw" and action["value_required"]:
        event["value"] = _stack_value(state, rng) if state.ledger else rng.choice(_available(state))
    return event


def ledger_places(state: MagellanState) -> Counter[int]:
    """Every money card in its place (ledger depth): hands, draw stack, discard, the Magellan B payment
    lying face up, Magellan piles, Pizarro draws."""
    places: Counter[int] = Counter()
    for p in state.players:
        places.update(p.hand)
        places.update(v for pile in p.piles for v in pile)
        places.update(p.pizarro)
    places.update(state.draw)
    places.update(state.discard)
    if state.card is not None:
        places.update(state.card.payment)
    return places


FULL = Counter(FULL_MONEY)


def sides_from(bits: int) -> Mapping[str, str]:
    return {e: "B" if bits >> i & 1 else "A" for i, e in enumerate(EXPLORERS)}
