"""Rendered table views, kept per (table, version) in this process.

A version of a table never changes once written, so its rendered answer can be reused by every
phone that asks for it — on any app server, since the key says exactly which log position it shows.
Reading a table the many phones at it already read costs one tiny query (the current version) and
no state parsing, rules work or rendering.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import Response, current_app

from api.contract.table import TableSchema
from api.tables.store import TableRow
from api.tables.views import table_view

CAPACITY = 1024
_TABLE_SCHEMA = TableSchema()


class ViewCache:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._bodies: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()

    def get(self, table_id: str, version: int, language: str) -> bytes | None:
        with self._lock:
            body = self._bodies.get((table_id, version, language))
            if body is not None:
                self._bodies.move_to_end((table_id, version, language))
            return body

    def body(self, table: TableRow, language: str) -> bytes:
        """This version's answer, rendered now only if nobody asked for it before."""
        return self.get(table.id, table.version, language) or self.render(table, language)

    def render(self, table: TableRow, language: str) -> bytes:
        """The JSON answer for this table version in `language`, exactly as GET /api/tables/{id}
        renders it."""
        body = current_app.json.response(_TABLE_SCHEMA.dump(table_view(table, language))).get_data()
        key = (table.id, table.version, language)
        with self._lock:
            self._bodies[key] = body
            self._bodies.move_to_end(key)
            while len(self._bodies) > self.capacity:
                self._bodies.popitem(last=False)
        return body


VIEWS_KEY = "kibitz.views"


def views() -> ViewCache:
    """This app's cache (one per app, so two apps on two databases in one process never share)."""
    return current_app.extensions.setdefault(VIEWS_KEY, ViewCache())  # type: ignore[no-any-return]


def json_response(body: bytes, etag: str) -> Response:
    return Response(body, status=200, mimetype="application/json", headers={"ETag": etag})


def json_with_table(fields: Mapping[str, Any], table_body: bytes, status: int) -> Response:
    """`fields` plus "table" as one JSON object, the table's rendered answer spliced in as it is:
    an append renders the new version once, for its own answer and for every phone that reads it."""
    head = json.dumps(dict(fields), separators=(",", ":"))[:-1] + ("," if fields else "")
    return Response(
        head.encode() + b'"table":' + table_body + b"}", status=status, mimetype="application/json"
    )
