"""Every example in openapi.yaml is valid against its schema under a strict validator: JSON Schema
2020-12 (OpenAPI 3.1's dialect) on the document as it is — no translation of its keywords first —
with formats checked. Media-type, parameter, header and schema examples alike."""

from __future__ import annotations

from typing import Any

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.openapi_document import openapi_document

DOC = openapi_document()
BASE = "urn:kibitz:openapi"
REGISTRY: Registry[Any] = Registry().with_resource(BASE, Resource(contents=DOC, specification=DRAFT202012))
SCHEMA_WORDS = {"type", "properties", "oneOf", "anyOf", "allOf", "$ref", "items", "enum"}


def resolved(schema: dict[str, Any]) -> dict[str, Any]:
    """References inside a local schema, made absolute (the schema is not at the document's root)."""
    if isinstance(schema, dict):
        return {
            k: (BASE + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else resolved(v))
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [resolved(v) for v in schema]
    return schema


def cases(node: Any, where: str = "#") -> list[tuple[str, dict[str, Any], Any]]:
    """(pointer, schema, example) for every example in the document."""
    found: list[tuple[str, dict[str, Any], Any]] = []
    if isinstance(node, dict):
        examples = []
        if "example" in node:
            examples.append(node["example"])
        if isinstance(node.get("examples"), dict):
            examples += [e["value"] for e in node["examples"].values() if "value" in e]
        if isinstance(node.get("schema"), dict):  # a media type, a parameter, a header
            found += [(where, node["schema"], example) for example in examples]
        elif SCHEMA_WORDS & set(node):  # a schema with its own example
            own = {k: v for k, v in node.items() if k not in ("example", "examples")}
            found += [(where, own, example) for example in examples]
        for key, value in node.items():
            if key not in ("example", "examples"):
                found += cases(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += cases(value, f"{where}/{index}")
    return found


def test_every_example_is_valid_against_its_schema() -> None:
    found = cases(DOC)
    assert len(found) > 300
    wrong = []
    for where, schema, example in found:
        check = jsonschema.Draft202012Validator(
            resolved(schema), registry=REGISTRY, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in check.iter_errors(example)]
        if errors:
            wrong.append((where, errors[:2]))
    assert not wrong, wrong[:10]


def test_a_null_result_is_valid_where_the_document_allows_it() -> None:
    """The case strict validators refused under 3.0 (`nullable` beside `allOf`): a running table's
    `result: null` is valid, a finished one's standings too, and null is no MaheResult by itself."""
    schemas = DOC["components"]["schemas"]
    result = jsonschema.Draft202012Validator(
        resolved(schemas["MaheTable"]["properties"]["result"]), registry=REGISTRY
    )
    assert result.is_valid(None)
    standings = jsonschema.Draft202012Validator(
        resolved({"$ref": "#/components/schemas/MaheResult"}), registry=REGISTRY
    )
    assert not standings.is_valid(None)


def test_the_creation_schema_says_how_many_turtles_each_mahe_player_brings() -> None:
    """MA-2: two colours each with 2–3 players, one each with 4–7 — said by the schema, so a
    request it calls valid is not refused by the rules for its colour counts."""
    players = jsonschema.Draft202012Validator(
        resolved(DOC["components"]["schemas"]["CreateMaheTable"]["properties"]["players"]), registry=REGISTRY
    )
    colours = ["red", "green", "yellow", "black", "purple", "lightblue", "darkblue"]
    assert players.is_valid([{"name": "A", "colours": colours[:2]}, {"name": "B", "colours": colours[2:4]}])
    assert not players.is_valid([{"name": "A", "colours": ["red"]}, {"name": "B", "colours": ["green"]}])
    assert players.is_valid([{"name": c, "colours": [c]} for c in colours[:4]])
    assert not players.is_valid([{"name": c, "colours": [c, "purple"]} for c in colours[:4]])
