"""Security headers on every response."""

from __future__ import annotations

from flask import Flask, Response, request

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
