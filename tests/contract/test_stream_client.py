"""The live stream as the document describes it, read by a standard Server-Sent Events client
(httpx-sse) against a real gunicorn: `text/event-stream`, each `table` event's `id` the version,
its `data` a `TableStreamItem` (typed by its `type`: here `TableStreamMessage`) — the missed entries
on resume, then each append as it happens."""

from __future__ import annotations

import json
from typing import Any

import httpx
import jsonschema
import pytest
import requests
from httpx_sse import connect_sse

from tests.contract.test_vocabulary import json_schema
from tests.openapi_document import openapi_document

pytestmark = pytest.mark.gunicorn

DOC = openapi_document()
MESSAGE = jsonschema.Draft7Validator(
    {"$ref": "#/components/schemas/TableStreamItem", "components": json_schema(DOC["components"])}
)


def test_the_document_says_the_stream_is_server_sent_events() -> None:
    content = DOC["paths"]["/api/tables/{table_id}/stream"]["get"]["responses"]["200"]["content"]
    assert list(content) == ["text/event-stream"]
    assert content["text/event-stream"]["schema"] == {"$ref": "#/components/schemas/TableStreamEvent"}
    data = DOC["components"]["schemas"]["TableStreamEvent"]["properties"]["data"]
    assert data == {"$ref": "#/components/schemas/TableStreamItem"}  # `data:` parsed, typed by `type`
    item = DOC["components"]["schemas"]["TableStreamItem"]
    assert item["discriminator"]["mapping"] == {
        "table": "#/components/schemas/TableStreamMessage",
        "patch": "#/components/schemas/TableStreamPatch",
        "problem": "#/components/schemas/StreamProblem",
        "log": "#/components/schemas/TableStreamLog",  # ?view=log: the entries alone (issue 36)
    }
    assert item["oneOf"] == [{"$ref": target} for target in item["discriminator"]["mapping"].values()]


def append(base: str, table: dict[str, Any], version: int, event: dict[str, Any]) -> None:
    answer = requests.post(
        f"{base}/api/tables/{table['id']}/events",
        json={"expected_version": version, "event": event},
        headers={"Authorization": f"Bearer {table['write_token']}"},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text


def test_a_standard_sse_client_follows_a_table(live_server: str) -> None:
    created = requests.post(
        f"{live_server}/api/tables",
        json={
            "game": "mahe",
            "players": [
                {"name": "Eva", "colours": ["red", "yellow"]},
                {"name": "Tom", "colours": ["green", "darkblue"]},
            ],
        },
        timeout=10,
    ).json()
    append(live_server, created, 0, {"type": "reveal_card", "value": 5})
    append(live_server, created, 1, {"type": "choose_turtle", "turtle": "red"})
    received = []
    with httpx.Client(base_url=live_server, timeout=30) as client, connect_sse(
        client, "GET", f"/api/tables/{created['id']}/stream", headers={"Last-Event-ID": "1"}
    ) as source:  # fmt: skip
        assert source.response.headers["content-type"].startswith("text/event-stream")
        for sse in source.iter_sse():
            if not sse.data:
                assert sse.retry == 2000  # the `retry:` block: no event in the SSE sense
                continue
            message = json.loads(sse.data)
            assert not [e.message for e in MESSAGE.iter_errors(message)]
            received.append((sse.event, sse.id, message))
            if len(received) == 1:
                append(live_server, created, 2, {"type": "die", "value": 4})  # MA-3: a die of 4
            else:
                break
    (first_name, first_id, first), (second_name, second_id, second) = received
    assert (first_name, first_id, first["version"], first["type"]) == ("table", "2", 2, "table")
    assert [entry["event"]["type"] for entry in first["entries"]] == ["choose_turtle"]  # after version 1
    assert (second_name, second_id, second["version"]) == ("table", "3", 3)
    assert [entry["event"] for entry in second["entries"]] == [{"type": "die", "value": 4}]
    assert second["table"]["state"]["turn"]["sum"] == 4 and second["private"] is None  # MA-3


GROUP_MESSAGE = jsonschema.Draft7Validator(
    {"$ref": "#/components/schemas/GroupStreamItem", "components": json_schema(DOC["components"])}
)
GROUP_EVENT_ID = DOC["components"]["schemas"]["GroupStreamEvent"]["properties"]["id"]["pattern"]


def test_the_document_says_the_group_stream_is_server_sent_events() -> None:
    operation = DOC["paths"]["/api/groups/{group_id}/stream"]["get"]
    content = operation["responses"]["200"]["content"]
    assert list(content) == ["text/event-stream"]
    assert content["text/event-stream"]["schema"] == {"$ref": "#/components/schemas/GroupStreamEvent"}
    data = DOC["components"]["schemas"]["GroupStreamEvent"]["properties"]["data"]
    assert data == {"$ref": "#/components/schemas/GroupStreamItem"}
    # The document's examples are events whose every `data` is a GroupStreamItem.
    examples = content["text/event-stream"]["examples"]
    messages = [example["value"]["data"] for example in examples.values()]
    assert [m["type"] for m in messages] == [m["kind"] for m in messages] == ["listening", "finished"]
    assert not [e.message for m in messages for e in GROUP_MESSAGE.iter_errors(m)]


def test_a_standard_sse_client_follows_a_group(live_server: str) -> None:
    """A bot on a scoreboard: it hears a table of the group finish (MA-8: the move onto the beach
    ends a Mahé game) as it happens, and after reconnecting with Last-Event-ID, the abandonment it
    missed."""
    import re

    from tests.api.table_client import HttpClient
    from tests.api.test_group_stream import abandon, group_with_open_table

    http = HttpClient(live_server)
    created, table, move = group_with_open_table(http)
    received: list[tuple[str, str, dict[str, Any]]] = []

    def follow(last: str | None, stop_after: int, act: Any) -> None:
        headers = {"Last-Event-ID": last} if last else {}
        with httpx.Client(base_url=live_server, timeout=30) as client, connect_sse(
            client, "GET", f"/api/groups/{created['id']}/stream", headers=headers
        ) as source:  # fmt: skip
            assert source.response.headers["content-type"].startswith("text/event-stream")
            seen = 0
            for sse in source.iter_sse():
                if not sse.data:
                    continue
                message = json.loads(sse.data)
                assert not [e.message for e in GROUP_MESSAGE.iter_errors(message)]
                assert re.fullmatch(GROUP_EVENT_ID, sse.id) and message["kind"] == sse.event
                received.append((sse.event, sse.id, message))
                seen += 1
                if seen == 1 and act is not None:
                    act()
                if seen == stop_after:
                    break

    follow(None, 2, lambda: table.play(move))
    (hello, first_id, _), (name, finished_id, finished) = received
    assert (hello, first_id) == ("listening", "0")
    assert (name, finished_id) == ("finished", "1f") and finished["entry"]["table_id"] == table.id
    assert finished["entry"]["players"][0]["score"] == 74 and finished["entry"]["winners"]

    abandon(http, created, table.id, True)  # while nobody listens
    received.clear()
    follow(finished_id, 1, None)
    [(name, event_id, message)] = received
    assert (name, event_id, message["entry"]["status"]) == ("abandoned", "1a", "abandoned")
