"""Request and response examples shown in the OpenAPI document."""

from __future__ import annotations

CREATE_TABLE = {
    "game": "mahe",
    "players": [
        {"name": "Eva", "colours": ["red", "yellow"]},
        {"name": "David", "colours": ["darkblue", "green"]},
    ],
    "options": {"chance": "physical", "egg_dice_variant": False, "first_seat": 0},
}

APPEND_DIE = {"expected_version": 3, "event": {"type": "die", "value": 4}}
APPEND_UNDO = {"expected_version": 4, "event": {"type": "undo", "undoes": 4}}

STALE = {
    "type": "urn:kibitz:problem:stale-version",
    "title": "Conflict",
    "status": 409,
    "code": "stale-version",
    "detail": "The table has moved on: you built on log position 3, it is now at 4. "
    "Look at the new state and try again.",
    "table": {"id": "q3v…", "version": 4},
}

ILLEGAL = {
    "type": "urn:kibitz:problem:no-third-die-at-seven",
    "title": "Unprocessable Content",
    "status": 422,
    "code": "no-third-die-at-seven",
    "detail": "The sum is already 7: no third die (MA-3).",
    "rule": "MA-3",
}

NOT_FOUND = {
    "type": "urn:kibitz:problem:table-not-found",
    "title": "Not Found",
    "status": 404,
    "code": "table-not-found",
    "detail": "There is no table with the id 'nope'.",
}

RECORD = {
    "format": "kibitz-record/1",
    "game": "mahe",
    "players": [
        {"name": "Martin", "colours": ["red"]},
        {"name": "Eva", "colours": ["yellow"]},
        {"name": "David", "colours": ["darkblue"]},
        {"name": "Andrea", "colours": ["green"]},
    ],
    "options": {"chance": "physical", "egg_dice_variant": False, "first_seat": 0},
    "seed": 8412,
    "events": [
        {"seq": 1, "event": {"type": "reveal_card", "value": 3}},
        {"seq": 2, "event": {"type": "die", "value": 2}},
        {"seq": 3, "event": {"type": "die", "value": 4}},
        {"seq": 4, "event": {"type": "stop"}},
    ],
    "result": None,
}
