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
from marshmallow import RAISE, Schema, fields, validate

from api.contract import view_schemas as views
from api.contract.text_pattern import TEXT_PATTERN, TEXT_RULE
from api.rules.common import events as common
from api.rules.common.seeds import MAX_SAFE_INTEGER
from api.rules.magellan.events import AUCTION_STEPS, MAX_AUCTION_STEPS
from api.rules.magellan.events import EVENT_FIELDS as MAGELLAN_EVENTS
from api.rules.mahe.constants import TURTLE_COLOURS
from api.rules.mahe.events import EVENT_FIELDS as MAHE_EVENTS
from api.rules.mhing.events import EVENT_FIELDS as MHING_EVENTS
from api.rules.registry import GAMES
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
        return fields.Nested(views.BoardSheet, **options)
    if spec.kind == "seat_cards":
        seat = r"^[0-5]$"  # Magellan seats (3 to 6 players, MG-1)
        options["metadata"] = {**options.get("metadata", {}), "x-propertyNames": {"pattern": seat}}
        return fields.Dict(
            keys=fields.String(validate=validate.Regexp(seat)),
            values=fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=9))),
            **options,
        )
    if spec.kind == "steps":
        return fields.List(
            fields.Nested(MagellanAuctionStepSchema),
            validate=validate.Length(min=1, max=MAX_AUCTION_STEPS),
            **options,
        )
    return fields.Nested(MhingHandSchema, **options)


class MagellanAuctionStepSchema(Schema):
    """One step of a Magellan auction entry: a bid or a pass, with the seat of its player (MG-4)."""

    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.OneOf(AUCTION_STEPS))
    seat = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=common.MAX_SEAT),
        metadata={"description": "The seat of the player who bids or passes"},
    )
    amount = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=1),
        metadata={"description": "The bid (MG-4); a pass has none"},
    )


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
            "seat_cards": {"0": [low]},
            "steps": [{"type": "pass", "seat": 0}, {"type": "bid", "seat": 1, "amount": 3}],
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
        for kind, schema in by_kind.items():
            declared = VOCABULARY.get(game, {}).get(kind, {})
            spec.components.schema(schema.__name__, {"example": example(kind, declared)}, schema=schema)
            mapping[kind] = f"#/components/schemas/{schema.__name__}"
        if game != "Table":  # each game's own union, for clients that type one game's events
            spec.components.schema(
                f"{game}Event",
                {
                    "description": f"Every event a {game} table records (besides undo).",
                    "oneOf": [{"$ref": mapping[kind]} for kind in by_kind],
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
            # Each game's union (with its own discriminator), then the undo any table takes.
            "oneOf": [_ref(f"{game}Event") for game in VOCABULARY] + [{"$ref": mapping["undo"]}],
        },
    )
    for body in ("Append", "Preview"):
        spec.components.schemas[body]["properties"]["event"] = _ref(ANY_EVENT)
    register_logged(spec, mapping)
    # The generic body schema the server loads with, and flask-smorest's page metadata: documented
    # by the typed vocabulary and the events list's own paging instead.
    for orphan in ("Event", "PaginationMetadata"):
        spec.components.schemas.pop(orphan, None)


HIDDEN = {"type": "string", "enum": ["hidden"], "description": "Secret until the game is over"}
# Fields the open log masks while the game runs (api.rules.magellan.game.SECRET_EVENT_FIELDS).
MASKED = {"draw": ("MagellanDrawEvent", "cards"), "slide": ("MagellanSlideEvent", "value"),
          "swap": ("MagellanSwapEvent", "draw")}  # fmt: skip


