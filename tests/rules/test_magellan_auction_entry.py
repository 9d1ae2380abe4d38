"""MG-4, MG-5, MG-6, issue 33: a whole auction typed in on the "winner and price" sheet is recorded as
ONE entry (`auction`) — every bid and pass checked before any is taken, so a refused step never
leaves the card's auction half-recorded."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from magellan_support import new, play, random_event, reveal

from api.rules.errors import IllegalMove, MalformedEvent, RuleError
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState
from api.rules.magellan.views import secret_seat

Step = dict[str, Any]


def plan(state: MagellanState, winner: int | None, price: int) -> list[Step]:
    """The bids and passes that make `winner` (None: nobody) win the card for `price`, in MG-4's turn
    order — what the phone's sheet sends. A step the rules refuse (ledger: more than the hand can
    pay, MG-6) ends the plan there."""
    steps: list[Step] = []
    while state.stage == "auction" and state.card is not None and state.card.turn is not None:
        card, seat = state.card, state.card.turn
        step: Step = (
            {"type": "bid", "seat": seat, "amount": price}
            if seat == winner and card.high_bid < price
            else {"type": "pass", "seat": seat}
        )
        steps.append(step)
        before = len(state.history)
        try:
            state = MAGELLAN.apply(state, step)
        except RuleError:
            break
        if len(state.history) != before:
            break
    return steps


def one_by_one(state: MagellanState, steps: list[Step]) -> MagellanState:
    for step in steps:
        state = MAGELLAN.apply(state, step)
    return state


AUCTION = play(new(4), reveal("magellan"))


def test_winner_and_price_equals_its_bids_and_passes() -> None:
    steps = plan(AUCTION, 2, 5)
    assert [s["type"] for s in steps] == ["pass", "pass", "bid", "pass"]
    together = MAGELLAN.apply(AUCTION, {"type": "auction", "steps": steps})
    assert together == one_by_one(AUCTION, steps)
    assert together.history[-1].seat == 2 and together.history[-1].price == 5
    assert together.stage == "sale"


def test_a_refused_bid_refuses_the_passes_before_it() -> None:
    """The case of the issue: two passes, then a bid that is not higher (MG-4) — nothing is taken."""
    steps = [{"type": "bid", "seat": 0, "amount": 3}, {"type": "pass", "seat": 1},
             {"type": "bid", "seat": 2, "amount": 3}]  # fmt: skip
    snapshot = copy.deepcopy(AUCTION)
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(AUCTION, {"type": "auction", "steps": steps})
    assert error.value.code == "bid-too-low" and error.value.rule == "MG-4"
    assert snapshot == AUCTION


def test_steps_after_the_sale_are_refused() -> None:
    steps = [*plan(AUCTION, 0, 2), {"type": "pass", "seat": 1}]
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(AUCTION, {"type": "auction", "steps": steps})
    assert error.value.code in ("auction-closed", "no-auction")


def test_a_digital_game_refuses_steps_that_would_run_into_the_next_card() -> None:
    """Digital play turns up the next card by itself (MG-4); steps meant for one card never spill
    onto it."""
    state = new(3, chance="digital")
    assert state.stage == "auction"
    steps = plan(state, None, 0)
    card = state.card
    assert card is not None
    extra = {"type": "pass", "seat": card.order[0]}
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(state, {"type": "auction", "steps": [*steps, extra]})
    assert error.value.code == "auction-closed"


@pytest.mark.parametrize(
    "steps",
    [None, [], {}, "pass", [{"type": "pass"}], [{"type": "veto", "seat": 0}], [{"type": "pass", "seat": 9}],
     [{"type": "pass", "seat": True}], [{"type": "bid", "seat": 0, "amount": 3, "cards": [1]}], ["pass"],
     [{"type": "pass", "seat": 0}] * 65],
)  # fmt: skip
def test_malformed_steps_are_refused(steps: Any) -> None:
    with pytest.raises(MalformedEvent) as error:
        MAGELLAN.apply(AUCTION, {"type": "auction", "steps": steps})
    assert error.value.code in ("invalid-steps", "unknown-field")


def test_outside_an_auction_the_entry_says_why() -> None:
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(new(4), {"type": "auction", "steps": [{"type": "pass", "seat": 0}]})
    assert error.value.code == "no-auction"


def test_ledger_one_bidder_per_entry_and_it_is_that_seats_secret() -> None:
    """MG-6: in ledger depth a bid depends on the bidder's hidden hand, so the entry is the bidder's
    own (their seat token); two players' bids in one entry are refused before any is looked at."""
    state = new(4, depth="ledger", chance="digital")
    assert state.stage == "auction" and state.card is not None
    order = state.card.order
    steps = plan(state, order[1], 2)
    assert secret_seat(state, {"type": "auction", "steps": steps}) == order[1]
    assert secret_seat(state, {"type": "auction", "steps": plan(state, None, 0)}) is None
    two = [{"type": "bid", "seat": order[0], "amount": 1}, {"type": "bid", "seat": order[1], "amount": 2}]
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(state, {"type": "auction", "steps": two})
    assert error.value.code == "bids-of-one-player"


