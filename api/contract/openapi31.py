"""The document is OpenAPI 3.1: `null` is a JSON Schema type there, so "this schema or null" is said
in a way every validator and generator reads alike.

OpenAPI 3.0's `nullable: true` counts only beside a `type` in the same schema object (3.0.3); next
to `allOf`/`oneOf`/`anyOf` of references strict validators ignore it and refuse real `null`
answers. The schemas across `api/http` keep saying `nullable: true` (marshmallow's `allow_none`,
hand-written dictionaries); this last pass over the registered document turns each into 3.1:

* `type: T` → `type: [T, "null"]`; with an `enum`: `anyOf: [{type: T, enum}, {type: "null"}]`,
* `allOf: [$ref]` → `anyOf: [$ref, {type: "null"}]`,
* `oneOf`/`anyOf` → one more branch `{type: "null"}`,
* no type at all (any JSON value) → nothing to add.

Marshmallow metadata passes only `x-` keys through, so a string holding JSON says what it holds as
`x-contentMediaType` / `x-contentSchema`, and a map's keys as `x-propertyNames`; they become JSON
Schema's own `contentMediaType` / `contentSchema` / `propertyNames` here.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec

NULL = {"type": "null"}
SKIP = ("example", "examples", "default", "enum", "const")
STANDARD = {
    "x-contentMediaType": "contentMediaType",
    "x-contentSchema": "contentSchema",
    "x-propertyNames": "propertyNames",
}


def null_allowed(node: dict[str, Any]) -> None:
    """Rewrite one schema object that says `nullable` (in place)."""
    if not node.pop("nullable", False):
        return
    if isinstance(node.get("type"), str) and "enum" in node:
        # One enum or null: generators make one enum of it (a type list with `null` in the enum
        # made openapi-python-client write three identical enums).
        choices = {"type": node.pop("type"), "enum": [v for v in node.pop("enum") if v is not None]}
        node["anyOf"] = [choices, dict(NULL)]
    elif isinstance(node.get("type"), str):
        node["type"] = [node["type"], "null"]
    elif "allOf" in node:
        parts = node.pop("allOf")
        node["anyOf"] = [parts[0] if len(parts) == 1 else {"allOf": parts}, dict(NULL)]
    elif "oneOf" in node and "discriminator" not in node:
        node["oneOf"] = [*node["oneOf"], dict(NULL)]
    elif "anyOf" in node:
        node["anyOf"] = [*node["anyOf"], dict(NULL)]
    elif "oneOf" in node:
        inner = {k: node.pop(k) for k in ("oneOf", "discriminator")}
        node["anyOf"] = [inner, dict(NULL)]


def to_openapi_31(node: Any) -> Any:
    """Every `nullable` under `node`, rewritten (see the module docstring); examples untouched."""
    if isinstance(node, dict):
        if "nullable" in node:
            null_allowed(node)
        for marker, keyword in STANDARD.items():
            if marker in node:
                node[keyword] = node.pop(marker)
        for key, value in node.items():
            if key not in SKIP:
                to_openapi_31(value)
    elif isinstance(node, list):
        for value in node:
            to_openapi_31(value)
    return node


def speak_openapi_31(spec: APISpec) -> None:
    """The registered paths and components, rewritten once all are in."""
    to_openapi_31(spec._paths)  # noqa: SLF001 - apispec keeps registered paths here
    components = spec.components
    for registry in (components.schemas, components.parameters, components.responses, components.headers):
        to_openapi_31(registry)
