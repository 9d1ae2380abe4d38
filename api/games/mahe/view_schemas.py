"""What a Mahé table shows, typed field by field for the OpenAPI document (MA-*)."""

from __future__ import annotations

import copy
from typing import Any

from marshmallow import fields, validate

from api.games.schema_kit import (
    Decider,
    action,
    flag,
    integer,
    ints,
    items,
    kind,
    listing,
    nested,
    notes,
    number,
    optional_copy,
    ranked,
    ref,
    result,
    strict,
    text,
    texts,
    undo,
)
from api.rules.mahe.constants import TURTLE_COLOURS

COLOUR = fields.String(validate=validate.OneOf(TURTLE_COLOURS))
MaheDie = strict(
    "MaheDie",
    {"source": text("A rolled die or an egg card played as a die (MA-11)", one_of=["die", "card"]),
     "value": integer()},
)  # fmt: skip
MahePlayer = strict(
    "MahePlayer",
    {
        "seat": integer(),
        "name": text(),
        "colours": listing(COLOUR, "The player's turtles (MA-2)"),
        "eggs": integer("Eggs, shown once the game is over (MA-7)", null=True),
        "cards": ints("Egg cards, shown once the game is over", null=True),
        "card_count": integer(),
        "beach": flag("Holds the beach card (MA-8)"),
    },
)
MaheTurn = strict(
    "MaheTurn",
    {
        "seat": integer("Whose turn it is"),
        "sum": integer("Sum of the dice so far (MA-3)"),
        "dice": items(MaheDie),
        "moves_done": integer(),
        "turtle": text("The moving turtle", null=True),
        "turtle_order": texts("Turtles to move this turn, in order", null=True),
        "cards_played_by": ints("Seats that played an egg card as a die (MA-11)"),
    },
)
MaheCardTaken = strict(
    "MaheCardTaken", {"seat": integer(), "value": integer(), "beach": flag("It was the beach card")}
)
MaheMove = strict(
    "MaheMove",
    {
        "seat": integer(),
        "turtle": text(),
        "dice": items(MaheDie),
        "distance": integer(),
        "from": integer("0 = the raft"),
        "to": integer("0 = the raft"),
        "bust": flag("MA-6"),
        "carried": texts("Turtles carried along (MA-5)"),
        "left_behind": texts(),
        "passed_beach": flag(),
        "game_over": flag(),
        "card": nested(MaheCardTaken, "Who took the face-up card (MA-7)", null=True),
    },
)
MaheRanking = ranked("Mahe", {"eggs": integer(), "cards": integer()})
MaheResult = result("Mahe", MaheRanking, ["eggs"])
MaheOptions = strict(
    "MaheOptions",
    {
        "chance": text("Who rolls: the players (`physical`) or the server (`digital`, MA-12)",
                       one_of=["physical", "digital"]),
        "egg_dice_variant": flag("MA-11"),
        "first_seat": integer("Who starts (MA-2)"),
    },
)  # fmt: skip
MaheView = strict(
    "MaheView",
    {
        "game": kind("mahe"),
        "options": nested(MaheOptions),
        "players": items(MahePlayer, "Seats, turtles, cards (MA-7)"),
        "raft": listing(COLOUR, "Turtles on the raft (MA-2)"),
        "track": listing(fields.List(COLOUR), "21 fields, stacks bottom first"),
        "face_up": integer("The face-up egg card (MA-7)", null=True),
        "pile_count": integer(),
        "set_aside_count": integer(),
        "box": ints("Egg cards out of the game"),
        "beach_exposed": flag(),
        "beach_taken_by": integer(null=True),
        "phase": text(one_of=["reveal_card", "choose_turtle", "roll", "decide", "finished"]),
        "turn": nested(MaheTurn),
        "last_move": nested(MaheMove, null=True),
        "draws": integer("Server draws so far (MA-12)"),
        "result": nested(MaheResult, null=True),
    },
)
MaheOutcome = strict(
    "MaheOutcome",
    {
        "value": integer(),
        "sum": integer(),
        "distance": integer(),
        "to": integer(),
        "bust": flag(),
        "must_stop": flag(),
        "passes_beach": flag(),
        "card_to": integer("Seat that would take the face-up card", null=True),
    },
    "What one value of this die or card would do.",
)
MAHE_ACTIONS = [
    action("Mahe", "reveal_card", {"values": ints("Egg card values still possible", null=True)}),
    action("Mahe", "choose_turtle", {"turtles": listing(COLOUR)}),
    action(
        "Mahe",
        "die",
        {
            "values": ints("Values possible (null: any)", null=True),
            "outcomes": items(MaheOutcome),
            "bust_chance": number(),
        },
    ),
    action(
        "Mahe",
        "play_card",
        {"cards": ints("Egg cards that may be played (MA-11)"), "outcomes": items(MaheOutcome)},
    ),
    action(
        "Mahe",
        "stop",
        {"distance": integer(), "to": integer(), "passes_beach": flag(), "card_to": integer(null=True)},
    ),
]
MaheLegalActions = strict(
    "MaheLegalActions",
    {
        "phase": text(one_of=["reveal_card", "choose_turtle", "roll", "decide", "finished"]),
        "decider": nested(Decider, "Who decides and why (MA-4)", null=True),
        "mover": integer(null=True),
        "turtle": text(null=True),
        "actions": listing(fields.Raw(metadata=ref("MaheAction"))),
        "notes": notes(),
        "undo": undo(),
    },
)
MahePrivateView = strict(
    "MahePrivateView",
    {
        "seat": integer(),
        "name": text(),
        "cards": ints("The own face-down egg cards (MA-7)"),
        "card_count": integer(),
        "eggs": integer(),
        "beach": flag(),
    },
)
# Maps whose keys are a fixed list, as objects with those keys (a request's keys are checked too).
TurtleOwners = strict(
    "TurtleOwners",
    {c: fields.Integer(strict=True, validate=validate.Range(min=0, max=6)) for c in TURTLE_COLOURS},
    "Turtle colour → seat",
)
MaheOptionsRequest = optional_copy(MaheOptions, "MaheOptionsRequest")


# ---------- what each player brings to a new table (CreateTable, MA-2) ----------


def _player(name: dict[str, Any], count: tuple[int, int]) -> dict[str, Any]:
    """A Mahé player who brings `count` (fewest, most) turtle colours (MA-2)."""
    return {
        "type": "object",
        "required": ["name", "colours"],
        "additionalProperties": False,
        "properties": {
            "name": copy.deepcopy(name),
            "colours": {
                "type": "array",
                "minItems": count[0],
                "maxItems": count[1],
                "uniqueItems": True,
                "items": {"type": "string", "enum": list(TURTLE_COLOURS)},
                "description": "Turtle colours: two each with 2–3 players, one each with 4–7 (MA-2)",
            },
        },
    }


def creation_players(players: dict[str, Any], named: dict[str, Any]) -> None:
    """Each player's turtle colours; how many each brings follows the player count (MA-2)."""
    name = named["properties"]["name"]
    players["items"] = _player(name, (1, 2))
    players.update(
        {
            "if": {"minItems": 4},
            "then": {"items": _player(name, (1, 1))},
            "else": {"items": _player(name, (2, 2))},
        }
    )
