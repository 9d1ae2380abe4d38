"""Every whole number in the document has bounds a JavaScript client keeps exactly.

JavaScript reads JSON numbers as doubles: whole numbers are exact up to 2^53 − 1. So every integer
schema gets a `minimum` and a `maximum` within ±(2^53 − 1) — its real range where it has one: a seat
is 0 … 6 (a Mahé table has at most 7 players; Magellan and Mhing at most 6, seats 0 … 5), other
numbers keep the range their field declares, and only what has no natural bound gets ±(2^53 − 1).
The server refuses larger numbers in any request (api.http.strict).
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec

from api.rules.common.seeds import MAX_SAFE_INTEGER
from api.rules.registry import MANIFESTS

# Properties (or items of list properties) that name a seat, by name across every schema.
SEAT_NAMES = frozenset(
    {
        "seat", "first_seat", "winner", "winners", "discarder", "discarders", "auctioneer", "dealer",
        "mover", "next_seat", "high_bidder", "pizarro_seat", "decider_seat", "card_taker_seat",
        "beach_taken_by", "from_seat", "last_winner", "card_to", "scoring_order", "skipped",
        "cards_played_by",
    }
)  # fmt: skip
MOST_SEATS = {m.schema_prefix: m.max_players for m in MANIFESTS.values()}
SKIP = ("example", "examples", "default", "enum", "const")


def _is_integer(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "integer" or (isinstance(kind, list) and "integer" in kind)


def _bound(node: Any, seats: int, seat: bool) -> None:
    if isinstance(node, dict):
        if _is_integer(node):
            low, high = (0, seats - 1) if seat else (-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
            node["minimum"] = max(node.get("minimum", low), -MAX_SAFE_INTEGER if not seat else low)
            node["maximum"] = min(node.get("maximum", high), MAX_SAFE_INTEGER if not seat else high)
        for key, value in node.items():
            if key in SKIP:
                continue
            if key == "properties" and isinstance(value, dict):
                for name, inner in value.items():
                    _bound(inner, seats, name in SEAT_NAMES)
            elif key in ("items", "anyOf", "oneOf", "allOf", "schema", "additionalProperties"):
                _bound(value, seats, seat and key != "additionalProperties")
            else:
                _bound(value, seats, False)
    elif isinstance(node, list):
        for value in node:
            _bound(value, seats, seat)


def seats_of(component: str) -> int:
    """How many seats a schema's game has at most (by its name), 7 when it is any game's."""
    return next((count for game, count in MOST_SEATS.items() if component.startswith(game)), 7)


def bound_integers(spec: APISpec) -> None:
    """Bound every integer schema of the registered paths and components (see the module docstring)."""
    for name, schema in spec.components.schemas.items():
        _bound(schema, seats_of(name), False)
    for item in spec._paths.values():  # noqa: SLF001 - apispec keeps registered paths here
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in [*operation.get("parameters", []), *item.get("parameters", [])]:
                if isinstance(parameter, dict) and "schema" in parameter:
                    _bound(parameter["schema"], 7, parameter.get("name") in SEAT_NAMES)
            _bound(operation.get("requestBody", {}), 7, False)
            _bound(operation.get("responses", {}), 7, False)
    for parameter in spec.components.parameters.values():
        _bound(parameter.get("schema"), 7, parameter.get("name") in SEAT_NAMES)
    for response in spec.components.responses.values():
        _bound(response, 7, False)