# --- the property: all or nothing ------------------------------------------------------------------


def an_auction(players: int, ledger: bool, digital: bool, seed: int, warmup: int) -> MagellanState | None:
    """A random game some events in, at an auction (None if it never got to one)."""
    options = {"depth": "ledger" if ledger else "outcomes", "chance": "digital" if digital else "physical"}
    state, rng = new(players, seed=seed, **options), random.Random(seed)
    for _ in range(warmup + 200):
        if state.stage == "auction" and warmup <= 0:
            return state
        warmup -= 1
        if state.stage == "finished":
            return None
        try:
            state = MAGELLAN.apply(state, random_event(state, rng))
        except RuleError:
            continue
    return state if state.stage == "auction" else None


def mutate(steps: list[Step], rng: random.Random, players: int) -> list[Step]:
    """One step changed at random: another seat, type or amount, dropped, or one step more."""
    steps = [dict(s) for s in steps]
    i = rng.randrange(len(steps))
    how = rng.choice(["seat", "type", "amount", "drop", "extra"])
    if how == "seat":
        steps[i]["seat"] = rng.randrange(players)
    elif how == "type":
        steps[i] = {"type": "pass", "seat": steps[i]["seat"]} if steps[i]["type"] == "bid" else {
            "type": "bid", "seat": steps[i]["seat"], "amount": rng.randint(1, 12)}  # fmt: skip
    elif how == "amount":
        steps[i] = {"type": "bid", "seat": steps[i]["seat"], "amount": rng.randint(1, 12)}
    elif how == "drop" and len(steps) > 1:
        del steps[i]
    else:
        steps.append({"type": rng.choice(["bid", "pass"]), "seat": rng.randrange(players), "amount": 9})
        if steps[-1]["type"] == "pass":
            del steps[-1]["amount"]
    return steps


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 5),
    st.booleans(),
    st.booleans(),
    st.integers(0, 10_000),
    st.integers(0, 40),
    st.booleans(),
)
def test_all_or_nothing(
    players: int, ledger: bool, digital: bool, seed: int, warmup: int, bent: bool
) -> None:
    """Property: an auction entry either equals its bids and passes recorded one by one (each with
    the steps the game takes by itself in between), or is refused and the state is as it was — and
    then one by one would be refused too, or its steps run past the card's auction."""
    state = an_auction(players, ledger, digital, seed, warmup)
    if state is None:
        return
    rng = random.Random(seed)
    card = state.card
    assert card is not None
    winner = rng.choice([None, *card.order]) if card.high_bidder is None else rng.choice(card.order)
    steps = plan(state, winner, card.high_bid + rng.randint(1, 3))
    if bent:
        steps = mutate(steps, rng, players)
    if ledger and len({s["seat"] for s in steps if s["type"] == "bid"}) > 1:
        steps = [s for s in steps if s["type"] == "pass" or s["seat"] == winner]
    if not steps:
        return
    snapshot = copy.deepcopy(state)
    try:
        together = MAGELLAN.apply(state, {"type": "auction", "steps": steps})
    except RuleError as refused:
        assert snapshot == state
        if refused.code == "auction-closed":
            return
        with pytest.raises(RuleError):
            one_by_one(state, steps)
        return
    assert together == one_by_one(state, steps)
