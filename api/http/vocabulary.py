"""Each game's vocabulary in the OpenAPI document: every event type as its own schema, grouped per
game (`oneOf` with a `type` discriminator), with an example each.

The schemas are built from the games' own declarations (`EVENT_FIELDS` in api/rules/<game>/events.py,
the same table the referee checks every event against), so the document cannot drift from what the
engines understand; tests/contract/test_vocabulary.py checks both directions on random games.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from apispec import APISpec
from marshmallow import INCLUDE, RAISE, Schema, fields, validate

from api.rules.common import events as common
from api.rules.magellan.events import EVENT_FIELDS as MAGELLAN_EVENTS
from api.rules.mahe.events import EVENT_FIELDS as MAHE_EVENTS
from api.rules.mhing.events import EVENT_FIELDS as MHING_EVENTS
from api.rules.replay import UNDOES

VOCABULARY: dict[str, Mapping[str, common.Fields]] = {
    "Mahe": MAHE_EVENTS,
    "Magellan": MAGELLAN_EVENTS,
    "Mhing": MHING_EVENTS,
}
UNDO = "UndoEvent"
# The entry an undo takes back (api.rules.replay.undo_target).
UNDOES_FIELD = common.integer(
    "The log position (seq) of the entry this undo takes back; it must be the last entry in effect "
    "(else 422 `undo-not-last`). Left out: the last entry in effect at `expected_version`.",
    minimum=1,
)
ANY_EVENT = "AnyEvent"


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _field(spec: common.Field) -> fields.Field:
    """The marshmallow field of one declared event field (optional ones may be null)."""
    options: dict[str, Any] = {
        "required": spec.required,
        "allow_none": not spec.required,
        "metadata": {"description": spec.description},
    }
    limits = validate.Range(min=spec.minimum, max=spec.maximum)
    if spec.kind == "integer":
        return fields.Integer(strict=True, validate=limits, **options)
    if spec.kind == "integers":
        return fields.List(fields.Integer(strict=True, validate=limits), **options)
    if spec.kind == "string":
        return fields.String(validate=validate.OneOf(spec.choices), **options)
    if spec.kind == "object":
        return fields.Dict(**options)
    return fields.Nested(MhingHandSchema, **options)


CARDS = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}


class MhingHandSchema(Schema):
    """A Mhing hand as events carry it (MH-10 notation per part)."""

    class Meta:
        unknown = RAISE

    groups = fields.List(
        fields.Raw(metadata=CARDS),
        metadata={"description": "Laid-out groups, each in MH-10 notation, e.g. `b3 jk=b4 b5`"},
    )
    hidden = fields.Raw(required=True, metadata={**CARDS, "description": "The cards in the hand"})
    flowers = fields.Raw(metadata={**CARDS, "description": "Flower cards"})
    discard = fields.Boolean(metadata={"description": "Whether the last card was a discard"})


def event_schema(game: str, kind: str, declared: common.Fields) -> type[Schema]:
    """The schema of one event type: its `type`, the optional sending `seat`, its own fields."""
    members: dict[str, Any] = {
        "type": fields.String(required=True, validate=validate.Equal(kind)),
        "seat": fields.Integer(
            strict=True,
            allow_none=True,
            validate=validate.Range(min=0, max=common.MAX_SEAT),
            metadata={"description": "The seat of the player who records it"},
        ),
        **{name: _field(spec) for name, spec in declared.items()},
    }
    meta = type("Meta", (), {"unknown": RAISE})
    return type(f"{game}{_camel(kind)}Event", (Schema,), {**members, "Meta": meta})


def example(kind: str, declared: common.Fields) -> dict[str, Any]:
    """A well-formed event of this type: each required field at its smallest or first value."""
    event: dict[str, Any] = {"type": kind}
    for name, spec in declared.items():
        if not spec.required:
            continue
        low = spec.minimum if spec.minimum is not None else 1
        event[name] = {
            "integer": low,
            "integers": [low],
            "string": spec.choices[0] if spec.choices else "",
            "object": {"explorers": {}},
            "hand": {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"},
        }[spec.kind]
    return event


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def schemas() -> dict[str, dict[str, type[Schema]]]:
    """Every event schema by game and event type (the undo of any table under "Table")."""
    built = {
        game: {kind: event_schema(game, kind, declared) for kind, declared in vocabulary.items()}
        for game, vocabulary in VOCABULARY.items()
    }
    built["Table"] = {"undo": event_schema("", "undo", {UNDOES: UNDOES_FIELD})}
    return built


def register_vocabulary(spec: APISpec) -> None:
    """Add every event schema, each game's union (for reading) and the union of all (flat, for tools
    that resolve the discriminator), and point the append and preview bodies' `event` at it."""
    mapping: dict[str, str] = {}
    for game, by_kind in schemas().items():
        game_refs = []
        for kind, schema in by_kind.items():
            declared = VOCABULARY.get(game, {}).get(kind, {})
            spec.components.schema(schema.__name__, {"example": example(kind, declared)}, schema=schema)
            game_refs.append(_ref(schema.__name__))
            mapping[kind] = f"#/components/schemas/{schema.__name__}"
        if game != "Table":
            spec.components.schema(
                f"{game}Event",
                {
                    "description": f"Every event a {game} table records (besides undo).",
                    "oneOf": game_refs,
                    "discriminator": {
                        "propertyName": "type",
                        "mapping": {kind: mapping[kind] for kind in by_kind},
                    },
                },
            )
    spec.components.schema(
        ANY_EVENT,
        {
            "description": "An event of the table's game, or an undo. Event types are unique across games.",
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        },
    )
    for body in ("Append", "Preview"):
        spec.components.schemas[body]["properties"]["event"] = _ref(ANY_EVENT)


