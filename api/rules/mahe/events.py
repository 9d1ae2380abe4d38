"""Reading the fields of an event; shape problems are MalformedEvent, never IllegalMove."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.errors import MalformedEvent
from api.rules.mahe.constants import DIE_FACES, TURTLE_COLOURS

EVENT_TYPES = ("reveal_card", "choose_turtle", "die", "stop", "play_card")


def event_type(event: Any) -> str:
    if not isinstance(event, Mapping):
        raise MalformedEvent("event-not-object", "An event must be an object with a type.")
    kind = event.get("type")
    if not isinstance(kind, str):
        raise MalformedEvent("type-required", "The event needs a type.")
    if kind not in EVENT_TYPES:
        raise MalformedEvent(
            "unknown-event", f"Mahé has no event {kind!r}; it knows {', '.join(EVENT_TYPES)}."
        )
    return kind


def has_value(event: Mapping[str, Any]) -> bool:
    return event.get("value") is not None


def face_value(event: Mapping[str, Any], what: str, rule: str) -> int:
    """A die face or egg-card value 1–6."""
    value = event.get("value")
    if value is None:
        raise MalformedEvent("value-required", f"Type in the value of the {what} (1 to 6) ({rule}).", rule)
    if isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
        raise MalformedEvent(
            "value-out-of-range", f"The {what} must be a whole number from 1 to 6 ({rule}).", rule
        )
    return value


def turtle_name(event: Mapping[str, Any]) -> str:
    turtle = event.get("turtle")
    if turtle is None:
        raise MalformedEvent("turtle-required", "Say which turtle moves first (MA-9).", "MA-9")
    if not isinstance(turtle, str) or turtle not in TURTLE_COLOURS:
        raise MalformedEvent(
            "unknown-turtle",
            f"{turtle!r} is not a turtle colour; the turtles are {', '.join(TURTLE_COLOURS)}.",
            "MA-1",
        )
    return turtle


def claimed_seat(event: Mapping[str, Any]) -> int | None:
    """Optional `seat` of the phone that sent the event; checked against who may act when present."""
    seat = event.get("seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedEvent("invalid-seat", "The seat must be a seat number.")
    return seat
