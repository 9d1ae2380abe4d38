"""Two phones appending at once, on SQLite and on PostgreSQL: nothing lost, nothing doubled."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from flask import Flask

from api.http.context import store
from api.rules.registry import get_game
from api.rules.replay import replay
from tests.api.table_client import four_players
from tests.conftest import make_test_app

APPENDS_PER_CLIENT = 25


def pick_event(table: dict[str, Any], turn: int) -> dict[str, Any]:
    """A legal event for this table state, varied by `turn` so the two clients differ."""
    actions = table["legal_actions"]["actions"]
    action = actions[turn % len(actions)]
    if action["type"] == "reveal_card":
        return {"type": "reveal_card", "value": 1 + turn % 6}
    if action["type"] == "die":
        return {"type": "die", "value": 1 + (turn * 7) % 6}
    if action["type"] == "choose_turtle":
        return {"type": "choose_turtle", "turtle": action["turtles"][turn % len(action["turtles"])]}
    return {"type": action["type"]}


def phone(app: Flask, table_id: str, token: str, name: str, acked: dict, conflicts: list) -> None:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    table = client.get(f"/api/tables/{table_id}").get_json()
    done = 0
    turn = 0
    while done < APPENDS_PER_CLIENT and not table["finished"]:
        turn += 1
        event = pick_event(table, turn)
        body = {"expected_version": table["version"], "event": event}
        key = f"{name}-{uuid.uuid4()}"
        response = client.post(
            f"/api/tables/{table_id}/events", json=body, headers={**headers, "Idempotency-Key": key}
        )
        if response.status_code == 409:
            conflicts.append(name)
            table = response.get_json()["table"]
            continue
        assert response.status_code == 201, response.get_json()
        seq = response.get_json()["seq"]
        # The phone lost the answer and retries: the same key must not append a second time.
        retry = client.post(
            f"/api/tables/{table_id}/events", json=body, headers={**headers, "Idempotency-Key": key}
        )
        assert retry.status_code == 201 and retry.get_json()["seq"] == seq
        assert retry.get_json()["replayed"] is True
        acked[seq] = (name, event)
        table = retry.get_json()["table"]
        done += 1


@pytest.fixture
def shared_app(db_url: str) -> Flask:
    return make_test_app(db_url)


def test_two_phones_appending_concurrently_lose_and_double_nothing(shared_app: Flask) -> None:
    created = shared_app.test_client().post("/api/tables", json=four_players()).get_json()
    table_id, token = created["id"], created["write_token"]
    acked: dict[int, tuple[str, dict]] = {}
    conflicts: list[str] = []
    threads = [
        threading.Thread(target=phone, args=(shared_app, table_id, token, name, acked, conflicts))
        for name in ("north", "south")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    log = shared_app.test_client().get(f"/api/tables/{table_id}/events").get_json()
    seqs = [e["seq"] for e in log["events"]]
    assert seqs == list(range(1, len(seqs) + 1)), "log positions are contiguous and unique"
    assert sorted(acked) == seqs, "every acknowledged append is in the log, and nothing else"
    for entry in log["events"]:
        assert entry["event"] == acked[entry["seq"]][1]
    assert {name for name, _ in acked.values()} == {"north", "south"}
    # The cached state is exactly the replay of the log.
    with shared_app.app_context():
        row = store().get(table_id)
    game = get_game("mahe")
    assert game is not None
    replayed = replay(game, row.players, row.options, row.seed, [e["event"] for e in log["events"]])
    assert game.dump(replayed) == row.state


def test_same_position_twice_one_wins_one_gets_409(shared_app: Flask) -> None:
    client = shared_app.test_client()
    created = client.post("/api/tables", json=four_players()).get_json()
    headers = {"Authorization": f"Bearer {created['write_token']}"}
    url = f"/api/tables/{created['id']}/events"
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(value: int) -> None:
        barrier.wait()
        response = shared_app.test_client().post(
            url,
            json={"expected_version": 0, "event": {"type": "reveal_card", "value": value}},
            headers=headers,
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=send, args=(v,)) for v in (3, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [201, 409]
    assert len(client.get(url).get_json()["events"]) == 1


def test_simultaneous_retries_with_one_key_store_one_event(shared_app: Flask) -> None:
    client = shared_app.test_client()
    created = client.post("/api/tables", json=four_players()).get_json()
    headers = {"Authorization": f"Bearer {created['write_token']}", "Idempotency-Key": "same-tap"}
    url = f"/api/tables/{created['id']}/events"
    body = {"expected_version": 0, "event": {"type": "reveal_card", "value": 4}}
    barrier = threading.Barrier(3)
    answers: list[tuple[int, int]] = []

    def send() -> None:
        barrier.wait()
        response = shared_app.test_client().post(url, json=body, headers=headers)
        answers.append((response.status_code, response.get_json()["seq"]))

    threads = [threading.Thread(target=send) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers and all(answer == (201, 1) for answer in answers)
    assert len(client.get(url).get_json()["events"]) == 1
