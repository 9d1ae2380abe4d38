"""OpenAPI links: what a created table or sheet answers (its id, its tokens) feeds the operations
that need them, so a code generator or a stateful tester learns the way from the document alone."""

from __future__ import annotations

from typing import Any

from apispec import APISpec

TABLE_ID = {"table_id": "$response.body#/id"}
# The token a link's target needs, as the header a stateful client sends (schemathesis follows
# `header.` parameters with embedded runtime expressions).
WRITE = {"header.Authorization": "Bearer {$response.body#/write_token}"}
FIRST_SEAT = {"header.Authorization": "Bearer {$response.body#/seats/0/token}"}
EDIT = {"header.Authorization": "Bearer {$response.body#/edit_token}"}


def _link(operation: str, description: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation, "parameters": parameters, "description": description}


FROM_NEW_TABLE = {
    "GetTable": _link("getTable", "Read the new table.", **TABLE_ID),
    "AppendEvent": _link(
        "appendEvent",
        "Record an event; send `write_token` as `Authorization: Bearer …`.",
        **TABLE_ID,
        **WRITE,
    ),
    "PreviewEvent": _link("previewEvent", "Preview an event on the new table.", **TABLE_ID),
    "ReadLog": _link("getLog", "Read the new table's log.", **TABLE_ID),
    "FollowTable": _link("streamTable", "Follow the new table live.", **TABLE_ID),
    "ReadFirstSeat": _link(
        "getSeatView",
        "The first player's own view; send `seats[0].token` as `Authorization: Bearer …`.",
        table_id="$response.body#/id",
        seat="$response.body#/seats/0/seat",
        **FIRST_SEAT,
    ),
    "ExportRecord": _link("exportRecord", "Export the game once it is finished.", **TABLE_ID),
    "ExportCsv": _link("exportCsv", "Standings as CSV once the game is finished.", **TABLE_ID),
    "ExportBgStats": _link("exportBgStats", "BG Stats link once the game is finished.", **TABLE_ID),
}

FROM_NEW_SHEET = {
    "GetSheet": _link("getSheet", "Read the new sheet.", sheet_id="$response.body#/id"),
    "UpdateSheet": _link(
        "updateSheet",
        "Change the sheet; send `edit_token` as `Authorization: Bearer …`.",
        sheet_id="$response.body#/id",
        **EDIT,
    ),
}


NEXT_PAGE = {
    "NextPage": _link(
        "getLog",
        "The next page of the log (while `next_after` is not null).",
        table_id="$request.path.table_id",
        after="$response.body#/next_after",
    )
}

# (path, method, status) of each answer that names where to go next → its links.
LINKS = {
    ("/api/tables/{table_id}/events", "get", "200"): NEXT_PAGE,
    ("/api/tables", "post", "201"): FROM_NEW_TABLE,
    ("/api/sheets", "post", "201"): FROM_NEW_SHEET,
}


def add_links(spec: APISpec) -> None:
    """Put the links into the registered operations' answers (flask-smorest's decorators document a
    response's schema but not its links). Fails loudly when an operation moved."""
    paths = spec._paths  # noqa: SLF001 - apispec keeps registered paths here; no public accessor
    for (path, method, status), links in LINKS.items():
        paths[path][method]["responses"][status]["links"] = links
