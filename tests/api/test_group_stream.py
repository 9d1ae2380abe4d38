"""A group's live stream (issue 25): an event when one of its tables finishes, is abandoned or is
opened again, resumable with Last-Event-ID, on SQLite and PostgreSQL. Under the WSGI test client a
stream ends after what it has to say now (KIBITZ_STREAM_LIFETIME 0); the live tests (gunicorn, two
servers on PostgreSQL) are in tests/live/test_group_stream.py and tests/contract/test_stream_client.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from api.groups import outcomes
from api.tables.changes import ChangeFeed
from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver
from tests.api.test_groups_http import bearer, ids_by_name, new_group


def parse(body: str) -> list[dict[str, Any]]:
    """The events of a `text/event-stream` body: {event, id, data}; the retry block and heartbeats
    left out."""
    events = []
    for block in body.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or not line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "data" in fields:
            events.append({"event": fields["event"], "id": fields["id"], "data": json.loads(fields["data"])})
    return events


def read(client: FlaskClient, group_id: str, last: str | None = None) -> list[dict[str, Any]]:
    headers = {"Last-Event-ID": last} if last is not None else {}
    response = client.get(f"/api/groups/{group_id}/stream", headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/event-stream"
    return parse(response.get_data(as_text=True))


def last_move(table: TableDriver) -> dict[str, Any]:
    """Takes back the move that ended the game (MA-8: Martin's move onto the beach) and returns it."""
    events = table.client.get(f"/api/tables/{table.id}/events").get_json()["events"]
    move = events[-1]["event"]
    table.undo()
    assert not table.table["finished"]
    return dict(move)


def group_with_open_table(client: Any) -> tuple[dict[str, Any], TableDriver, dict[str, Any]]:
    """A group whose one table is a move from its end: (group, table, that move)."""
    created = new_group(client, ["Martin", "Eva", "David", "Andrea"])
    who = ids_by_name(created)
    table = play_short_game(client)
    move = last_move(table)
    add = {
        "table_id": table.id,
        "table_token": table.token,
        "seats": [who["Martin"], who["Eva"], who["David"], who["Andrea"]],
    }
    added = client.post(
        f"/api/groups/{created['id']}/tables", json=add, headers=bearer(created["edit_token"])
    )
    assert added.status_code == 201
    return created, table, move


def abandon(client: Any, created: dict[str, Any], table_id: str, abandoned: bool) -> None:
    response = client.patch(
        f"/api/groups/{created['id']}/tables/{table_id}",
        json={"abandoned": abandoned},
        headers=bearer(created["edit_token"]),
    )
    assert response.status_code == 200


def test_a_group_stream_says_when_a_table_finishes_is_abandoned_and_reopened(
    any_db_client: FlaskClient,
) -> None:
    client = any_db_client
    created, table, move = group_with_open_table(client)
    gid, martin = created["id"], ids_by_name(created)["Martin"]

    [hello] = read(client, gid)
    assert hello["event"] == "listening" and hello["id"] == "0"  # one table, playing
    assert hello["data"] == {
        "type": "listening",  # the typed envelope's discriminator (issue 35)
        "kind": "listening",
        "group_id": gid,
        "tables": {"playing": 1, "finished": 0, "abandoned": 0},
        "entry": None,
    }
    assert read(client, gid, "0") == []  # nothing happened since

    table.play(move)  # MA-8: the move onto the beach ends the game
    [finished] = read(client, gid, "0")
    assert (finished["event"], finished["id"]) == ("finished", "1f")
    entry = finished["data"]["entry"]
    assert finished["data"]["kind"] == "finished" and entry["table_id"] == table.id
    assert entry["status"] == "finished" and entry["winners"] == [martin]
    assert entry["players"][0]["score"] == 74 and entry["players"][0]["winner"]  # MA-9: eggs counted
    assert entry == client.get(f"/api/groups/{gid}/history").get_json()["entries"][0]
    assert read(client, gid, "1f") == []

    abandon(client, created, table.id, True)
    [abandoned] = read(client, gid, "1f")
    assert (abandoned["event"], abandoned["id"], abandoned["data"]["entry"]["status"]) == (
        "abandoned",
        "1a",
        "abandoned",
    )
    assert abandoned["data"]["tables"] == {"playing": 0, "finished": 0, "abandoned": 1}
    abandon(client, created, table.id, False)
    assert [e["event"] for e in read(client, gid, "1a")] == ["finished"]

    table.undo()  # the last move taken back: the game is open again
    [reopened] = read(client, gid, "1f")
    assert (reopened["event"], reopened["id"], reopened["data"]["entry"]["status"]) == (
        "reopened",
        "0",
        "playing",
    )
    # A client that was away meanwhile hears only where things stand now, one event per table.
    table.play(move)
    assert [(e["event"], e["id"]) for e in read(client, gid, "1a")] == [("finished", "1f")]


def test_a_table_filed_already_finished_is_announced_with_the_others_in_order(
    any_db_client: FlaskClient,
) -> None:
    client = any_db_client
    created, first, move = group_with_open_table(client)
    gid, who = created["id"], ids_by_name(created)
    first.play(move)
    second = TableDriver.create(
        client, game="mhing", players=[{"name": "E"}, {"name": "D"}], options={"settlement": 1}
    )
    add = {"table_id": second.id, "table_token": second.token, "seats": [who["Eva"], who["David"]]}
    assert (
        client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(created["edit_token"])).status_code
        == 201
    )
    third = play_short_game(client)  # a table played offline, filed once it was over
    seats = [who["Martin"], who["Eva"], who["David"], who["Andrea"]]
    add = {"table_id": third.id, "table_token": third.token, "seats": seats}
    assert (
        client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(created["edit_token"])).status_code
        == 201
    )

    events = read(client, gid, "0")
    assert [(e["event"], e["data"]["entry"]["table_id"], e["id"]) for e in events] == [
        ("finished", first.id, "1f"),
        ("finished", third.id, "1f1p1f"),  # each id covers the events before it
    ]
    assert events[-1]["data"]["tables"] == {"playing": 1, "finished": 2, "abandoned": 0}
    [hello] = read(client, gid)
    assert hello["id"] == "1f1p1f"


