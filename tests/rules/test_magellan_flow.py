"""The flow declared once (engine.FLOW): every recorded event was accepted by its stage's declaration,
every declared event occurs, the legal actions offer only what the stage accepts, and an event
outside its stage is refused with a reason."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from api.rules.errors import RuleError
from api.rules.magellan.engine import ANY_STAGE, FLOW, HANDLERS
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState
from api.rules.replay import advance
from tests.rules.magellan_corpus import recorded


@cache
def corpus_steps() -> list[tuple[MagellanState, dict[str, Any]]]:
    """Every recorded state with the event played on it; replayed on first use, not at import
    (collecting the suite paid ~5 s for it)."""
    steps = []
    together = []  # issue 33: the same hands typed in as one final_hands entry (MG-10)
    for game in recorded():
        states = [
            MAGELLAN.new_game(game["players"], MAGELLAN.normalize_options(game["options"]), game["seed"])
        ]
        hands: dict[str, list[int]] = {}
        first: MagellanState | None = None
        auction: list[dict[str, Any]] = []  # issue 33: a card's bids and passes as one auction entry
        opened: MagellanState | None = None
        for event in game["events"]:
            if event["type"] != "undo":
                steps.append((states[-1], event))
            state = states[-1]
            if event["type"] in ("bid", "pass") and state.card is not None and state.card.turn is not None:
                opened = opened or state
                auction.append({**event, "seat": state.card.turn})
            elif opened is not None:
                entry = {"type": "auction", "steps": auction}
                try:
                    MAGELLAN.apply(opened, entry)
                    together.append((opened, entry))
                except RuleError:
                    pass  # an undo or a veto came between: not one card's auction
                opened, auction = None, []
            if event["type"] == "final_hand" and states[-1].stage == "scoring":
                first = first or states[-1]
                hands[str(event["seat"])] = list(event["cards"])
            states = advance(MAGELLAN, states, event)
        if first is not None and hands:
            event = {"type": "final_hands", "hands": hands}
            try:
                MAGELLAN.apply(first, event)
            except RuleError:
                continue  # an undo took a hand back meanwhile: these hands are not one moment's
            together.append((first, event))
    return steps + together


def test_the_declaration_is_exactly_what_games_use() -> None:
    used = {(state.stage, event["type"]) for state, event in corpus_steps()}
    declared = {(stage, kind) for stage, declared in FLOW.items() for kind in declared.accepts}
    anytime = {(stage, kind) for stage, kind in used if kind in ANY_STAGE}
    assert used - anytime <= declared, "an event accepted outside the declared flow"
    assert declared <= used, f"declared but never played: {declared - used}"


def test_legal_actions_offer_only_what_the_stage_accepts() -> None:
    for state, _ in corpus_steps()[::7]:
        legal = MAGELLAN.legal_actions(state)
        offered = {a["type"] for actor in legal["actors"] for a in actor["actions"]}
        assert offered <= set(FLOW[state.stage].accepts) | set(ANY_STAGE), (state.stage, offered)


@pytest.mark.parametrize("stage", [s for s in FLOW if s != "finished"])
def test_an_event_outside_its_stage_is_refused(stage: str) -> None:
    state, played = next((s, e) for s, e in corpus_steps() if s.stage == stage)
    for kind in set(HANDLERS) - set(FLOW[stage].accepts) - set(ANY_STAGE):
        with pytest.raises(RuleError) as refused:
            MAGELLAN.apply(state, {**played, "type": kind})
        assert refused.value.detail and refused.value.code, kind
