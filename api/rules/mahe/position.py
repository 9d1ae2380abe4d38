"""A stateless move calculator for the platform's "what would this roll do?" endpoint.

It runs the engine's own dice (MA-3, MA-6) and track (MA-5, MA-7) code on a position given as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, say
from api.rules.mahe import dice, track
from api.rules.mahe.constants import DIE_FACES, FIELDS, TURTLE_COLOURS

JSON = dict[str, Any]


def _colours(raw: Any, where: str) -> tuple[str, ...]:
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise MalformedEvent(
            "invalid-position", say("{where} must be a list of turtle colours.", where=where)
        )
    for colour in raw:
        if not isinstance(colour, str) or colour not in TURTLE_COLOURS:
            raise MalformedEvent(
                "unknown-turtle",
                say(
                    "{colour} in {where} is not a turtle; the turtles are {items}.",
                    colour=repr(colour),
                    where=where,
                    items=", ".join(TURTLE_COLOURS),
                ),
                "MA-1",
            )
    return tuple(raw)


def parse_position(position: Mapping[str, Any]) -> track.Position:
    """`{"raft": [...], "track": [[bottom → top] × 21]}`; each turtle at most once."""
    if not isinstance(position, Mapping):
        raise MalformedEvent("invalid-position", "The position must be an object with raft and track.")
    raft = _colours(position.get("raft", []), "the raft")
    fields = position.get("track")
    if isinstance(fields, (str, bytes)) or not isinstance(fields, Sequence) or len(fields) != FIELDS:
        raise MalformedEvent(
            "invalid-position", "The track must list exactly 21 fields, bottom → top (MA-1).", "MA-1"
        )
    parsed = track.Position(
        track.palette_order(raft), tuple(_colours(f, f"field {i + 1}") for i, f in enumerate(fields))
    )
    seen: set[str] = set()
    for turtle in parsed.turtles():
        if turtle in seen:
            raise IllegalMove(
                "duplicate-turtle",
                say("The {turtle} turtle appears twice in the position (MA-1).", turtle=turtle),
                "MA-1",
            )
        seen.add(turtle)
    return parsed


def position_json(position: track.Position) -> JSON:
    return {"raft": list(position.raft), "track": [list(stack) for stack in position.track]}


def resolve_move(
    position: Mapping[str, Any],
    turtle: str,
    dice_values: Sequence[int],
    owners: Mapping[str, int] | None = None,
    face_up: int | None = None,
) -> JSON:
    """Carry out (or bust) one complete move: `dice_values` are the dice in order, cards played as dice
    (MA-11) included. `owners` (colour → seat) adds seats; `face_up` is echoed as `card_value` when the
    move passes the beach."""
    board = parse_position(position)
    if not isinstance(turtle, str) or turtle not in TURTLE_COLOURS:
        raise MalformedEvent(
            "unknown-turtle", say("{turtle} is not a turtle colour.", turtle=repr(turtle)), "MA-1"
        )
    if turtle not in board.turtles():
        raise IllegalMove(
            "turtle-not-in-position",
            say("The {turtle} turtle is not on the raft or the track.", turtle=turtle),
            "MA-2",
        )
    if isinstance(dice_values, (str, bytes)) or not isinstance(dice_values, Sequence):
        raise MalformedEvent("invalid-dice", "The dice must be a list of values 1 to 6 (MA-3).", "MA-3")
    values = list(dice_values)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
            raise MalformedEvent(
                "value-out-of-range", "Each die must be a whole number from 1 to 6 (MA-3).", "MA-3"
            )
    status = dice.check_sequence(values)
    if status == "bust":
        new, step = track.bust(board, turtle)
        distance = 0
    else:
        distance = dice.distance(values)
        new, step = track.move(board, turtle, distance)
    taker = step.top if step.passed_beach else None
    decider = board.topmost(turtle)
    return {
        "position": position_json(new),
        "distance": distance,
        "bust": step.bust,
        "from": step.start,
        "to": step.to,
        "passes_beach": step.passed_beach,
        "carried": list(step.carried),
        "left_behind": list(step.left_behind),
        "card_taker_turtle": taker,
        "card_taker_seat": None if taker is None or owners is None else owners.get(taker),
        "card_value": face_up if taker is not None else None,
        "decider_turtle": decider,
        "decider_seat": None if owners is None else owners.get(decider),
        "complete": status != "open",
    }