def register_logged(spec: APISpec, mapping: dict[str, str]) -> None:
    """`LoggedEvent`: an event as the log and records show it — as appended, except that an undo
    may carry the fresh seed it drew (`reseed`, `"hidden"` until the game is over) and a secret
    Magellan value reads `"hidden"` while the game runs."""
    logged = dict(mapping)
    components = spec.components.schemas
    for kind, (name, field) in MASKED.items():
        variant = copy.deepcopy(components[name])
        variant["properties"][field] = {"anyOf": [variant["properties"][field], HIDDEN]}
        variant.pop("example", None)
        spec.components.schema(f"Logged{name}", variant)
        logged[kind] = f"#/components/schemas/Logged{name}"
    undo = copy.deepcopy(components[UNDO])
    undo["properties"]["reseed"] = {
        "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER},
            {"type": "string", "pattern": "^(0|[1-9][0-9]{0,18})$", "maxLength": 19},
            HIDDEN,
        ],
        "description": "The fresh seed an undo that reopened a finished game drew (in a "
        "`kibitz-record/3` record its decimal digits as a string: it reaches 2^62)",
    }
    undo.pop("example", None)
    spec.components.schema("LoggedUndoEvent", undo)
    logged["undo"] = "#/components/schemas/LoggedUndoEvent"
    spec.components.schema(
        "LoggedEvent",
        {
            "description": "An event as the log and a record show it.",
            "oneOf": [{"$ref": target} for target in logged.values()],
            "discriminator": {"propertyName": "type", "mapping": logged},
        },
    )


# ---------- what a table shows: each game's public view and legal actions ----------


def game_views() -> dict[str, tuple[type[Schema], type[Schema]]]:
    """(public view, legal actions) per game, as `GET /api/tables/{id}` shows them (MA-*, MG-*, MH-*)."""
    return {
        "mahe": (views.MaheView, views.MaheLegalActions),
        "magellan": (views.MagellanView, views.MagellanLegalActions),
        "mhing": (views.MhingView, views.MhingLegalActions),
    }


OPTIONS = {"mahe": views.MaheOptions, "magellan": views.MagellanOptions, "mhing": views.MhingOptions}
RESULTS = {"mahe": views.MaheResult, "magellan": views.MagellanResult, "mhing": views.MhingResult}


def register_actions(spec: APISpec) -> None:
    """Each game's legal actions: one schema per action type, a union discriminated by `type`."""
    for game, actions in views.ACTIONS.items():
        mapping = {}
        for schema in actions:
            spec.components.schema(schema.__name__, schema=schema)
            event = schema._declared_fields["type"].validate.comparable  # type: ignore[union-attr]
            mapping[event] = f"#/components/schemas/{schema.__name__}"
        spec.components.schema(
            f"{game}Action",
            {
                "description": f"A legal action at a {game} table: the event type it records, with the "
                "choices and odds the referee gives for it.",
                "oneOf": [{"$ref": target} for target in mapping.values()],
                "discriminator": {"propertyName": "type", "mapping": mapping},
            },
        )


def resolve_refs(node: Any) -> Any:
    """Turn the markers schemas leave in `x-` metadata into references, in place: `x-ref` → `$ref`
    (`allOf` + `nullable` when it may be null), `x-one-of` / `x-any-of` → `oneOf` / `anyOf` of refs.
    The marked field's own generic `type` and `additionalProperties` give way to them."""
    if isinstance(node, dict):
        if "x-ref" in node:
            target = _ref(node.pop("x-ref"))
            keep = {k: node[k] for k in ("description", "nullable", "example") if k in node}
            node.clear()
            node.update({"allOf": [target], **keep} if keep.get("nullable") else {**target})
        for marker, keyword in (("x-one-of", "oneOf"), ("x-any-of", "anyOf")):
            if marker in node:
                node[keyword] = [_ref(name) for name in node.pop(marker)]
                node.pop("type", None)
                node.pop("additionalProperties", None)
        for value in node.values():
            resolve_refs(value)
    elif isinstance(node, list):
        for value in node:
            resolve_refs(value)
    return node


