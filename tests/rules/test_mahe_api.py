"""The JSON contract the HTTP API and the phone app rely on: view keys, legal actions, error shapes."""

from __future__ import annotations

import json

import pytest
from mahe_support import TWO, card, choose, dice, die, new, play, reveal, started, stop

from api.rules.errors import IllegalMove, MalformedEvent, RuleError
from api.rules.mahe.game import MAHE
from api.rules.registry import get_game


def test_registered_as_mahe() -> None:
    game = get_game("mahe")
    assert game is MAHE
    assert (MAHE.name, MAHE.min_players, MAHE.max_players) == ("mahe", 2, 7)


def test_public_view_shape() -> None:
    state = play(started(TWO, face_up=4), choose("red"), die(2))
    view = MAHE.public_view(state)
    assert view["game"] == "mahe" and view["phase"] == "decide"
    assert view["players"][0] == {
        "seat": 0,
        "name": "Eva",
        "colours": ["red", "darkblue"],
        "cards": None,  # MA-7 Decision: won cards lie face down; the shared view counts them
        "beach": False,
        "eggs": None,
        "card_count": 0,
    }
    assert view["turn"] == {
        "seat": 0,
        "turtle": "red",
        "turtle_order": ["red", "darkblue"],
        "moves_done": 0,
        "dice": [{"value": 2, "source": "die"}],
        "sum": 2,
        "cards_played_by": [],
    }
    assert (view["face_up"], view["pile_count"], view["beach_exposed"], view["beach_taken_by"]) == (
        4,
        20,
        False,
        None,
    )
    assert view["last_move"] is None and view["draws"] == 0 and view["result"] is None
    json.dumps(view)


def test_last_move_shape() -> None:
    state = play(started(), *dice(2, 1, 4))
    assert MAHE.public_view(state)["last_move"] == {
        "seat": 0,
        "turtle": "red",
        "carried": [],
        "left_behind": [],
        "dice": [{"value": 2, "source": "die"}, {"value": 1, "source": "die"}, {"value": 4, "source": "die"}],
        "distance": 21,
        "from": 0,
        "to": 21,
        "bust": False,
        "passed_beach": True,
        "card": {"seat": 0, "value": 5, "beach": False},
        "game_over": False,
    }


def test_legal_actions_shape() -> None:
    la = MAHE.legal_actions(new())
    assert la == {
        "phase": "reveal_card",
        "decider": None,
        "mover": 0,
        "turtle": "red",
        "actions": [{"type": "reveal_card", "values": [1, 2, 3, 4, 5, 6]}],
        "notes": [
            {
                "code": "reveal-card",
                "rule": "MA-7",
                "text": "Turn up the next egg card and type in its value.",
                "template": "Turn up the next egg card and type in its value.",
                "params": {},
            }
        ],
    }
    decide = MAHE.legal_actions(play(started(), die(4)))
    stop_action = decide["actions"][1]
    assert stop_action == {"type": "stop", "distance": 4, "to": 4, "passes_beach": False, "card_to": None}
    assert decide["actions"][0]["outcomes"][0] == {
        "value": 1,
        "sum": 5,
        "distance": 10,
        "bust": False,
        "to": 10,
        "passes_beach": False,
        "card_to": None,
        "must_stop": False,
    }
    assert decide["decider"] == {
        "seat": 0,
        "name": "Martin",
        "reason": "moves red, which carries no turtle (MA-4)",
    }


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"type": "jump"}, "unknown-event"),
        ({}, "type-required"),
        ({"type": "choose_turtle"}, "turtle-required"),
        ({"type": "die", "value": True}, "value-out-of-range"),
        ({"type": "die", "value": 2, "seat": "x"}, "invalid-seat"),
    ],
)
def test_malformed_events(event: dict[str, object], code: str) -> None:
    state = started(TWO)
    if event.get("type") == "die":
        state = play(state, choose("red"))
    with pytest.raises(MalformedEvent) as info:
        MAHE.apply(state, event)
    assert info.value.code == code


def test_illegal_events_carry_code_rule_and_detail() -> None:
    cases = [
        (started(), reveal(3), "no-card-to-reveal", "MA-7"),
        (new(), die(3), "reveal-card-first", "MA-7"),
        (new(), stop(), "reveal-card-first", "MA-7"),
        (started(egg_dice_variant=True), card(2), "card-not-for-first-die", "MA-11"),
        (started(), {"type": "die", "value": 2, "seat": 3}, "not-your-turn", "MA-3"),
    ]
    for state, event, code, rule in cases:
        with pytest.raises(IllegalMove) as info:
            MAHE.apply(state, event)
        err: RuleError = info.value
        assert (err.code, err.rule) == (code, rule) and err.detail.endswith(".")


def test_apply_never_mutates_and_dump_round_trips() -> None:
    state = started(TWO, egg_dice_variant=True)
    before = MAHE.dump(state)
    after = play(state, choose("red"), die(3))
    assert MAHE.dump(state) == before and after != state
    assert MAHE.load(json.loads(json.dumps(MAHE.dump(after)))) == after
    with pytest.raises(MalformedEvent):
        MAHE.load({"format": 99})
