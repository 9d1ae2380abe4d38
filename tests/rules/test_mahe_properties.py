"""Whole random games through the engine (2–7 players, physical and digital, MA-11 on/off).

Actions are picked from `legal_actions`; every step checks the rules' invariants, that previews
match what `apply` does, that `legal_actions` and `apply` agree on a random probe event, and at the
end that replaying the events from `new_game` gives an identical state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import RuleError
from api.rules.mahe.constants import DECK, DIE_FACES, TURTLE_COLOURS
from api.rules.mahe.game import MAHE
from api.rules.mahe.state import MaheState

Event = dict[str, Any]
MAX_EVENTS = 4000


def taken_from_pile(state: MaheState) -> int:
    """Cards (and the beach) that have left the pile: at most one per move (MA-7, MA-8)."""
    return 20 - state.supply.pile_count + (1 if state.beach_taken_by is not None else 0)


def check_invariants(state: MaheState, colours: list[str]) -> None:
    turtles = state.position.turtles()
    assert sorted(turtles) == sorted(colours), "turtles lost or duplicated (MA-5, MA-6)"
    assert list(state.position.raft) == sorted(state.position.raft, key=TURTLE_COLOURS.index)
    assert len(state.position.track) == 21
    supply = state.supply
    in_hands = sum(len(p.cards) for p in state.players)
    assert in_hands + supply.pile_count + supply.set_aside_count + len(supply.box) == 24
    if state.options.chance == "digital":
        known = [c for p in state.players for c in p.cards]
        known += [*supply.hidden, *supply.set_aside, *supply.box]
        known += [] if supply.face_up is None else [supply.face_up]
        assert Counter(known) == Counter(DECK)
        assert not supply.awaiting_reveal
    assert (supply.face_up is None) == (supply.awaiting_reveal or supply.pile_count == 0)
    beach_owners = [seat for seat, p in enumerate(state.players) if p.beach]
    finished = state.phase == "finished"
    assert finished == (state.beach_taken_by is not None) == bool(beach_owners)
    if finished:
        assert beach_owners == [state.beach_taken_by] and supply.pile_count == 0
        assert state.last_move is not None and state.last_move.card is not None and state.last_move.card.beach
        result = MAHE.result(state)
        assert result is not None
        best = max(p.eggs for p in state.players)
        assert all(state.players[s].eggs == best for s in result["winners"])
    else:
        assert MAHE.result(state) is None
    data = MAHE.dump(state)
    assert MAHE.load(json.loads(json.dumps(data))) == state
    view = MAHE.public_view(state)
    text = json.dumps(view)
    assert '"seed"' not in text and '"hidden"' not in text
    assert view["pile_count"] == supply.pile_count and len(view["track"]) == 21


def listed(actions: dict[str, Any], event: Event) -> bool:
    """Is this exact event offered by legal_actions?"""
    offered = {a["type"]: a for a in actions["actions"]}
    action: dict[str, Any] | None = offered.get(event["type"])
    if action is None:
        return False
    kind: str = event["type"]
    if kind == "reveal_card":
        return bool(event.get("value") in action["values"])
    if kind == "choose_turtle":
        return bool(event.get("turtle") in action["turtles"])
    if kind == "die":
        if action["values"] is None:
            return "value" not in event
        return bool(event.get("value") in action["values"])
    if kind == "play_card":
        return bool(event.get("value") in action["cards"])
    return kind == "stop"


def probe(rng: random.Random) -> Event:
    kind = rng.choice(["reveal_card", "choose_turtle", "die", "die", "stop", "play_card"])
    if kind == "choose_turtle":
        return {"type": kind, "turtle": rng.choice(TURTLE_COLOURS)}
    if kind == "stop":
        return {"type": kind}
    if rng.random() < 0.2:
        return {"type": kind}
    return {"type": kind, "value": rng.choice(DIE_FACES)}


def pick(state: MaheState, actions: dict[str, Any], rng: random.Random, greed: float) -> Event:
    """Mostly a sensible player (stop when the beach is in reach, roll on while the risk is low)."""
    offered = {a["type"]: a for a in actions["actions"]}
    if "reveal_card" in offered:
        return {"type": "reveal_card", "value": rng.choice(offered["reveal_card"]["values"])}
    if "choose_turtle" in offered:
        return {"type": "choose_turtle", "turtle": rng.choice(offered["choose_turtle"]["turtles"])}
    roll: Event = {"type": "die"}
    if offered["die"]["values"] is not None:
        roll["value"] = rng.choice(offered["die"]["values"])
    if "stop" not in offered:
        return roll
    if "play_card" in offered and rng.random() < 0.3:
        return {"type": "play_card", "value": rng.choice(offered["play_card"]["cards"])}
    if rng.random() < greed:
        if offered["stop"]["passes_beach"] or offered["die"]["bust_chance"] > 0.34:
            return {"type": "stop"}
        return roll
    return rng.choice([roll, {"type": "stop"}])


def check_preview(before: dict[str, Any], event: Event, after: MaheState) -> None:
    """What legal_actions promised is what apply did."""
    offered = {a["type"]: a for a in before["actions"]}
    move = after.last_move
    if event["type"] == "stop":
        promised = offered["stop"]
    elif event["type"] in ("die", "play_card") and "value" in event:
        options = offered[event["type"]]["outcomes"]
        promised = next(o for o in options if o["value"] == event["value"])
        if not promised["must_stop"]:
            assert after.phase == "decide"
            return
        assert promised["bust"] == (move is not None and move.bust)
    else:
        return
    assert move is not None
    assert (move.to, move.passed_beach) == (promised["to"], promised["passes_beach"])
    assert (None if move.card is None else move.card.seat) == promised["card_to"]
    if not move.bust:
        assert move.distance == promised["distance"]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(2, 7),
    chance=st.sampled_from(["physical", "digital"]),
    variant=st.booleans(),
    seat_pick=st.integers(0, 6),
    seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
    greed=st.floats(0.5, 1.0),
    colour_order=st.permutations(TURTLE_COLOURS),
)
def test_random_games_keep_the_rules(
    count: int,
    chance: str,
    variant: bool,
    seat_pick: int,
    seed: int,
    policy_seed: int,
    greed: float,
    colour_order: list[str],
) -> None:
    """MA-2…MA-12 as invariants over whole games: turtles kept exactly once, at most one card per
    move, 24 cards accounted for, the game ends exactly when the beach is taken, replay is exact."""
    each = 2 if count <= 3 else 1
    players = [{"name": f"P{i}", "colours": colour_order[i * each : (i + 1) * each]} for i in range(count)]
    colours = [c for p in players for c in p["colours"]]
    options = {"chance": chance, "egg_dice_variant": variant, "first_seat": seat_pick % count}
    rng = random.Random(policy_seed)
    state = MAHE.new_game(players, options, seed)
    events: list[Event] = []
    check_invariants(state, colours)
    while state.phase != "finished":
        assert len(events) < MAX_EVENTS, "game did not end"
        actions = MAHE.legal_actions(state)
        assert actions["actions"] and actions["phase"] == state.phase

        trial = probe(rng)
        try:
            MAHE.apply(state, trial)
            accepted = True
        except RuleError as err:
            assert err.code and err.detail
            accepted = False
        assert accepted == listed(actions, trial), (trial, actions)

        event = pick(state, actions, rng, greed)
        assert listed(actions, event)
        frozen = MAHE.dump(state)
        after = MAHE.apply(state, event)
        assert MAHE.dump(state) == frozen, "apply mutated its input"
        assert taken_from_pile(after) - taken_from_pile(state) <= 1
        if taken_from_pile(after) > taken_from_pile(state):
            assert after.last_move is not None and after.last_move.card is not None
        else:
            assert after.last_move is state.last_move or (after.last_move and after.last_move.card is None)
        check_preview(actions, event, after)
        events.append(event)
        state = after
        check_invariants(state, colours)

    assert MAHE.legal_actions(state)["actions"] == []
    replayed = MAHE.new_game(players, options, seed)
    for event in events:
        replayed = MAHE.apply(replayed, event)
    assert MAHE.dump(replayed) == MAHE.dump(state)
