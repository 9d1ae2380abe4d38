"""Whole random games through the engine (3–6 players, both depths, both chance modes, every side
combination sampled). Actions are picked only from `legal_actions`, so every offered action must be
accepted; every step checks MG-1/MG-7 invariants, that the state survives dump/load, and that the
public view keeps secrets; at the end replaying the events gives the identical state."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from magellan_support import FULL, TEST_SHEET, ledger_places, players, random_event, sides_from

from api.rules.magellan.constants import CARDS_PER_EXPLORER, DECK_SIZES, EXPLORERS
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState

MAX_EVENTS = 3000


def cards_per_phase(state: MagellanState) -> list[int]:
    """Cards that left a deck for good (sold or boxed); a vetoed card goes back under it (MG-8)."""
    counted = Counter(h.phase for h in state.history if h.outcome != "vetoed")
    return [counted[p] for p in (1, 2, 3)]


def check(state: MagellanState) -> None:
    done = cards_per_phase(state)
    for phase in (1, 2, 3):
        assert done[phase - 1] <= DECK_SIZES[phase]
        if state.phase > phase or state.stage in ("scoring", "finished"):
            assert done[phase - 1] == DECK_SIZES[phase], "MG-1: 18/12/6 cards per phase"
    on_field = Counter((s.explorer, s.field) for p in state.players for s in p.ships)
    assert all(n <= CARDS_PER_EXPLORER[field] for (_, field), n in on_field.items()), "MG-7: 3/2/1 ships"
    assert all(len(p.ships) <= 6 for p in state.players)
    for p in state.players:
        assert sorted(len(pile) for pile in p.piles) == sorted(
            s.field for s in p.ships if s.explorer == "magellan"
        ) or (state.card is not None and "slide" in state.card.todo)
    if state.ledger:
        assert ledger_places(state) == FULL, "MG-1: every money card in exactly one place"
        assert sum(ledger_places(state).values()) == 63
    assert MAGELLAN.load(json.loads(json.dumps(MAGELLAN.dump(state)))) == state
    view = MAGELLAN.public_view(state)
    text = json.dumps(view)
    assert '"seed"' not in text and '"hidden"' not in text and '"hand":' not in text
    for deck in view["decks"]:
        assert list(deck["composition"]) == [e for e in EXPLORERS if e in deck["composition"]]
    if state.stage not in ("scoring", "finished") and state.options.side("magellan") == "A":
        assert all(p["slid"] is None for pl in view["players"] for p in pl["magellan_piles"])
    legal = MAGELLAN.legal_actions(state)
    json.dumps(legal)
    assert (MAGELLAN.result(state) is None) == (state.stage != "finished")
    assert (legal["actors"] or legal["blocked"]) or state.stage == "finished"


@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    count=st.integers(3, 6),
    depth=st.sampled_from(["outcomes", "ledger"]),
    chance=st.sampled_from(["physical", "digital"]),
    sides=st.integers(0, 63),
    sheet_from_start=st.booleans(),
    auctioneer=st.integers(0, 5),
    seed=st.integers(0, 2**31),
)
def test_random_whole_games(
    count: int, depth: str, chance: str, sides: int, sheet_from_start: bool, auctioneer: int, seed: int
) -> None:
    rng = random.Random(seed)
    options = {
        "depth": depth,
        "chance": chance,
        "sides": dict(sides_from(sides)),
        "auctioneer": auctioneer % count,
    }
    if sheet_from_start:
        options["board_sheet"] = TEST_SHEET
    options = MAGELLAN.normalize_options(options)
    assert MAGELLAN.normalize_options(options) == options
    state = MAGELLAN.new_game(players(count), options, seed)
    events = []
    for _ in range(MAX_EVENTS):
        check(state)
        if state.stage == "finished":
            break
        event = random_event(state, rng)
        before = state
        state = MAGELLAN.apply(state, event)
        assert before == MAGELLAN.load(MAGELLAN.dump(before)), "apply never mutates its input"
        events.append(event)
    assert state.stage == "finished"
    assert cards_per_phase(state) == [18, 12, 6]
    result = MAGELLAN.result(state)
    assert result is not None
    best = max(r["score"] for r in result["ranking"])
    assert {r["seat"] for r in result["ranking"] if r["score"] == best} == set(result["winners"])
    replayed = MAGELLAN.new_game(players(count), options, seed)
    for event in events:
        replayed = MAGELLAN.apply(replayed, event)
    assert replayed == state, "replaying the log gives the identical state"
