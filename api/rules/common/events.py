"""Event checks that are the same in every game: the event is an object with a known type, a field is
a whole number, the optional sending seat. Kept in one place so each `code` and `detail` (which tests
and the phone app match on) reads the same in every game; field readers with game wording stay in the
game's own events.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from api.rules.errors import MalformedEvent, say

# Fields every event may carry besides its own: its type, and the seat of the phone that sent it.
COMMON_FIELDS = ("type", "seat")
MAX_SEAT = 6  # seven players at most (Mahé)

Kind = Literal["integer", "integers", "string", "object", "hand", "seat_cards", "steps"]


@dataclass(frozen=True)
class Field:
    """One field of an event as the referee reads it: the game's declaration of its vocabulary,
    from which the HTTP layer also builds the documented schema of every event (api.contract.vocabulary).
    Optional fields may be null (the referee reads null as absent)."""

    kind: Kind
    description: str
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


def integer(
    description: str, minimum: int | None = None, maximum: int | None = None, *, required: bool = False
) -> Field:
    return Field("integer", description, required, minimum, maximum)


def integers(description: str, minimum: int, maximum: int, *, required: bool = False) -> Field:
    """A list of whole numbers (card values)."""
    return Field("integers", description, required, minimum, maximum)


def choice(description: str, choices: Sequence[str], *, required: bool = False) -> Field:
    return Field("string", description, required, choices=tuple(choices))


# An event type's fields besides `type` and `seat`.
Fields = Mapping[str, Field]


def event_type(event: Any, title: str, fields: Mapping[str, Fields]) -> str:
    """The event's `type`, which must be one of the game's event types (the keys of `fields`), with no
    field that type does not take — so nothing the referee does not understand is ever recorded.
    `title` names the game in the error."""
    if not isinstance(event, Mapping):
        raise MalformedEvent("event-not-object", "An event must be an object with a type.")
    kind = event.get("type")
    if not isinstance(kind, str):
        raise MalformedEvent("type-required", "The event needs a type.")
    if kind not in fields:
        raise MalformedEvent(
            "unknown-event",
            say(
                "{title} has no event {kind}; it knows {items}.",
                title=title,
                kind=repr(kind),
                items=", ".join(fields),
            ),
        )
    unknown = sorted(str(key) for key in event if key not in COMMON_FIELDS and key not in fields[kind])
    if unknown:
        takes = ", ".join(fields[kind]) or "no fields besides its type"
        raise MalformedEvent(
            "unknown-field",
            say(
                "A {title} {kind} event has no field {items}; it takes {takes}.",
                title=title,
                kind=repr(kind),
                items=", ".join(repr(k) for k in unknown),
                takes=takes,
            ),
        )
    return kind


def str_choice(
    event: Mapping[str, Any],
    key: str,
    choices: Sequence[str],
    missing: str,
    missing_rule: str,
    unknown: str,
    unknown_rule: str,
) -> str:
    """Required string field `key` naming one of `choices`: code `{key}-required` with the sentence
    `missing`, or `unknown-{key}` with `unknown`, a format string given `value` and `choices` (joined)."""
    value = event.get(key)
    if value is None:
        raise MalformedEvent(f"{key}-required", missing, missing_rule)
    if not isinstance(value, str) or value not in choices:
        raise MalformedEvent(
            f"unknown-{key}", unknown.format(value=value, choices=", ".join(choices)), unknown_rule
        )
    return value


def is_int(value: Any) -> TypeGuard[int]:
    """A JSON whole number: Python counts true and false as ints, the rules do not."""
    return isinstance(value, int) and not isinstance(value, bool)


def has(event: Mapping[str, Any], key: str) -> bool:
    """The field is present and not null."""
    return event.get(key) is not None


def claimed_seat(event: Mapping[str, Any]) -> int | None:
    """Optional `seat` of the phone that sent the event; checked against who may act when present."""
    seat = event.get("seat")
    if seat is None:
        return None
    if not is_int(seat):
        raise MalformedEvent("invalid-seat", "The seat must be a seat number.")
    return int(seat)
