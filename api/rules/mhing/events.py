"""Reading the fields of an event; shape problems are MalformedEvent, rule problems IllegalMove."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.common import events as common
from api.rules.common.events import is_int
from api.rules.errors import IllegalMove, MalformedEvent, say
from api.rules.mhing.premiums import points as points_for

# Each event type with the fields it takes (besides `type` and the sending `seat`).
MAX_POINTS = 2**30
# The most premiums whose MH-8 points stay within MAX_POINTS (82 → 2^30), far beyond any real hand:
# more would make scores no JavaScript client reads exactly (2^53 and up).
MAX_PREMIUMS = 82
_SEAT = (0, 5)
EVENT_FIELDS: dict[str, common.Fields] = {
    "round_won": {  # MH-5, MH-6, MH-9
        "winner": common.integer("The seat that went out (MH-3)", *_SEAT, required=True),
        "discarder": common.integer("Whose discard completed the hand; none from the stack (MH-9)", *_SEAT),
        "hand": common.Field(
            "hand", "The winning hand as `{groups, hidden, flowers}`, each in MH-10 notation", True
        ),
    },
    "round_points": {  # MH-8, MH-9
        "winner": common.integer("The seat that went out (MH-3)", *_SEAT, required=True),
        "discarder": common.integer("Whose discard completed the hand; none from the stack (MH-9)", *_SEAT),
        "points": common.integer("The hand's points (MH-8); or give premiums", 0, MAX_POINTS),
        "premiums": common.integer("The hand's premiums (MH-8); or give points", 0, MAX_PREMIUMS),
    },
    "round_drawn": {},  # MH-2
    "end_game": {},  # MH-9
}
EVENT_TYPES = tuple(EVENT_FIELDS)


def event_type(event: Any) -> str:
    return common.event_type(event, "Mhing", EVENT_FIELDS)


def seat(event: Mapping[str, Any], key: str, seats: int, *, required: bool) -> int | None:
    value = event.get(key)
    if value is None:
        if required:
            raise MalformedEvent(
                f"{key}-required",
                say("Say which seat is the {key} (0 to {value}).", key=key, value=seats - 1),
            )
        return None
    if not is_int(value):
        raise MalformedEvent("invalid-seat", say("The {key} must be a seat number.", key=key))
    if not 0 <= value < seats:
        raise IllegalMove(
            "no-such-seat",
            say(
                "The {key} {value} is not a seat: seats are 0 to {value2}.",
                key=key,
                value=value,
                value2=seats - 1,
            ),
        )
    return value


def winner_and_discarder(event: Mapping[str, Any], seats: int) -> tuple[int, int | None]:
    """The player who went out and, if the last card was a discard, whose (MH-3, MH-9)."""
    winner = seat(event, "winner", seats, required=True)
    assert winner is not None
    discarder = seat(event, "discarder", seats, required=False)
    if discarder == winner:
        raise IllegalMove(
            "discarder-is-winner",
            "The winner cannot have discarded their own last card; leave discarder out for a card "
            "drawn from the stack (MH-3).",
            "MH-3",
        )
    return winner, discarder


def typed_points(event: Mapping[str, Any]) -> tuple[int, int | None]:
    """(points, premiums or None) of a round whose points are typed in: `points` from the MH-8 table,
    or `premiums`, which the MH-8 table turns into points."""
    has_points, has_premiums = event.get("points") is not None, event.get("premiums") is not None
    if has_points == has_premiums:
        raise MalformedEvent(
            "points-or-premiums", "Give either the hand's points or its number of premiums (MH-8).", "MH-8"
        )
    if has_premiums:
        premiums = event["premiums"]
        if not is_int(premiums) or not 0 <= premiums <= MAX_PREMIUMS:
            raise MalformedEvent(
                "invalid-premiums",
                say(
                    "Premiums must be a whole number from 0 to {max_premiums} (MH-8).",
                    max_premiums=MAX_PREMIUMS,
                ),
                "MH-8",
            )
        return points_for(premiums), premiums
    value = event["points"]
    if not is_int(value):
        raise MalformedEvent("invalid-points", "Points must be a whole number (MH-8).", "MH-8")
    if not (value == 0 or (2 <= value <= MAX_POINTS and value & (value - 1) == 0)):
        raise IllegalMove(
            "not-a-points-value",
            say(
                "{value} is not a hand's value: hands score 0, 2, 4, 8, 16, 32, 64, … points (MH-8).",
                value=value,
            ),
            "MH-8",
        )
    return value, None
