"""Event checks that are the same in every game: the event is an object with a known type, a field is
a whole number, the optional sending seat. Kept in one place so each `code` and `detail` (which tests
and the phone app match on) reads the same in every game; field readers with game wording stay in the
game's own events.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from api.rules.errors import MalformedEvent


def event_type(event: Any, title: str, types: Sequence[str]) -> str:
    """The event's `type`, which must be one of the game's `types`; `title` names the game in the error."""
    if not isinstance(event, Mapping):
        raise MalformedEvent("event-not-object", "An event must be an object with a type.")
    kind = event.get("type")
    if not isinstance(kind, str):
        raise MalformedEvent("type-required", "The event needs a type.")
    if kind not in types:
        raise MalformedEvent("unknown-event", f"{title} has no event {kind!r}; it knows {', '.join(types)}.")
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
