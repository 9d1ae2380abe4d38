"""Streams a generated client can use (issue 35): with the client openapi-python-client generates
and the one openapi-typescript + openapi-fetch type, and the small SSE helper of each example
(`examples/kibitz_sse.py`, `examples/typescript/sse.ts`), a program follows a table live — typed
events, the whole table first, then JSON Patches that rebuild each version as `GET` reads it — and
a group's stream, hearing a table of the group finish (MA-8: the move onto the beach ends it)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
import requests

from tests.api.table_client import HttpClient
from tests.api.test_group_stream import group_with_open_table
from tests.conftest import ROOT
from tests.contract.test_generated_client import kibitz_client  # noqa: F401 - the fixture

pytestmark = pytest.mark.gunicorn

EXAMPLES = ROOT / "examples"
TS = EXAMPLES / "typescript"
BIN = ROOT / "node_modules/.bin"
MOVES = [
    {"type": "reveal_card", "value": 4},
    {"type": "choose_turtle", "turtle": "red"},
    {"type": "die", "value": 2},  # MA-3
    {"type": "die", "value": 4},
    {"type": "stop"},
]


@pytest.fixture
def sse(kibitz_client: ModuleType) -> Iterator[ModuleType]:  # noqa: F811 - the fixture above
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("kibitz_sse")
    finally:
        sys.path.remove(str(EXAMPLES))
        sys.modules.pop("kibitz_sse", None)


def new_table(base: str) -> dict[str, Any]:
    players = [
        {"name": "Eva", "colours": ["red", "yellow"]},
        {"name": "Tom", "colours": ["green", "darkblue"]},
    ]
    created = requests.post(
        f"{base}/api/tables",
        json={"game": "mahe", "players": players, "options": {"chance": "physical"}},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    return dict(created.json())


def append(base: str, table: dict[str, Any], version: int) -> None:
    answer = requests.post(
        f"{base}/api/tables/{table['id']}/events",
        json={"expected_version": version, "event": MOVES[version]},
        headers={"Authorization": f"Bearer {table['write_token']}"},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text


def read(base: str, table_id: str) -> Any:
    return requests.get(f"{base}/api/tables/{table_id}", timeout=10).json()


def test_python_follows_a_table_with_typed_events_and_patches(
    kibitz_client: ModuleType,  # noqa: F811
    sse: ModuleType,
    live_server: str,
) -> None:
    models = importlib.import_module("kibitz_client.models")
    client = kibitz_client.Client(base_url=live_server)
    created = new_table(live_server)
    seen = []
    for event, table in sse.follow_table(client, created["id"]):
        assert isinstance(event, models.TableStreamEvent)
        seen.append(type(event.data).__name__)
        assert table == read(live_server, created["id"]) and event.id == str(table["version"])
        if len(seen) == 1:
            assert isinstance(event.data.table, models.MaheTable)  # typed per game
        if table["version"] == len(MOVES):
            break
        append(live_server, created, table["version"])
    assert seen == ["TableStreamMessage"] + ["TableStreamPatch"] * len(MOVES)
    assert table["state"]["last_move"]["turtle"] == "red" and table["state"]["turn"]["sum"] == 0  # MA-3


def test_python_follows_a_group_with_typed_events(
    kibitz_client: ModuleType,  # noqa: F811
    sse: ModuleType,
    live_server: str,
) -> None:
    models = importlib.import_module("kibitz_client.models")
    stream_group = importlib.import_module("kibitz_client.api.groups.stream_group")
    created, table, move = group_with_open_table(HttpClient(live_server))
    client = kibitz_client.Client(base_url=live_server)
    got = []
    for event in sse.events(client, stream_group, models.GroupStreamEvent, group_id=created["id"]):
        assert isinstance(event, models.GroupStreamEvent)
        assert isinstance(event.data, models.GroupStreamMessage)
        got.append(event)
        if len(got) == 1:
            table.play(move)
        else:
            break
    hello, finished = got
    assert (hello.data.type_.value, hello.id) == ("listening", "0")
    assert (finished.data.type_.value, finished.id) == ("finished", "1f")
    assert finished.data.entry.table_id == table.id and finished.data.entry.winners


@pytest.fixture(scope="module")
def follow_js() -> str:
    made = subprocess.run(
        [str(BIN / "openapi-typescript"), "openapi.yaml", "-o", str(TS / "kibitz.d.ts")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    compiled = subprocess.run(
        [str(BIN / "tsc"), "-p", str(TS)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr  # strict: the events are typed
    return str(TS / "build/follow.js")


def node_lines(command: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def next_line(process: subprocess.Popen[str]) -> dict[str, Any]:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line, process.stderr.read() if process.stderr else ""
    return dict(json.loads(line))


def test_typescript_follows_a_table_with_typed_events_and_patches(follow_js: str, live_server: str) -> None:
    created = new_table(live_server)
    follower = node_lines(["node", follow_js, live_server, "table", created["id"], str(len(MOVES) + 1)])
    try:
        kinds = []
        for version in range(len(MOVES) + 1):
            got = next_line(follower)
            kinds.append(got["type"])
            assert got["version"] == version and got["id"] == str(version)
            assert got["table"] == read(live_server, created["id"])
            if version < len(MOVES):
                append(live_server, created, version)
        assert kinds == ["table"] + ["patch"] * len(MOVES)
        assert follower.wait(timeout=30) == 0
    finally:
        follower.kill()


def test_typescript_follows_a_group_with_typed_events(follow_js: str, live_server: str) -> None:
    created, table, move = group_with_open_table(HttpClient(live_server))
    follower = node_lines(["node", follow_js, live_server, "group", created["id"], "2"])
    try:
        assert next_line(follower) == {"type": "listening", "id": "0", "table_id": None}
        table.play(move)
        assert next_line(follower) == {"type": "finished", "id": "1f", "table_id": table.id}
        assert follower.wait(timeout=30) == 0
    finally:
        follower.kill()