def register_streams(spec: APISpec) -> None:
    """The live streams' events as a generator types them: each `data:` a JSON object whose `type`
    says which schema it is (`TableStreamItem`, `GroupStreamItem`: `oneOf` with a discriminator),
    and a JSON Patch's operations (their `value` any JSON value, as RFC 6902 has it)."""
    spec.components.schema(
        "PatchOperation",
        {
            "type": "object",
            "description": "One JSON Patch (RFC 6902) operation, as the stream sends them",
            "properties": {
                "op": {"type": "string", "enum": ["add", "remove", "replace"]},
                "path": {
                    "type": "string",
                    "pattern": "^(/([^~/]|~[01])*)*$",
                    "description": "A JSON Pointer (RFC 6901) into the table: `/state/turn/sum`",
                },
                # Any JSON value (RFC 6902): a part of the table, typed where the table is.
                "value": {"description": "With `add` and `replace`: the new value, any JSON value"},
            },
            "required": ["op", "path"],
            "additionalProperties": False,
        },
    )
    spec.components.schema(
        "StreamProblem",
        {
            "type": "object",
            "description": "A `problem` event: the stream's last word (`record-damaged`: the stored "
            "log was changed outside Kibitz, `seq` the first entry that no longer follows)",
            "properties": {
                "type": {"type": "string", "enum": ["problem"]},
                "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "code": {"type": "string"},
                "detail": {"type": "string"},
                "seq": {"type": "integer"},
                "reason": {"type": "string"},
            },
            "required": ["type", "status", "code", "detail"],
            "additionalProperties": False,
        },
    )
    table_items = {"table": "TableStreamMessage", "patch": "TableStreamPatch", "problem": "StreamProblem"}
    spec.components.schema(
        "TableStreamItem",
        {
            "description": "What the `data:` line of a table stream's event holds, by its `type`",
            "oneOf": [_ref(name) for name in table_items.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {kind: _ref(name)["$ref"] for kind, name in table_items.items()},
            },
        },
    )
    spec.components.schema(
        "GroupStreamItem",
        {
            "description": "What the `data:` line of a group stream's event holds, by its `type`",
            "oneOf": [_ref("GroupStreamMessage")],
            "discriminator": {
                "propertyName": "type",
                "mapping": {kind: _ref("GroupStreamMessage")["$ref"] for kind in views.GROUP_STREAM_EVENTS},
            },
        },
    )


# The player's name as api.http.schemas.PlayerSetupSchema has it (api.http.strict.FreeText).
NAME = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": TEXT_PATTERN,
        "description": f"The player's name. {TEXT_RULE}"}  # fmt: skip


MAHE_PLAYER = {
    "type": "object",
    "required": ["name", "colours"],
    "additionalProperties": False,
    "properties": {
        "name": NAME,
        "colours": {
            "type": "array",
            "minItems": 1,
            "maxItems": 2,
            "uniqueItems": True,
            "items": {"type": "string", "enum": list(TURTLE_COLOURS)},
            "description": "Turtle colours: two each with 2–3 players, one each with 4–7 (MA-2)",
        },
    },
}


def turtles_each(count: int) -> dict[str, Any]:
    """A Mahé player who brings `count` turtle colours (MA-2)."""
    player = copy.deepcopy(MAHE_PLAYER)
    player["properties"]["colours"].update(minItems=count, maxItems=count)
    return player


