"""Table views random whole games rarely reach match the document too (tests/contract/test_vocabulary.py
checks the random ones): the Cook B pull a Magellan bar offers (MG-8) and a Mhing variant-2 game one
player ends holding every point (MH-9). Both were missing from the document until the phone app was
type-checked against it (tests/contract/test_pwa_types.py)."""

from __future__ import annotations

import json
from typing import Any

from api.rules.magellan.game import MAGELLAN
from api.rules.mhing.game import MHING
from api.rules.referee import rules_view
from tests.contract.test_vocabulary import TABLE
from tests.rules.magellan_support import TEST_SHEET, play, players, sell


def table(
    game: str, seats: list[dict[str, Any]], options: dict[str, Any], view: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": "AAAAAAAAAAAAAAAA",
        "game": game,
        "version": 1,
        "players": seats,
        "options": options,
        "seed": None,
        "created_at": "2026-11-25T00:00:00+00:00",
        "updated_at": "2026-11-25T00:00:00+00:00",
        **view,
    }


def errors(answer: dict[str, Any]) -> list[str]:
    served = json.loads(json.dumps(answer))  # as a client reads it (a Message is a str)
    return [f"{list(e.instance_path)}: {e.message}" for e in TABLE.iter_errors(served)]


def test_mg8_cook_b_pull_is_a_documented_legal_action() -> None:
    options = MAGELLAN.normalize_options(
        {"depth": "ledger", "board_sheet": TEST_SHEET, "sides": {"cook": "B"}}
    )
    state = MAGELLAN.new_game(players(3), options, 7)
    state = play(sell(state, "cook", 2, price=2), {"type": "pay", "cards": [2]})
    view = rules_view(MAGELLAN, state, True)
    assert [a["type"] for a in view["legal_actions"]["actors"][0]["actions"]] == ["cook_pull"]
    assert not errors(table("magellan", players(3), options, view))


def test_mh9_all_points_ending_is_documented() -> None:
    seats = [{"name": n} for n in ("Ada", "Bo", "Cy")]
    options = MHING.normalize_options({"settlement": 2})
    state = MHING.new_game(seats, options, 1)
    hand = {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"}
    for event in (
        {"type": "round_won", "winner": 0, "discarder": None, "hand": hand},
        {"type": "round_points", "winner": 0, "points": 256, "discarder": 1},
        {"type": "round_won", "winner": 1, "discarder": 2, "hand": hand},
        {"type": "round_points", "winner": 0, "points": 2048, "discarder": 1},
    ):
        state = MHING.apply(state, event)
    view = rules_view(MHING, state, True)
    assert view["result"]["decided_by"] == "all-points" and view["state"]["ended_by"] == "all-points"
    assert not errors(table("mhing", seats, options, view))
