"""The stateless move calculator `resolve_move` (MA-3, MA-5, MA-6, MA-7) for the platform endpoint."""

from __future__ import annotations

from typing import Any

import pytest

from api.rules.errors import IllegalMove, MalformedEvent, RuleError
from api.rules.mahe.position import resolve_move


def board(raft: list[str] | None = None, **fields: list[str]) -> dict[str, Any]:
    track: list[list[str]] = [[] for _ in range(21)]
    for name, stack in fields.items():
        track[int(name.removeprefix("f")) - 1] = stack
    return {"raft": raft or [], "track": track}


def test_ma7_example_through_resolve_move() -> None:
    """MA-7 Example: red under yellow on dark blue at 18 rolls 1, 2, 3 → 15, yellow takes the card."""
    owners = {"red": 0, "darkblue": 2, "yellow": 1}
    out = resolve_move(board(f18=["darkblue", "red", "yellow"]), "red", [1, 2, 3], owners=owners, face_up=5)
    assert out["position"]["track"][14] == ["red", "yellow"] and out["position"]["track"][17] == ["darkblue"]
    assert (out["distance"], out["to"], out["bust"], out["passes_beach"]) == (18, 15, False, True)
    assert out["carried"] == ["yellow"] and out["left_behind"] == ["darkblue"]
    assert (out["card_taker_turtle"], out["card_taker_seat"], out["card_value"]) == ("yellow", 1, 5)
    assert (out["decider_turtle"], out["decider_seat"]) == ("yellow", 1)


def test_ma3_examples_through_resolve_move() -> None:
    """MA-3 Examples: 2, 4 → 12; 2, 1, 4 → 21 (raft → field 21)."""
    assert resolve_move(board(["red"]), "red", [2, 4])["to"] == 12
    out = resolve_move(board(["red", "green"]), "red", [2, 1, 4])
    assert out["to"] == 21 and out["passes_beach"] and out["card_taker_turtle"] == "red"
    assert out["position"] == {"raft": ["green"], "track": [[]] * 20 + [["red"]]}


def test_ma6_bust_through_resolve_move() -> None:
    """MA-6: over 7 — mover and turtles above to the raft (palette order), turtles below stay."""
    out = resolve_move(board(["black"], f4=["green", "red", "yellow"]), "red", [5, 4])
    assert out["bust"] and out["to"] == 0 and out["distance"] == 0 and out["card_taker_turtle"] is None
    assert out["position"]["raft"] == ["red", "yellow", "black"] and out["position"]["track"][3] == ["green"]


def test_ma11_card_values_count_as_dice() -> None:
    """MA-11 Example: 5 plus a card 2 → 14 fields."""
    assert resolve_move(board(["red"]), "red", [5, 2])["distance"] == 14


@pytest.mark.parametrize(
    ("position", "turtle", "dice", "code", "kind"),
    [
        (board(["red"]), "red", [], "first-die-missing", IllegalMove),
        (board(["red"]), "red", [1, 1, 1, 1], "too-many-dice", IllegalMove),
        (board(["red"]), "red", [3, 4, 1], "no-third-die-at-seven", IllegalMove),
        (board(["red"]), "red", [5, 4, 1], "dice-after-bust", IllegalMove),
        (board(["red"]), "yellow", [1], "turtle-not-in-position", IllegalMove),
        (board(["red"], f3=["red"]), "red", [1], "duplicate-turtle", IllegalMove),
        (board(["red"]), "red", [7], "value-out-of-range", MalformedEvent),
        (board(["pink"]), "pink", [1], "unknown-turtle", MalformedEvent),
        ({"raft": ["red"], "track": [[]] * 20}, "red", [1], "invalid-position", MalformedEvent),
    ],
)
def test_impossible_input_is_refused(
    position: dict[str, Any], turtle: str, dice: list[int], code: str, kind: type[RuleError]
) -> None:
    """MA-3/MA-6: dice the rules cannot produce and impossible positions are refused."""
    with pytest.raises(kind) as info:
        resolve_move(position, turtle, dice)
    assert info.value.code == code


def test_incomplete_sequences_are_marked() -> None:
    """MA-3: one die, or two under 7, could still go on; the result says so."""
    assert not resolve_move(board(["red"]), "red", [2])["complete"]
    assert resolve_move(board(["red"]), "red", [3, 4])["complete"]
    assert resolve_move(board(["red"]), "red", [1, 1, 1])["complete"]