def register_creation(spec: APISpec) -> None:
    """`CreateTable` as one schema per game (discriminator `game`): its player count (MA-2, MG-3,
    MH-2), what each player brings (Mahé: the turtle colours) and its options with their values."""
    generic = spec.components.schemas["CreateTable"]
    named = {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {"name": NAME},
    }
    mapping = {}
    for game in GAMES.values():
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game.name]}
        typed["properties"]["players"].update(
            minItems=game.min_players,
            maxItems=game.max_players,
            items=copy.deepcopy(MAHE_PLAYER) if game.name == "mahe" else named,
        )
        if game.name == "mahe":  # MA-2: the number of colours each brings follows the player count
            typed["properties"]["players"].update(
                {
                    "if": {"minItems": 4},
                    "then": {"items": turtles_each(1)},
                    "else": {"items": turtles_each(2)},
                }
            )
        typed["properties"]["options"] = _ref(f"{game.name.capitalize()}OptionsRequest")
        name = f"Create{game.name.capitalize()}Table"
        spec.components.schema(name, typed)
        mapping[game.name] = f"#/components/schemas/{name}"
    spec.components.schemas["CreateTable"] = {
        "description": "A new table: the game, its players in seat order, options and an optional seed.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def register_replays(spec: APISpec) -> None:
    """`Replay` becomes a `oneOf` per game (discriminator `game`): each step typed as its table is."""
    generic, generic_step = spec.components.schemas["Replay"], spec.components.schemas["ReplayStep"]
    mapping = {}
    for game, (view, legal) in game_views().items():
        prefix = legal.__name__.removesuffix("LegalActions")
        step = copy.deepcopy(generic_step)
        step["properties"]["state"] = _ref(view.__name__)
        step["properties"]["legal_actions"] = _ref(legal.__name__)
        step["properties"]["result"] = {
            "allOf": [_ref(RESULTS[game].__name__)],
            "nullable": True,
            "description": "Final standings, once finished",
        }
        spec.components.schema(f"{prefix}ReplayStep", step)
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game]}
        typed["properties"]["steps"]["items"] = _ref(f"{prefix}ReplayStep")
        spec.components.schema(f"{prefix}Replay", typed)
        mapping[game] = f"#/components/schemas/{prefix}Replay"
    spec.components.schemas["Replay"] = {
        "description": "The table after each log entry; `state` and `legal_actions` are typed per game.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    del spec.components.schemas["ReplayStep"]


def register_views(spec: APISpec) -> None:
    """`Table` becomes a `oneOf` per game (discriminator `game`), each with its typed view, legal
    actions, options and result; every answer that carries a table (create, read, append, preview,
    409) says so."""
    register_actions(spec)
    register_creation(spec)
    for schema in views.ALSO_REGISTERED:
        if schema.__name__ not in spec.components.schemas:
            spec.components.schema(schema.__name__, schema=schema)
    generic = spec.components.schemas["Table"]
    mapping = {}
    for game, (view, legal) in game_views().items():
        for schema in (view, legal, OPTIONS[game], RESULTS[game]):
            if schema.__name__ not in spec.components.schemas:
                spec.components.schema(schema.__name__, schema=schema)
        name = f"{legal.__name__.removesuffix('LegalActions')}Table"
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game]}
        typed["properties"]["state"] = _ref(view.__name__)
        typed["properties"]["legal_actions"] = _ref(legal.__name__)
        typed["properties"]["options"] = _ref(OPTIONS[game].__name__)
        typed["properties"]["result"] = {
            "allOf": [_ref(RESULTS[game].__name__)],
            "nullable": True,
            "description": "Final standings once finished",
        }
        spec.components.schema(name, typed)
        mapping[game] = f"#/components/schemas/{name}"
    spec.components.schemas["Table"] = {
        "description": "A table as its readers see it; `state` and `legal_actions` are typed per game.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    register_replays(spec)
    spec.components.schema(
        "ValidationErrors",
        {
            "type": "object",
            "description": "Messages per request part and field, nested as the request is",
            "additionalProperties": {
                "oneOf": [{"type": "array", "items": {"type": "string"}}, _ref("ValidationErrors")]
            },
        },
    )
    register_streams(spec)
    # A record is loaded with its unknown keys kept (verify reads what it can) but exported with
    # exactly the fields above: the document names them all.
    spec.components.schemas["Record"]["additionalProperties"] = False
    resolve_refs(spec.components.schemas)
    resolve_refs(spec._paths)  # noqa: SLF001 - parameters and bodies declared in operations
