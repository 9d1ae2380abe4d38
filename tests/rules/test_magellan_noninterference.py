"""Non-interference (MG-3, MG-6, MG-8): in Magellan ledger play, two states that differ only in hidden
cards give byte-identical answers to everyone without those seats' tokens — the shared view, the
public legal actions, previews, refusals and acceptances of any event, the open log entry.

Twins: a random ledger game (3–6 players, digital or physical chance) played to a random point; one
card of seat X's hand is swapped with a different card of seat Y's hand (neither hand open). The
requesters are the shared write token and every other seat's own token. The answer is computed
exactly as the table store does: `refuse_unless_owner` (api.tables.secrecy), then the engine."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.errors import ApiProblem
from api.rules.errors import RuleError
from api.rules.magellan.constants import MONEY_VALUES
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState
from api.tables.secrecy import refuse_unless_owner
from tests.rules.magellan_support import TEST_SHEET, players, random_event, sides_from


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def answer(
    state: MagellanState, event: dict[str, Any], holder: int | None, names: list[dict[str, str]]
) -> str:
    """What the table store answers a requester (holder None: write token; n: seat n's own token)."""
    try:
        refuse_unless_owner(MAGELLAN, state, names, event, holder)
        after = MAGELLAN.apply(state, event)
    except ApiProblem as problem:
        return canonical({"status": problem.status, "code": problem.code, "detail": problem.detail})
    except RuleError as error:
        return canonical(
            {"status": error.status, "code": error.code, "detail": error.detail, "rule": error.rule}
        )
    reveals = MAGELLAN.reveals_hidden_chance(state, after)
    return canonical(
        {
            "status": 201,
            # A server draw that turns a card face up is revealed by the rules themselves (a digital
            # Cook B pull lands face up on the discard pile): compare that it was accepted, not what.
            "view": None if reveals and event["type"] == "cook_pull" else MAGELLAN.public_view(after),
            "legal": None if reveals and event["type"] == "cook_pull" else MAGELLAN.legal_actions(after),
            "log": MAGELLAN.public_event(event, MAGELLAN.normalize_options({})),
        }
    )


def candidates(state: MagellanState, rng: random.Random) -> list[dict[str, Any]]:
    """Events a requester might send: every listed action with varied values, plus hostile ones."""
    legal = MAGELLAN.legal_actions(state)
    events: list[dict[str, Any]] = []
    seats = range(len(state.players))
    for actor in legal["actors"]:
        seat = actor["seat"]
        for action in actor["actions"]:
            kind = action["type"]
            base = {"type": kind, "seat": seat}
            if kind == "bid":
                events += [{**base, "amount": a} for a in (action["min"], action["min"] + 3, 45, 60)]
            elif kind in ("pay",):
                events += [
                    {**base, "cards": sorted(rng.choices(MONEY_VALUES, k=rng.randint(1, 4)))}
                    for _ in range(3)
                ]
            elif kind in ("slide", "cook_pull", "pizarro_draw"):
                events += [{**base, "value": v} for v in (1, 5, 9)] + [base]
            elif kind == "swap":
                events += [{**base, "discard": d, "draw": 3} for d in (1, 5, 9)] + [{**base, "discard": 2}]
            elif kind == "draw":
                events += [{**base, "cards": [v]} for v in (1, 5, 9)]
            elif kind == "vasco_part":
                events += [
                    {**base, **{k: v for k, v in o.items() if k != "draws" and v is not None}}
                    for o in action["options"]
                ]
            else:
                events.append(base)
    events += [{"type": "bid", "amount": 50, "seat": s} for s in seats]
    events += [{"type": "pay", "cards": [9, 9, 9], "seat": s} for s in seats]
    events += [{"type": "veto", "seat": s} for s in seats] + [{"type": "pass"}]
    return events


def twin(state: MagellanState, rng: random.Random) -> tuple[MagellanState, set[int]] | None:
    """The same state with one card swapped between two closed hands, or None if there is none."""
    seats = [s for s, p in enumerate(state.players) if p.hand and not p.hand_open]
    rng.shuffle(seats)
    for x in seats:
        for y in seats:
            if x == y:
                continue
            hx, hy = list(state.players[x].hand), list(state.players[y].hand)
            pairs = [(i, j) for i in range(len(hx)) for j in range(len(hy)) if hx[i] != hy[j]]
            if not pairs:
                continue
            i, j = rng.choice(pairs)
            hx[i], hy[j] = hy[j], hx[i]
            others = list(state.players)
            others[x] = replace(others[x], hand=tuple(sorted(hx)))
            others[y] = replace(others[y], hand=tuple(sorted(hy)))
            return replace(state, players=tuple(others)), {x, y}
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    count=st.integers(3, 6),
    chance=st.sampled_from(["physical", "digital"]),
    sides=st.integers(0, 63),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 160),
)
def test_hidden_cards_never_change_an_answer_to_anyone_without_their_token(
    count: int, chance: str, sides: int, seed: int, steps: int
) -> None:
    names = players(count)
    options = MAGELLAN.normalize_options(
        {"depth": "ledger", "chance": chance, "sides": dict(sides_from(sides)), "board_sheet": TEST_SHEET}
    )
    state = MAGELLAN.new_game(names, options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.stage in ("scoring", "finished"):
            break
        state = MAGELLAN.apply(state, random_event(state, rng))
    if state.stage in ("scoring", "finished"):  # MG-10: every hand is counted openly from here
        return
    made = twin(state, rng)
    if made is None:
        return
    other, secret_seats = made
    assert MAGELLAN.private_view(state, min(secret_seats)) != MAGELLAN.private_view(other, min(secret_seats))
    # Everything anyone reads …
    assert canonical(MAGELLAN.public_view(state)) == canonical(MAGELLAN.public_view(other))
    assert canonical(MAGELLAN.legal_actions(state)) == canonical(MAGELLAN.legal_actions(other))
    # … and every answer to every event, for the write token and every other seat's own token.
    requesters = [None, *(s for s in range(count) if s not in secret_seats)]
    for event in candidates(state, rng):
        for holder in requesters:
            assert answer(state, event, holder, names) == answer(other, event, holder, names), (event, holder)


def test_the_twins_are_told_apart_by_the_owner() -> None:
    """The check has teeth: the owner's own answers do differ (their bid limit, their payments)."""
    names = players(3)
    options = MAGELLAN.normalize_options({"depth": "ledger", "chance": "digital", "board_sheet": TEST_SHEET})
    state = MAGELLAN.new_game(names, options, 5)
    rng = random.Random(5)
    while state.stage != "auction":
        state = MAGELLAN.apply(state, random_event(state, rng))
    bidder = state.card.turn if state.card else None
    assert bidder is not None
    poorer = list(state.players)
    poorer[bidder] = replace(poorer[bidder], hand=(1, 1, 1, 1, 1, 1, 1, 1, 1))
    other = replace(state, players=tuple(poorer))
    bid = {"type": "bid", "amount": 30, "seat": bidder}
    assert answer(state, bid, bidder, names) != answer(other, bid, bidder, names)
    assert answer(state, bid, None, names) == answer(other, bid, None, names)
    with pytest.raises(ApiProblem):
        refuse_unless_owner(MAGELLAN, state, names, bid, None)
