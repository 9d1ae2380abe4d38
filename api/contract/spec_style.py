"""How the document spells what apispec would spell in a way code generators misread.

A nullable nested object: apispec writes `anyOf: [{type: object, nullable: true}, {$ref}]` for
OpenAPI 3.0, and openapi-python-client and openapi-typescript then type it as a bare object (the
first branch). `allOf: [{$ref}]` with `nullable: true` is read by both as "that schema, or null".
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Api
from marshmallow import fields


def _nullable(self: Any, field: fields.Field, ret: dict[str, Any]) -> dict[str, Any]:
    if not field.allow_none:
        return {}
    if "$ref" in ret:
        return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
    return {"nullable": True}


def install_spec_style(api: Api) -> None:
    """Before any blueprint registers its schemas (their properties are converted then)."""
    converter = api.ma_plugin.converter
    converter.attribute_functions = [
        _nullable.__get__(converter) if getattr(f, "__name__", "") == "field2nullable" else f
        for f in converter.attribute_functions
    ]
