"""The OpenAPI document of an app, as committed in openapi.yaml. The app is handed in (the command
that writes the file, `python -m api.openapi_doc`, makes it), so the contract never imports api.app."""

from __future__ import annotations

import json
from typing import Any

import yaml
from flask import Flask


def openapi_dict(app: Flask) -> dict[str, Any]:
    api = app.extensions["kibitz.api"]
    # Through JSON: no object shared between two places, so the YAML has no anchors and aliases.
    return dict(json.loads(json.dumps(api.spec.to_dict())))


def render_openapi(app: Flask) -> str:
    return yaml.safe_dump(openapi_dict(app), sort_keys=False, allow_unicode=True, width=100)
