"""Each game's vocabulary in the OpenAPI document: every event type as its own schema, grouped per
game (`oneOf` with a `type` discriminator), with an example each.

The schemas are built from the games' own declarations (`events` of each game's manifest, the same
table the referee checks every event against; a kind of field only one game has comes from its
package, api.games.server.GameDocs.event_kinds), so the document cannot drift from what the
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
from api.games import servers
from api.games.server import GameDocs
from api.rules.common import events as common
from api.rules.common.seeds import MAX_SAFE_INTEGER
from api.rules.registry import MANIFESTS
from api.rules.replay import UNDOES

# Each game's events by its schema prefix (api.rules.manifest.Manifest.events).
VOCABULARY: dict[str, Mapping[str, common.Fields]] = {m.schema_prefix: m.events for m in MANIFESTS.values()}
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


def _docs(prefix: str) -> GameDocs | None:
    """The view schemas of the game whose components start with `prefix` (None for "Table")."""
    return next((g.docs for g in servers().values() if g.manifest.schema_prefix == prefix), None)


def _field(spec: common.Field, docs: GameDocs | None) -> fields.Field:
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
    assert docs is not None, spec.kind
    return docs.event_kinds[spec.kind].field(spec, options)


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
        **{name: _field(spec, _docs(game)) for name, spec in declared.items()},
    }
    meta = type("Meta", (), {"unknown": RAISE})
    return type(f"{game}{_camel(kind)}Event", (Schema,), {**members, "Meta": meta})


def example(kind: str, declared: common.Fields, docs: GameDocs | None = None) -> dict[str, Any]:
    """A well-formed event of this type: each required field at its smallest or first value."""
    event: dict[str, Any] = {"type": kind}
    for name, spec in declared.items():
        if not spec.required:
            continue
        low = spec.minimum if spec.minimum is not None else 1
        if spec.kind == "integer":
            event[name] = low
        elif spec.kind == "integers":
            event[name] = [low]
        elif spec.kind == "string":
            event[name] = spec.choices[0] if spec.choices else ""
        else:
            assert docs is not None, spec.kind
            event[name] = docs.event_kinds[spec.kind].example(low)
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
            example_event = example(kind, declared, _docs(game))
            spec.components.schema(schema.__name__, {"example": example_event}, schema=schema)
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


def masked() -> dict[str, tuple[str, str]]:
    """Event type → (its schema, the field the open log masks while the game runs), every game's."""
    return {
        kind: (f"{g.manifest.schema_prefix}{_camel(kind)}Event", field)
        for g in servers().values()
        for kind, field in g.docs.masked.items()
    }


def register_logged(spec: APISpec, mapping: dict[str, str]) -> None:
    """`LoggedEvent`: an event as the log and records show it — as appended, except that an undo
    may carry the fresh seed it drew (`reseed`, `"hidden"` until the game is over) and a secret
    Magellan value reads `"hidden"` while the game runs."""
    logged = dict(mapping)
    components = spec.components.schemas
    for kind, (name, field) in masked().items():
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


def game_views() -> dict[str, GameDocs]:
    """Each game's view schemas, as `GET /api/tables/{id}` shows them (MA-*, MG-*, MH-*)."""
    return {name: g.docs for name, g in servers().items()}


def register_actions(spec: APISpec) -> None:
    """Each game's legal actions: one schema per action type, a union discriminated by `type`."""
    for server in servers().values():
        game = server.manifest.schema_prefix
        mapping = {}
        for schema in server.docs.actions:
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
        if node.pop("x-private-views", False):  # every game's private view (GameDocs.private)
            node["x-one-of"] = [d.private.__name__ for d in game_views().values() if d.private is not None]
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


def register_creation(spec: APISpec) -> None:
    """`CreateTable` as one schema per game (discriminator `game`): its player count (MA-2, MG-3,
    MH-2), what each player brings (GameDocs.players: Mahé's turtle colours) and its options."""
    generic = spec.components.schemas["CreateTable"]
    named = {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {"name": NAME},
    }
    mapping = {}
    for server in servers().values():
        game, docs = server.manifest, server.docs
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game.id]}
        players = typed["properties"]["players"]
        players.update(minItems=game.min_players, maxItems=game.max_players, items=named)
        if docs.players is not None:  # what each player brings besides a name
            docs.players(players, named)
        typed["properties"]["options"] = _ref(docs.options_request.__name__)
        name = f"Create{game.schema_prefix}Table"
        spec.components.schema(name, typed)
        mapping[game.id] = f"#/components/schemas/{name}"
    spec.components.schemas["CreateTable"] = {
        "description": "A new table: the game, its players in seat order, options and an optional seed.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def register_replays(spec: APISpec) -> None:
    """`Replay` becomes a `oneOf` per game (discriminator `game`): each step typed as its table is."""
    generic, generic_step = spec.components.schemas["Replay"], spec.components.schemas["ReplayStep"]
    mapping = {}
    for game, docs in game_views().items():
        prefix = docs.legal.__name__.removesuffix("LegalActions")
        step = copy.deepcopy(generic_step)
        step["properties"]["state"] = _ref(docs.view.__name__)
        step["properties"]["legal_actions"] = _ref(docs.legal.__name__)
        step["properties"]["result"] = {
            "allOf": [_ref(docs.result.__name__)],
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
    # The games' private views first (the streams' and seat view's `oneOf` name them), then what
    # every game and the platform register by name.
    privates = [docs.private for docs in game_views().values() if docs.private is not None]
    also = [schema for docs in game_views().values() for schema in docs.also]
    shared, *streams = views.ALSO_REGISTERED
    for schema in [*privates, shared, *also, *streams]:
        if schema.__name__ not in spec.components.schemas:
            spec.components.schema(schema.__name__, schema=schema)
    generic = spec.components.schemas["Table"]
    mapping = {}
    for game, docs in game_views().items():
        for schema in (docs.view, docs.legal, docs.options, docs.result):
            if schema.__name__ not in spec.components.schemas:
                spec.components.schema(schema.__name__, schema=schema)
        name = f"{docs.legal.__name__.removesuffix('LegalActions')}Table"
        typed = copy.deepcopy(generic)
        typed["properties"]["game"] = {"type": "string", "enum": [game]}
        typed["properties"]["state"] = _ref(docs.view.__name__)
        typed["properties"]["legal_actions"] = _ref(docs.legal.__name__)
        typed["properties"]["options"] = _ref(docs.options.__name__)
        typed["properties"]["result"] = {
            "allOf": [_ref(docs.result.__name__)],
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
