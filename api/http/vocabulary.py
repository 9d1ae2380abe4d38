"""Each game's vocabulary in the OpenAPI document: every event type as its own schema, grouped per
game (`oneOf` with a `type` discriminator), with an example each.

The schemas are built from the games' own declarations (`EVENT_FIELDS` in api/rules/<game>/events.py,
the same table the referee checks every event against), so the document cannot drift from what the
engines understand; tests/contract/test_vocabulary.py checks both directions on random games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apispec import APISpec
from marshmallow import RAISE, Schema, fields, validate

from api.rules.common import events as common
from api.rules.magellan.events import EVENT_FIELDS as MAGELLAN_EVENTS
from api.rules.mahe.events import EVENT_FIELDS as MAHE_EVENTS
from api.rules.mhing.events import EVENT_FIELDS as MHING_EVENTS

VOCABULARY: dict[str, Mapping[str, common.Fields]] = {
    "Mahe": MAHE_EVENTS,
    "Magellan": MAGELLAN_EVENTS,
    "Mhing": MHING_EVENTS,
}
UNDO = "UndoEvent"
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
    built["Table"] = {"undo": event_schema("", "undo", {})}
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
