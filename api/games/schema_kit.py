"""The building blocks of the games' view schemas (api/games/<game>/view_schemas.py) and of the
shared ones (api.contract.view_schemas): strict schema classes named as their OpenAPI component, the
field shorthands, and what every game's view has (notes, decider, undo, ranking, result, actions).

These schemas only document: the answers are built by the rules (`rules_view`) and dumped as they
are; tests/contract/test_vocabulary.py checks random whole games against them.
"""

from __future__ import annotations

import copy
from typing import Any

from marshmallow import RAISE, Schema, fields, validate


def strict(name: str, members: dict[str, fields.Field], doc: str | None = None) -> type[Schema]:
    """A schema class named as its component (`name`), refusing keys it does not declare."""
    body: dict[str, Any] = {**members, "Meta": type("Meta", (), {"unknown": RAISE})}
    if doc:
        body["__doc__"] = doc
    return type(name, (Schema,), body)


def _meta(description: str | None) -> dict[str, Any]:
    return {"metadata": {"description": description}} if description else {}


def integer(description: str | None = None, *, null: bool = False, optional: bool = False) -> fields.Field:
    return fields.Integer(strict=True, required=not optional, allow_none=null, **_meta(description))


def number(description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Float(required=True, allow_none=null, **_meta(description))


def text(
    description: str | None = None, *, null: bool = False, one_of: Any = None, optional: bool = False
) -> fields.Field:
    check = validate.OneOf(list(one_of)) if one_of is not None else None
    return fields.String(required=not optional, allow_none=null, validate=check, **_meta(description))


def flag(description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Boolean(required=True, allow_none=null, **_meta(description))


def listing(item: fields.Field, description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.List(item, required=True, allow_none=null, **_meta(description))


def nested(schema: type[Schema], description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Nested(schema, required=True, allow_none=null, **_meta(description))


def items(schema: type[Schema], description: str | None = None, *, null: bool = False) -> fields.Field:
    return listing(fields.Nested(schema), description, null=null)


def ints(description: str | None = None, *, null: bool = False) -> fields.Field:
    return listing(fields.Integer(strict=True), description, null=null)


def texts(description: str | None = None, *, null: bool = False, one_of: Any = None) -> fields.Field:
    check = validate.OneOf(list(one_of)) if one_of is not None else None
    return listing(fields.String(validate=check), description, null=null)


def ref(name: str) -> dict[str, str]:
    """A reference from a Raw field (apispec keeps only `x-` metadata there; api.contract.vocabulary
    turns it into a `$ref` once every component is registered)."""
    return {"x-ref": name}


def kind(value: str) -> fields.Field:
    return fields.String(required=True, validate=validate.Equal(value))


# ---------- shared by every game ----------

NOTE_VALUE = {"oneOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]}

Note = strict(
    "Note",
    {
        "code": text("Stable; translate by it"),
        "rule": text("e.g. MA-3", null=True, optional=True),
        "text": text("The note in the language asked for (Accept-Language)"),
        "template": text("The English sentence with {placeholders} for `params`: the message id"),
        "params": fields.Dict(
            keys=fields.String(),
            values=fields.Raw(metadata=NOTE_VALUE),
            required=True,
            metadata={"description": "The values the sentence puts in (names, numbers), by placeholder"},
        ),
    },
    "A referee note beside the legal actions, with the rule it applies.",
)
Decider = strict(
    "Decider",
    {"seat": integer(), "name": text(), "reason": text("Why this player decides, in English, with the rule")},
    "Who decides next and why.",
)
Undo = strict("UndoPossible", {"possible": flag("Whether an undo would take something back")})


def notes() -> fields.Field:
    return items(Note)


def undo() -> fields.Field:
    return nested(Undo)


def ranked(game: str, score: dict[str, fields.Field]) -> type[Schema]:
    return strict(
        f"{game}Ranking",
        {"seat": integer(), "name": text(), "place": integer("1 for the winner(s)"), **score},
    )


def result(game: str, ranking: type[Schema], decided_by: list[str], **more: fields.Field) -> type[Schema]:
    return strict(
        f"{game}Result",
        {
            "winners": ints("Seats of the winners"),
            "ranking": items(ranking),
            "decided_by": text("What decided the winner", one_of=decided_by),
            "explanation": text("The result in one English sentence"),
            **more,
        },
        f"A finished {game} game's standings.",
    )


def action(game: str, event: str, members: dict[str, fields.Field]) -> type[Schema]:
    camel = "".join(part.capitalize() for part in event.split("_"))
    return strict(f"{game}{camel}Action", {"type": kind(event), **members})


def optional_copy(schema: type[Schema], name: str, nullable: tuple[str, ...] = ()) -> type[Schema]:
    """The same fields, none required: what a request may send (defaults fill in the rest; the
    `nullable` ones may also be null, read as left out)."""
    members = {}
    for key, field in schema._declared_fields.items():
        loose = copy.copy(field)
        loose.required = False
        loose.allow_none = field.allow_none or key in nullable
        members[key] = loose
    return strict(name, members, f"{schema.__name__} as a request sends it: every key optional.")
