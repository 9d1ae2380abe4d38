"""A stored record nobody edits unnoticed (api.tables.chain), on SQLite and PostgreSQL.

Hostile findings: a die edited in the database was served by /events and exported with a fresh
"intact" chain; two dice of one move swapped verified as valid; a deleted entry made /events and
every export answer 500 (KeyError). Now each entry's hash is stored when it is appended and the
head is signed with a key outside the database: every read of the log and every replay from the
snapshots names the first entry that no longer follows (409 `record-damaged`), never a 5xx and
never a silently different game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from api.db.schema import events
from api.errors import ApiProblem
from api.tables.chain import genesis, link
from api.tables.store import TableStore
from tests.api.finished_game import play_short_game
from tests.conftest import make_test_app

READS = ["/events", "/replay", "/export", "/export.csv", "/export/bgstats"]


def _payload(conn: sa.Connection, table_id: str, seq: int) -> dict[str, Any]:
    where = sa.and_(events.c.table_id == table_id, events.c.seq == seq)
    return dict(conn.execute(sa.select(events.c.payload).where(where)).scalar_one())


def _set(conn: sa.Connection, table_id: str, at: int, **values: Any) -> None:
    conn.execute(
        events.update().where(sa.and_(events.c.table_id == table_id, events.c.seq == at)).values(**values)
    )


def edit(conn: sa.Connection, table_id: str) -> int:
    """A die changed: 2 becomes 3 (seq 2 is the first die of the first move)."""
    payload = _payload(conn, table_id, 2)
    assert payload == {"type": "die", "value": 2}
    _set(conn, table_id, 2, payload={"type": "die", "value": 3})
    return 2


def swap(conn: sa.Connection, table_id: str) -> int:
    """Two dice of one move swapped (2, 1 → 1, 2): the same sum, the same game's end."""
    first, second = _payload(conn, table_id, 2), _payload(conn, table_id, 3)
    _set(conn, table_id, 2, payload=second)
    _set(conn, table_id, 3, payload=first)
    return 2


def delete(conn: sa.Connection, table_id: str) -> int:
    conn.execute(events.delete().where(sa.and_(events.c.table_id == table_id, events.c.seq == 7)))
    return 7


def reorder(conn: sa.Connection, table_id: str) -> int:
    """Rows 5 and 6 exchange their places in the log (their seq numbers), hashes and all."""
    _set(conn, table_id, 5, seq=-1)
    _set(conn, table_id, 6, seq=5)
    _set(conn, table_id, -1, seq=6)
    return 5


def recompute(conn: sa.Connection, table_id: str) -> int:
    """An edit by someone who also recomputes every hash after it — but cannot sign the new head."""
    edit(conn, table_id)
    header = conn.execute(
        sa.text("SELECT game, players, options, seed FROM game_tables WHERE id = :id"), {"id": table_id}
    )
    row = header.mappings().one()
    table = {k: row[k] for k in ("game", "players", "options", "seed")}
    for key in ("players", "options"):
        if isinstance(table[key], str):  # SQLite hands JSON back as text through a raw statement
            table[key] = json.loads(table[key])
    previous = genesis(table)
    rows = conn.execute(
        sa.select(events.c.seq, events.c.payload).where(events.c.table_id == table_id).order_by(events.c.seq)
    ).all()
    for seq, payload in rows:
        previous = link(previous, seq, payload)
        _set(conn, table_id, seq, hash=previous)
    return len(rows)  # the head: its signature no longer matches


TAMPERS: dict[str, Callable[[sa.Connection, str], int]] = {
    "edit": edit,
    "swap": swap,
    "delete": delete,
    "reorder": reorder,
    "recompute": recompute,
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_record_changed_in_the_database_is_named_on_every_read(db_url: str, tamper: str) -> None:
    app = make_test_app(db_url)
    client: FlaskClient = app.test_client()
    store: TableStore = app.extensions["kibitz.store"]
    table = play_short_game(client)
    for path in READS:  # whole before
        assert client.get(f"/api/tables/{table.id}{path}").status_code == 200, path
    with store.engine.begin() as conn:
        bad = TAMPERS[tamper](conn, table.id)

    for path in READS:
        answer = client.get(f"/api/tables/{table.id}{path}")
        assert answer.status_code == 409, (path, answer.status_code, answer.get_data(as_text=True)[:300])
        assert answer.headers["Content-Type"].startswith("application/problem+json")
        problem = answer.get_json()
        assert problem["code"] == "record-damaged" and problem["seq"] == bad, (path, problem)
    # The live stream's catch-up reads entries too …
    with pytest.raises(ApiProblem) as caught:
        store.entries_after(table.id, 0)
    assert caught.value.code == "record-damaged" and caught.value.extra["seq"] == bad
    # … and an undo replays from the snapshots: refused before it reads anything under the head.
    undo = table.post({"type": "undo"})
    assert undo.status_code == 409 and undo.get_json()["code"] == "record-damaged", undo.get_json()
    # The table view checks the head in O(1), and says what a read of the log found (docs/records.md).
    view = client.get(f"/api/tables/{table.id}")
    assert view.status_code == 409 and view.get_json()["code"] == "record-damaged", view.get_json()


def test_catch_up_from_a_position_checks_what_it_sends(client: FlaskClient) -> None:
    table = play_short_game(client)
    store: TableStore = client.application.extensions["kibitz.store"]
    version = table.table["version"]
    assert [e["seq"] for e in store.entries_after(table.id, version - 2)[1]] == [version - 1, version]
    assert store.entries_after(table.id, version)[1] == []
    with store.engine.begin() as conn:
        _set(conn, table.id, version - 1, payload={"type": "die", "value": 5})
    with pytest.raises(ApiProblem) as caught:
        store.entries_after(table.id, version - 2)
    assert caught.value.extra["seq"] == version - 1


def test_a_live_stream_catching_up_on_a_damaged_log_says_so_and_ends(client: FlaskClient) -> None:
    table = play_short_game(client)
    store: TableStore = client.application.extensions["kibitz.store"]
    with store.engine.begin() as conn:
        bad = edit(conn, table.id)
    answer = client.get(f"/api/tables/{table.id}/stream", headers={"Last-Event-ID": "1"})
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)  # the stream ends: it does not wait for heartbeats
    frames = [frame for frame in text.split("\n\n") if frame.startswith("event: problem")]
    assert len(frames) == 1 and "event: table" not in text
    problem = json.loads(frames[0].split("data: ", 1)[1])
    assert problem["code"] == "record-damaged" and problem["seq"] == bad


def test_an_undo_refuses_a_line_of_play_changed_in_the_database(db_url: str) -> None:
    """`prev_head`, which the replay from the snapshots walks, is checked against the events (else a
    pointer to nowhere was a 500, and one to another entry a silently different game)."""
    app = make_test_app(db_url)
    client: FlaskClient = app.test_client()
    store: TableStore = app.extensions["kibitz.store"]
    table = play_short_game(client)
    version = table.table["version"]
    with store.engine.begin() as conn:
        _set(conn, table.id, version, prev_head=999)
    undo = table.post({"type": "undo"})
    assert undo.status_code == 409, undo.get_json()
    assert undo.get_json()["code"] == "record-damaged" and undo.get_json()["seq"] == version
    with store.engine.begin() as conn:
        _set(conn, table.id, version, prev_head=version - 2)  # another entry of the log
    assert table.post({"type": "undo"}).get_json()["seq"] == version
    with store.engine.begin() as conn:
        _set(conn, table.id, version, prev_head=version - 1)  # as it was
    assert table.post({"type": "undo"}).status_code == 201
