"""Render the OpenAPI document that is committed as openapi.yaml: `python -m api.contract.openapi_doc`."""

from __future__ import annotations

import json
from typing import Any

import yaml
from flask import Flask

from api.app import create_app


def openapi_dict(app: Flask) -> dict[str, Any]:
    api = app.extensions["kibitz.api"]
    # Through JSON: no object shared between two places, so the YAML has no anchors and aliases.
    return dict(json.loads(json.dumps(api.spec.to_dict())))


def render_openapi(app: Flask | None = None) -> str:
    app = app or create_app("sqlite://")
    return yaml.safe_dump(openapi_dict(app), sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    print(render_openapi(), end="")
