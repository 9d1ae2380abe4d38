"""Two app servers on one database: an append decided on the row a server wrote itself (no read,
api.tables.store) is still refused when the other server moved the table on — never applied on a
stale state, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from api.http.context import store
from api.rules.registry import get_game
from api.rules.replay import replay
from tests.api.table_client import four_players
from tests.api.test_concurrency import pick_event
from tests.conftest import make_test_app, migrated_sqlite


def _post(app: Flask, table_id: str, token: str, version: int, event: dict[str, Any]) -> Any:
    return app.test_client().post(
        f"/api/tables/{table_id}/events",
        json={"expected_version": version, "event": event},
        headers={"Authorization": f"Bearer {token}"},
    )


def _assert_state_is_the_replay(app: Flask, table_id: str) -> dict[str, Any]:
    log = app.test_client().get(f"/api/tables/{table_id}/events").get_json()
    with app.app_context():
        row = store().get(table_id)
    game = get_game("mahe")
    assert game is not None
    events = [entry["event"] for entry in log["events"]]
    assert game.dump(replay(game, row.players, row.options, row.seed, events)) == row.state
    assert row.version == len(events)
    return dict(log)


def test_a_server_that_wrote_version_1_refuses_it_once_the_other_wrote_version_2(db_url: str) -> None:
    a, b = make_test_app(db_url), make_test_app(db_url)
    created = a.test_client().post("/api/tables", json=four_players()).get_json()
    table_id, token = created["id"], created["write_token"]
    assert _post(a, table_id, token, 0, {"type": "reveal_card", "value": 4}).status_code == 201  # a: v1
    assert _post(b, table_id, token, 1, {"type": "die", "value": 2}).status_code == 201  # b: v2

    stale = _post(a, table_id, token, 1, {"type": "die", "value": 3})  # legal on v1, a knows v1
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale-version"
    assert stale.get_json()["table"]["version"] == 2
    # Illegal on v1 (a card is already face up): still "the table moved on", not a rules refusal.
    refused = _post(a, table_id, token, 1, {"type": "reveal_card", "value": 5})
    assert refused.status_code == 409 and refused.get_json()["code"] == "stale-version"
    table = a.test_client().get(f"/api/tables/{table_id}").get_json()
    assert _post(a, table_id, token, 2, pick_event(table, 1)).status_code == 201
    assert _assert_state_is_the_replay(a, table_id)["version"] == 3


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_appends_spread_over_two_servers_with_stale_versions_keep_the_log_true(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = migrated_sqlite(Path(folder) / "two.sqlite3")
        _play_on_two_servers([make_test_app(url), make_test_app(url)], random.Random(seed))


def _play_on_two_servers(servers: list[Flask], rng: random.Random) -> None:
    created = servers[0].test_client().post("/api/tables", json=four_players()).get_json()
    table_id, token = created["id"], created["write_token"]
    applied = 0
    for turn in range(30):
        server = rng.choice(servers)
        table = server.test_client().get(f"/api/tables/{table_id}").get_json()
        if table["finished"]:
            break
        version = table["version"] - (1 if table["version"] and rng.random() < 0.3 else 0)
        event = {"type": "undo"} if table["version"] and rng.random() < 0.15 else pick_event(table, turn)
        answer = _post(server, table_id, token, version, event)
        if version == table["version"] and event["type"] != "undo":
            assert answer.status_code == 201, answer.get_json()  # legal on the current version
        if version != table["version"]:
            assert answer.status_code == 409, answer.get_json()
        applied += answer.status_code == 201
    assert len(_assert_state_is_the_replay(servers[1], table_id)["events"]) == applied
