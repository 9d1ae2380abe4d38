"""Security headers on every response, and whose address a request comes from."""

from __future__ import annotations

import os

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

# 'wasm-unsafe-eval' lets the phone's referee (Pyodide, served from here) compile WebAssembly;
# it allows no JavaScript eval.
APP_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
# Swagger UI's page boots with an inline script and inline styles.
DOCS_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'"
)


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def _headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Referrer-Policy", "no-referrer")
        is_docs = request.path.startswith("/api/docs")
        headers.setdefault("Content-Security-Policy", DOCS_CSP if is_docs else APP_CSP)
        return response


def trust_proxies(app: Flask) -> None:
    """Behind KIBITZ_TRUSTED_PROXIES reverse proxies (0, the default: none), take the client's
    address and scheme from the X-Forwarded-For/-Proto entries those proxies appended.

    Off by default: a client talking to the server directly could otherwise name any address it
    likes and walk around every per-client limit. Set it to the number of proxies in front (1 for
    one nginx), never more: werkzeug's ProxyFix trusts exactly that many entries from the right.
    """
    default = int(os.environ.get("KIBITZ_TRUSTED_PROXIES", "0"))
    count = int(app.config.setdefault("KIBITZ_TRUSTED_PROXIES", default))
    if count > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]
