"""Reading the fields of an event; shape problems are MalformedEvent, never IllegalMove."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.common import events as common
from api.rules.common.events import has, is_int
from api.rules.errors import MalformedEvent, say
from api.rules.mahe.constants import DIE_FACES, TURTLE_COLOURS

# Each event type with the fields it takes (besides `type` and the sending `seat`).
_FACE = (1, 6)
EVENT_FIELDS: dict[str, common.Fields] = {
    # MA-7, MA-12: the newly face-up egg card, typed in physical play
    "reveal_card": {"value": common.integer("The egg card's value (MA-7)", *_FACE, required=True)},
    # MA-9
    "choose_turtle": {
        "turtle": common.choice("The turtle that moves first (MA-9)", TURTLE_COLOURS, required=True)
    },
    # MA-3, MA-12: typed in physical play, left out in digital play
    "die": {"value": common.integer("What the die shows (MA-3); none in digital play (MA-12)", *_FACE)},
    "stop": {},  # MA-3
    "play_card": {
        "value": common.integer("The egg card played as a die (MA-11)", *_FACE, required=True)
    },  # MA-11
}
EVENT_TYPES = tuple(EVENT_FIELDS)


def event_type(event: Any) -> str:
    return common.event_type(event, "Mahé", EVENT_FIELDS)


def has_value(event: Mapping[str, Any]) -> bool:
    return has(event, "value")


def face_value(event: Mapping[str, Any], what: str, rule: str) -> int:
    """A die face or egg-card value 1–6."""
    value = event.get("value")
    if value is None:
        raise MalformedEvent(
            "value-required",
            say("Type in the value of the {what} (1 to 6) ({rule}).", what=what, rule=rule),
            rule,
        )
    if not is_int(value) or value not in DIE_FACES:
        raise MalformedEvent(
            "value-out-of-range",
            say("The {what} must be a whole number from 1 to 6 ({rule}).", what=what, rule=rule),
            rule,
        )
    return value


def turtle_name(event: Mapping[str, Any]) -> str:
    return common.str_choice(
        event,
        "turtle",
        TURTLE_COLOURS,
        "Say which turtle moves first (MA-9).",
        "MA-9",
        "{value!r} is not a turtle colour; the turtles are {choices}.",
        "MA-1",
    )
