"""Access to the per-app table store from request handlers."""

from __future__ import annotations

from flask import current_app, request

from api.tables.store import TableStore

STORE_KEY = "kibitz.store"


def store() -> TableStore:
    return current_app.extensions[STORE_KEY]  # type: ignore[no-any-return]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None
