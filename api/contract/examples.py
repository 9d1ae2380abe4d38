"""Request and response examples shown in the OpenAPI document (the blueprints show them as their
request examples; api.contract.response_examples computes the answers from them)."""

from __future__ import annotations

from typing import Any

from api.rules.magellan.sheet import parse_sheet, sheet_json

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


# Stateless Mahé (api.games.mahe.endpoints): a move on a position.
MAHE_MOVE = {
    "position": {
        "raft": ["green"],
        "track": [[] for _ in range(17)] + [["darkblue", "red", "yellow"]] + [[] for _ in range(3)],
    },
    "turtle": "red",
    "dice": [1, 2, 3],
    "owners": {"red": 0, "yellow": 1, "darkblue": 2, "green": 3},
    "face_up": 5,
}


def example_sheet() -> dict[str, Any]:
    """The example's numbers are shown as EXAMPLE data, not a real board (MG-2: nothing invented)."""
    sheet = parse_sheet({})
    data = sheet_json(sheet)
    data["explorers"]["marco_polo"]["A"]["I"] = {"bags": None, "crowns": 0}
    data["explorers"]["vasco"]["A"]["I"] = {"bags": None, "crowns": 1}
    data["explorers"]["cook"]["A"]["III"] = {"bags": None, "crowns": 40}
    return data


# Stateless Magellan (api.games.magellan.endpoints): an end position to score.
MAGELLAN_SCORE = {
    "sides": {"pizarro": "B"},
    "board_sheet": example_sheet(),
    "first_seat": 1,
    "players": [
        {
            "name": "Red",
            "ships": [
                {"explorer": "magellan", "field": 3},
                {"explorer": "magellan", "field": 2},
                {"explorer": "pizarro", "field": 3},
                {"explorer": "marco_polo", "field": 1},
                {"explorer": "vasco", "field": 1},
            ],
            "money": [8],
            "magellan_piles": [[1, 1, 5], [2, 4]],
            "pizarro": {"draws": [5, 6, 2, 8]},
        },
        {"name": "Blue", "ships": [{"explorer": "cook", "field": 3}], "money": [1, 2, 3, 4, 9]},
        {"name": "Green", "money": []},
    ],
}

# Stateless Mhing (api.games.mhing.endpoints): a hand to score, one to list the waits of, claims.
MHING_SCORE = {
    "groups": ["b3 jk=b4 b5"],
    "hidden": "c5 c5 c5 we we we dr dr jk k2 k2",
    "flowers": "f1",
    "discard": True,
}
MHING_WAITS = {"groups": ["b3 jk=b4 b5"], "hidden": "c5 c5 c5 we we we dr dr k2 k2", "flowers": ""}
MHING_CLAIMS = {
    "discarder": 0,
    "seats": 4,
    "claims": [{"seat": 1, "kind": "sequence"}, {"seat": 3, "kind": "triplet"}],
}
