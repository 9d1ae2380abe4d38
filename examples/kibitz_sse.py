"""Typed live streams for the client openapi-python-client generates from openapi.yaml.

A generated operation (`stream_table`, `stream_group`) reads the whole answer and parses it as one
object, but a stream never ends: it is `text/event-stream`, read line by line. This helper asks the
same operation's request (its `_get_kwargs`: path, query and headers as generated) and yields each
event as the generated model (`TableStreamEvent`, `GroupStreamEvent`), its `data` typed by its
`type` (`TableStreamMessage`, `TableStreamPatch`, `StreamProblem`; `GroupStreamMessage`).
`follow_table` also applies the patches (`?patches=true`) and yields the table at every version.

    from kibitz_client import Client
    from kibitz_sse import follow_table
    for event, table in follow_table(Client(base_url="http://localhost:8000"), "q3v…"):
        print(event.id, table["version"])

Needs `jsonpatch` (RFC 6902) and the generated package `kibitz_client` on the path.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any, Protocol, TypeVar

import jsonpatch
from kibitz_client import AuthenticatedClient, Client
from kibitz_client.api.stream import stream_table
from kibitz_client.models import TableStreamEvent, TableStreamMessage, TableStreamPatch

Model = TypeVar("Model", covariant=True)


class FromDict(Protocol[Model]):
    def from_dict(self, src_dict: dict[str, Any]) -> Model: ...


def sse_fields(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The events of a `text/event-stream` as field → value (WHATWG's parsing, `data` joined by
    newlines); comment lines (heartbeats) and blocks without `data` (a bare `retry:`) are skipped."""
    event: dict[str, Any] = {}
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                yield {**event, "data": "\n".join(data)}
            event, data = {}, []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "retry" and value.isdigit():
                event["retry"] = int(value)
            elif name in ("event", "id"):
                event[name] = value


def raw_events(
    client: Client | AuthenticatedClient, operation: ModuleType, **params: Any
) -> Iterator[dict[str, Any]]:
    """Each event of a generated stream operation as plain JSON: its fields, `data` parsed."""
    request = operation._get_kwargs(**params)  # noqa: SLF001 - the generated request, as generated
    with client.get_httpx_client().stream(**request, timeout=None) as response:
        response.raise_for_status()
        for fields in sse_fields(response.iter_lines()):
            yield {**fields, "data": json.loads(fields["data"])}


def events(
    client: Client | AuthenticatedClient, operation: ModuleType, model: FromDict[Model], **params: Any
) -> Iterator[Model]:
    """Each event of a generated stream operation as `model` (`TableStreamEvent`, `GroupStreamEvent`),
    its `data` the schema its `type` names."""
    for raw in raw_events(client, operation, **params):
        yield model.from_dict(raw)


def follow_table(
    client: Client | AuthenticatedClient, table_id: str, **params: Any
) -> Iterator[tuple[TableStreamEvent, dict[str, Any]]]:
    """Every event of a table's stream with patches, and the table after it (a plain dict, as
    `GET /api/tables/{id}` answers). A patch that does not fit (never, unless events were lost)
    raises: follow again for the whole table."""
    table: dict[str, Any] | None = None
    for raw in raw_events(client, stream_table, table_id=table_id, patches=True, **params):
        event = TableStreamEvent.from_dict(raw)
        data = event.data
        if isinstance(data, TableStreamMessage):
            table = raw["data"]["table"]  # the JSON as sent: what the next patch applies to
        elif isinstance(data, TableStreamPatch):
            if table is None or table["version"] != data.base:
                raise ValueError(f"a patch for version {data.base}, not for the table this stream gave")
            table = jsonpatch.apply_patch(table, raw["data"]["patch"])
        else:  # StreamProblem: the stream's last word
            raise RuntimeError(f"{data.code}: {data.detail}")
        yield event, table
