"""Serves the installable web app from the build folder (var/static/, api/phone/static_build.py)
through WhiteNoise, plus the local Swagger UI assets.

Hashed names are immutable (a year, never revalidated); the plain names (`/`, sw.js, the manifest,
icons, rules pages) are revalidated on every load so a release reaches phones at once. A browser that
accepts brotli or gzip gets the precompressed sibling.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import swagger_ui_bundle
from flask import Blueprint, Flask, Response, send_from_directory
from werkzeug.routing import PathConverter
from whitenoise import WhiteNoise

from api.http.security import APP_CSP
from api.phone import static_build

SWAGGER_DIR = Path(swagger_ui_bundle.swagger_ui_path)
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}

blp = Blueprint("pwa", __name__)


class AppPathConverter(PathConverter):
    """A path outside /api/, so the app's files never shadow (or advertise methods on) API URLs."""

    regex = r"(?!api(?:/|$))[^/].*?"


class SheetIdConverter(PathConverter):
    """A sheet id: one path segment that is not one of the fixed words `template`, `library`."""

    regex = r"(?!(?:template|library)$)[^/]+"


def register_path_converter(app: Flask) -> None:
    app.url_map.converters["app_path"] = AppPathConverter
    app.url_map.converters["sheet_id"] = SheetIdConverter


class AppFiles(WhiteNoise):  # type: ignore[misc]
    """WhiteNoise for reads only: any other method goes on to Flask, which answers problem+json."""

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return self.application(environ, start_response)
        return super().__call__(environ, start_response)


def is_hashed(url: str) -> bool:
    return bool(static_build.HASHED.search(url))


def serve_static(app: Flask) -> None:
    """Puts WhiteNoise in front of the app: files of the build folder, everything else to Flask."""
    build = static_build.ensure_built()
    # The page's import map is an inline script: the policy names it by its hash.
    page_csp = APP_CSP.replace("script-src 'self'", f"script-src 'self' {build.csp_hash}")

    def headers(found: Any, path: str, url: str) -> None:
        found["Cache-Control"] = IMMUTABLE if is_hashed(url) else REVALIDATE
        for name, value in SECURITY_HEADERS.items():
            found[name] = value
        found["Content-Security-Policy"] = page_csp if url.endswith((".html", "/")) else APP_CSP

    app.wsgi_app = AppFiles(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(static_build.STATIC_DIR),
        index_file=True,
        max_age=None,
        allow_all_origins=False,
        add_headers_function=headers,
        mimetypes={".webmanifest": "application/manifest+json"},
    )


@blp.get("/api/docs/assets/<path:path>")
def swagger_asset(path: str) -> Response:
    return send_from_directory(SWAGGER_DIR, path)
