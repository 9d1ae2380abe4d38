"""The table after every log entry (GET /api/tables/{id}/replay), for the log's replay on a phone
that cannot replay the game itself: the server drew its dice (issue 26, item 5).

The property, for every sequence of appends and undos: step k of the replay is exactly the table
the append of entry k answered (undo.possible aside: a replay only looks back), so the replay shows
nothing that the table did not already show everyone then — no seed, no die not yet rolled (GEN-1).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.table_client import TableDriver, four_players


def looked_back(table: dict[str, Any]) -> dict[str, Any]:
    """What a replay step shows of a table: its rules view, undo never offered."""
    legal = {**table["legal_actions"], "undo": {"possible": False}}
    return {
        "finished": table["finished"],
        "state": table["state"],
        "legal_actions": legal,
        "result": table["result"],
    }


def some_event(table: dict[str, Any], pick: int) -> dict[str, Any] | None:
    """A legal event of this Mahé table, chosen by `pick`; None when the game is over."""
    actions = table["legal_actions"].get("actions") or []
    if not actions:
        return None
    action = actions[pick % len(actions)]
    event: dict[str, Any] = {"type": action["type"]}
    if action["type"] == "choose_turtle":
        event["turtle"] = action["turtles"][pick % len(action["turtles"])]
    elif action["type"] in ("die", "reveal_card") and table["options"]["chance"] == "physical":
        event["value"] = 1 + pick % 6
    return event


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    chance=st.sampled_from(["digital", "physical"]),
    moves=st.lists(st.one_of(st.just("undo"), st.integers(0, 50)), min_size=1, max_size=40),
)
def test_each_step_is_the_table_as_its_entry_left_it(
    client: FlaskClient, chance: str, moves: list[Any]
) -> None:
    t = TableDriver.create(client, **four_players(chance=chance))
    shown = {0: looked_back(t.table)}
    for move in moves:
        if move == "undo":
            response = t.post({"type": "undo"})
            if response.status_code != 201:  # GEN-1 (a server draw stands), or nothing to undo
                assert response.get_json()["code"] in {"chance-stands", "nothing-to-undo"}
                continue
            t.table = response.get_json()["table"]
        else:
            event = some_event(t.table, move)
            if event is None:
                continue
            t.play(event)
        shown[t.table["version"]] = looked_back(t.table)
    replay = client.get(f"/api/tables/{t.id}/replay")
    assert replay.status_code == 200
    body = replay.get_json()
    assert body["game"] == "mahe" and body["version"] == t.table["version"]
    assert [step["seq"] for step in body["steps"]] == list(range(t.table["version"] + 1))
    for step in body["steps"]:
        assert {k: v for k, v in step.items() if k != "seq"} == shown[step["seq"]], step["seq"]
    assert "seed" not in replay.get_data(as_text=True)


def test_a_server_drawn_game_replays_and_answers_304_until_it_moves(any_db_client: FlaskClient) -> None:
    t = TableDriver.create(any_db_client, **four_players(chance="digital"))
    for pick in range(8):
        event = some_event(t.table, pick)
        assert event is not None
        t.play(event)
    first = any_db_client.get(f"/api/tables/{t.id}/replay")
    assert first.status_code == 200 and len(first.get_json()["steps"]) == 9
    etag = first.headers["ETag"]
    assert etag != t.client.get(f"/api/tables/{t.id}").headers["ETag"]  # not the table's own
    again = any_db_client.get(f"/api/tables/{t.id}/replay", headers={"If-None-Match": etag})
    assert again.status_code == 304
    t.play(some_event(t.table, 0) or {})
    moved = any_db_client.get(f"/api/tables/{t.id}/replay", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and len(moved.get_json()["steps"]) == 10


def test_the_notes_are_said_in_the_asked_language(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players(chance="digital"))
    german = client.get(f"/api/tables/{t.id}/replay", headers={"Accept-Language": "de"})
    assert "Accept-Language" in german.headers["Vary"]
    [note] = german.get_json()["steps"][0]["legal_actions"]["notes"]
    assert note["code"] == "first-die-always" and note["text"].startswith("Der erste Würfel")


@pytest.mark.parametrize("table_id", ["nope", "A" * 16, "%00"])
def test_an_unknown_table_is_404(client: FlaskClient, table_id: str) -> None:
    answer = client.get(f"/api/tables/{table_id}/replay")
    assert answer.status_code == 404 and answer.headers["Content-Type"].startswith("application/problem+json")