# ---------- what a table shows: each game's public view and legal actions ----------


class NoteSchema(Schema):
    """A referee note beside the legal actions, with the rule it applies."""

    class Meta:
        unknown = RAISE

    code = fields.String(required=True, metadata={"description": "Stable; translate by it"})
    rule = fields.String(allow_none=True, metadata={"description": "e.g. MA-3"})
    text = fields.String(
        required=True, metadata={"description": "The note in the language asked for (Accept-Language)"}
    )
    template = fields.String(
        required=True,
        metadata={"description": "The English sentence with {placeholders} for `params`: the message id"},
    )
    params = fields.Dict(
        required=True,
        metadata={
            "description": "The values the sentence puts in (names, numbers): translate by `code` with them"
        },
    )


def _action(game: str, kinds: list[str]) -> type[Schema]:
    """A legal action: the event type it records, plus what the game says about it (values, odds)."""
    members = {"type": fields.String(required=True, validate=validate.OneOf(kinds))}
    return type(f"{game}Action", (Schema,), {**members, "Meta": type("Meta", (), {"unknown": INCLUDE})})


def _strict(name: str, members: dict[str, fields.Field]) -> type[Schema]:
    return type(name, (Schema,), {**members, "Meta": type("Meta", (), {"unknown": RAISE})})


def _undo() -> fields.Field:
    return fields.Dict(
        required=True, metadata={"description": "`{possible}`: whether an undo would take something back"}
    )


def _notes() -> fields.Field:
    return fields.List(fields.Nested(NoteSchema), required=True)


def _maybe(field: type[fields.Field], **kwargs: Any) -> fields.Field:
    return field(required=True, allow_none=True, **kwargs)


def _need(field: type[fields.Field], *args: Any, **kwargs: Any) -> fields.Field:
    return field(*args, required=True, **kwargs)


