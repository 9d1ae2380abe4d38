"""Serves the installable web app from pwa/ at `/`, plus the local Swagger UI assets."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Blueprint, Flask, Response, send_from_directory
from werkzeug.routing import PathConverter

PWA_DIR = Path(__file__).resolve().parent.parent.parent / "pwa"
SWAGGER_DIR = Path(swagger_ui_bundle.swagger_ui_path)

blp = Blueprint("pwa", __name__)


class AppPathConverter(PathConverter):
    """A path outside /api/, so the app's files never shadow (or advertise methods on) API URLs."""

    regex = r"(?!api(?:/|$))[^/].*?"


class SheetIdConverter(PathConverter):
    """A sheet id: one path segment that is not the fixed word `template`."""

    regex = r"(?!template$)[^/]+"


def register_path_converter(app: Flask) -> None:
    app.url_map.converters["app_path"] = AppPathConverter
    app.url_map.converters["sheet_id"] = SheetIdConverter


# Files that must be re-checked on every load so a new release reaches phones promptly.
ALWAYS_REVALIDATE = {"index.html", "sw.js", "manifest.webmanifest"}


def _send(directory: Path, path: str) -> Response:
    response = send_from_directory(directory, path)
    if path in ALWAYS_REVALIDATE:
        response.headers["Cache-Control"] = "no-cache"
    if path.endswith(".webmanifest"):
        response.mimetype = "application/manifest+json"
    return response


@blp.get("/")
def index() -> Response:
    return _send(PWA_DIR, "index.html")


@blp.get("/<app_path:path>")
def asset(path: str) -> Response:
    return _send(PWA_DIR, path)


@blp.get("/api/docs/assets/<path:path>")
def swagger_asset(path: str) -> Response:
    return send_from_directory(SWAGGER_DIR, path)