def test_bad_group_stream_requests_are_problems(client: FlaskClient) -> None:
    gid = new_group(client, ["Ann"])["id"]
    for bad in ("x", "0f", "1q", "01f", "1f" * 3000):
        response = client.get(f"/api/groups/{gid}/stream", headers={"Last-Event-ID": bad})
        assert response.status_code == 400 and response.get_json()["code"] == "bad-last-event-id", bad
    missing = client.get("/api/groups/nope/stream")
    assert missing.status_code == 404 and missing.get_json()["code"] == "group-not-found"


@given(st.lists(st.sampled_from(["finished", "abandoned", "playing"]), max_size=60))
def test_an_event_id_names_the_statuses_it_encodes(statuses: list[str]) -> None:
    event_id = outcomes.encode(statuses)
    assert len(event_id) <= 3 * len(statuses) + 1
    decoded = outcomes.decode(event_id)
    assert decoded + ["playing"] * (len(statuses) - len(decoded)) == statuses
    heard = list(decoded)
    now = [(f"t{i}", s) for i, s in enumerate(statuses)]
    assert list(outcomes.changes(heard, now)) == []  # nothing changed since that id


def test_a_watch_wakes_on_any_key_it_covers_and_only_those() -> None:
    feed = ChangeFeed()
    with feed.watch() as watch:
        watch.cover({"group:g", "t1"})
        feed.announce("t2", 1)
        assert watch.changes.wait_above(0, timeout=0.01) is None
        feed.announce("t1", 7)
        assert watch.changes.wait_above(0, timeout=0.01) == 1
        feed.announce("group:g", 123)
        assert watch.changes.wait_above(1, timeout=0.01) == 2
        watch.cover({"group:g"})
        feed.announce("t1", 8)
        assert watch.changes.wait_above(2, timeout=0.01) is None
        assert feed.listening() == 1
    assert feed.listening() == 0
    feed.announce("group:g", 124)  # nobody covers it any more: nothing to wake


@pytest.mark.parametrize("kind", ["playing", "finished", "abandoned"])
def test_a_heard_list_longer_than_the_group_changes_nothing(kind: str) -> None:
    heard = [kind, "finished", "abandoned"]
    assert [k for _, _, k in outcomes.changes(heard, [("t0", kind)])] == []


def test_a_group_created_with_an_idempotency_key_is_made_once(any_db_client: FlaskClient) -> None:
    """A phone that started a group offline sends its creation with a key when it is back; the
    answer lost and the request sent again, the same group and edit token come back (no twin)."""
    client = any_db_client
    body = {"name": "Cottage", "players": [{"name": "Ann", "colour": "red"}, {"name": "Ben", "emoji": "🐢"}]}
    key = {"Idempotency-Key": "5f0c2a4e-8d1b-4c3e-9a7f-0123456789ab"}
    first = client.post("/api/groups", json=body, headers=key)
    again = client.post("/api/groups", json=body, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    made, replayed = first.get_json(), again.get_json()
    assert made["replayed"] is False and replayed["replayed"] is True
    assert (replayed["id"], replayed["edit_token"]) == (made["id"], made["edit_token"])
    assert replayed["group"]["players"] == made["group"]["players"]
    other = client.post("/api/groups", json={**body, "name": "Other"}, headers=key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency-key-reused"
    # The edit token answered is the group's: it changes it.
    change = {"name": "Cottage", "players": made["group"]["players"], "expected_version": 1}
    assert (
        client.put(f"/api/groups/{made['id']}", json=change, headers=bearer(made["edit_token"])).status_code
        == 200
    )
    assert client.post("/api/groups", json=body, headers=key).get_json()["id"] == made["id"]  # still once
    without = client.post("/api/groups", json=body).get_json()
    assert without["replayed"] is False and without["id"] != made["id"]
    bad = client.post("/api/groups", json=body, headers={"Idempotency-Key": ""})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad-idempotency-key"


def test_an_id_naming_more_tables_than_a_group_holds_is_read_up_to_them(client: FlaskClient) -> None:
    """Any id the document's pattern allows is taken (never refused as malformed): runs past the
    group's tables change nothing."""
    gid = new_group(client, ["Ann"])["id"]
    huge = "999999f" * 500
    assert len(outcomes.decode(huge)) == outcomes.MAX_TABLES
    assert read(client, gid, huge) == []  # the group has no table: nothing changed for it