def game_views() -> dict[str, tuple[type[Schema], type[Schema]]]:
    """(public view, legal actions) per game, as `GET /api/tables/{id}` shows them (MA-*, MG-*, MH-*)."""
    mahe_action = _action("Mahe", list(MAHE_EVENTS))
    magellan_action = _action("Magellan", list(MAGELLAN_EVENTS))
    mhing_action = _action("Mhing", list(MHING_EVENTS))
    return {
        "mahe": (
            _strict(
                "MaheView",
                {
                    "game": _need(fields.String, validate=validate.Equal("mahe")),
                    "options": _need(fields.Dict),
                    "players": _need(
                        fields.List, fields.Dict(), metadata={"description": "Seats, turtles, cards (MA-7)"}
                    ),
                    "raft": _need(
                        fields.List, fields.String(), metadata={"description": "Turtles on the raft (MA-2)"}
                    ),
                    "track": _need(
                        fields.List,
                        fields.List(fields.String()),
                        metadata={"description": "21 fields, stacks bottom first"},
                    ),
                    "face_up": _maybe(
                        fields.Integer, metadata={"description": "The face-up egg card (MA-7)"}
                    ),
                    "pile_count": _need(fields.Integer),
                    "set_aside_count": _need(fields.Integer),
                    "box": _need(fields.List, fields.Raw()),
                    "beach_exposed": _need(fields.Boolean),
                    "beach_taken_by": _maybe(fields.Integer),
                    "phase": _need(fields.String),
                    "turn": _need(fields.Dict),
                    "last_move": _maybe(fields.Dict),
                    "draws": _need(fields.Integer, metadata={"description": "Server draws so far (MA-12)"}),
                    "result": _maybe(fields.Dict),
                },
            ),
            _strict(
                "MaheLegalActions",
                {
                    "phase": _need(fields.String),
                    "decider": _maybe(fields.Dict, metadata={"description": "Who decides and why (MA-4)"}),
                    "mover": _maybe(fields.Integer),
                    "turtle": _maybe(fields.String),
                    "actions": _need(fields.List, fields.Nested(mahe_action)),
                    "notes": _notes(),
                    "undo": _undo(),
                },
            ),
        ),
        "magellan": (
            _strict(
                "MagellanView",
                {
                    "game": _need(fields.String, validate=validate.Equal("magellan")),
                    "options": _need(fields.Dict),
                    "phase": _need(fields.Integer, metadata={"description": "1 to 3 (MG-3)"}),
                    "stage": _need(fields.String),
                    "waiting_for": _need(fields.String),
                    "decks": _need(fields.List, fields.Dict()),
                    "card": _maybe(
                        fields.Dict, metadata={"description": "The explorer on auction or sold (MG-4)"}
                    ),
                    "players": _need(fields.List, fields.Dict()),
                    "board": _need(fields.Dict),
                    "history": _need(fields.List, fields.Dict()),
                    "last_winner": _maybe(fields.Integer),
                    "money": _maybe(fields.Dict),
                    "incomes": _need(fields.List, fields.Raw()),
                    "phase_end": _maybe(fields.Dict),
                    "scoring": _maybe(fields.Dict),
                    "board_sheet": _need(fields.Dict),
                    "board_sheet_missing": _need(fields.List, fields.Raw()),
                    "board_sheet_needed_now": _need(fields.List, fields.Raw()),
                    "result": _maybe(fields.Dict),
                },
            ),
            _strict(
                "MagellanLegalActions",
                {
                    "phase": _need(fields.Integer),
                    "stage": _need(fields.String),
                    "step": _need(fields.String),
                    "next": _maybe(fields.Dict),
                    "actors": _need(
                        fields.List,
                        fields.Dict(),
                        metadata={"description": "Who may act, with their actions"},
                    ),
                    "table_actions": _need(fields.List, fields.Nested(magellan_action)),
                    "blocked": _maybe(
                        fields.Dict, metadata={"description": "What the board sheet still needs (MG-2)"}
                    ),
                    "notes": _notes(),
                    "undo": _undo(),
                },
            ),
        ),
        "mhing": (
            _strict(
                "MhingView",
                {
                    "settlement": _need(fields.Integer, metadata={"description": "Variant 1 or 2 (MH-9)"}),
                    "target": _maybe(fields.Integer),
                    "total_points": _maybe(fields.Integer),
                    "players": _need(fields.List, fields.Dict()),
                    "dealer": _need(fields.Integer, metadata={"description": "Who deals (MH-2)"}),
                    "round": _need(fields.Integer),
                    "rounds_played": _need(fields.Integer),
                    "rounds": _need(
                        fields.List, fields.Dict(), metadata={"description": "The latest rounds"}
                    ),
                    "last_round": _maybe(fields.Dict),
                    "finished": _need(fields.Boolean),
                    "ended_by": _maybe(fields.String),
                },
            ),
            _strict(
                "MhingLegalActions",
                {
                    "phase": _need(fields.String),
                    "round": _need(fields.Integer),
                    "dealer": _maybe(fields.Dict),
                    "decider": _maybe(fields.Dict),
                    "actions": _need(fields.List, fields.Nested(mhing_action)),
                    "notes": _notes(),
                    "undo": _undo(),
                },
            ),
        ),
    }


def register_views(spec: APISpec) -> None:
    """`Table` becomes a `oneOf` per game (discriminator `game`), each with its typed view and legal
    actions; every answer that carries a table (create, read, append, preview, 409) says so."""
    generic = spec.components.schemas["Table"]
    mapping = {}
    for game, (view, legal) in game_views().items():
        for schema in (view, legal):
            spec.components.schema(schema.__name__, schema=schema)
        name = f"{schema.__name__.removesuffix('LegalActions')}Table"
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game]}
        typed["properties"]["state"] = _ref(view.__name__)
        typed["properties"]["legal_actions"] = _ref(legal.__name__)
        spec.components.schema(name, typed)
        mapping[game] = f"#/components/schemas/{name}"
    spec.components.schemas["Table"] = {
        "description": "A table as its readers see it; `state` and `legal_actions` are typed per game.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
