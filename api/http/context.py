"""Access to the per-app table store from request handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app, request

from api.tables.store import TableStore

if TYPE_CHECKING:
    from api.sheets.library import SheetLibrary
    from api.sheets.store import SheetStore

STORE_KEY = "kibitz.store"
SHEETS_KEY = "kibitz.sheets"
LIBRARY_KEY = "kibitz.sheet_library"


def store() -> TableStore:
    return current_app.extensions[STORE_KEY]  # type: ignore[no-any-return]


def sheet_store() -> SheetStore:
    return current_app.extensions[SHEETS_KEY]  # type: ignore[no-any-return]


def sheet_library() -> SheetLibrary:
    return current_app.extensions[LIBRARY_KEY]  # type: ignore[no-any-return]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None
