"""A damaged record is reported on every read of the table (issue 31, hole 3), the table view
included, at a cost that does not grow with the log (docs/records.md, "What each read checks"):
the table view, its 304 poll, a seat's view, a preview, the start of a live stream and the replay
check the head in O(1) — the row's version against the last entry, that entry's hash from the one
before it and the server's signature of it — and say what a full read of the log found before."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from api.db.schema import events, game_tables
from api.tables.store import TableStore
from tests.api.table_client import TableDriver
from tests.conftest import make_test_app


def typed(winner: int, points: int) -> dict[str, Any]:
    return {"type": "round_points", "winner": winner, "points": points, "discarder": None}


def table_at(client: FlaskClient) -> TableDriver:
    """A Mhing table four rounds in, not finished: every read applies (a preview too)."""
    t = TableDriver.create(client, game="mhing", players=[{"name": n} for n in ("Eva", "Tom", "Ada")])
    t.play(typed(0, 32), typed(1, 64), {"type": "round_drawn"}, typed(2, 32))
    return t


def reads(client: FlaskClient, t: TableDriver, stream: bool = True) -> dict[str, Any]:
    """Every read of the table, each answer's status and body (a whole table's live stream would
    stay open: it is left out then)."""
    seat = {"Authorization": f"Bearer {t.seats[0]['token']}"}
    base = f"/api/tables/{t.id}"
    etag = f'W/"{t.id}-{t.table["version"]}"'
    answers = {
        "view": client.get(base),
        "poll": client.get(base, headers={"If-None-Match": etag}),
        "seat": client.get(f"{base}/seats/0", headers=seat),
        "preview": client.post(f"{base}/preview", json={"event": {"type": "round_drawn"}}),
        **({"stream": client.get(f"{base}/stream")} if stream else {}),
        "replay": client.get(f"{base}/replay"),
        "events": client.get(f"{base}/events"),
    }
    out = {}
    for name, answer in answers.items():
        body = answer.get_json(silent=True) if answer.mimetype != "text/event-stream" else None
        out[name] = (answer.status_code, body)
        answer.close()
    return out


def assert_damaged(found: dict[str, Any], seq: int, *, but: tuple[str, ...] = ()) -> None:
    for name, (status, body) in found.items():
        if name in but:
            continue
        assert status == 409, (name, status, body)
        assert body["code"] == "record-damaged" and body["seq"] == seq, (name, body)


def _entry(conn: sa.Connection, table_id: str, seq: int, **values: Any) -> None:
    conn.execute(
        events.update().where(sa.and_(events.c.table_id == table_id, events.c.seq == seq)).values(**values)
    )


def _row(conn: sa.Connection, table_id: str, **values: Any) -> None:
    conn.execute(game_tables.update().where(game_tables.c.id == table_id).values(**values))


def test_whole_records_read_as_ever(any_db_client: FlaskClient) -> None:
    t = table_at(any_db_client)
    found = reads(any_db_client, t, stream=False)
    assert {name: status for name, (status, _) in found.items()} == {
        "view": 200,
        "poll": 304,
        "seat": 200,
        "preview": 200,
        "replay": 200,
        "events": 200,
    }


@pytest.mark.parametrize("how", ["payload", "hash", "deleted"])
def test_the_last_entry_changed_is_said_by_every_read(db_url: str, how: str) -> None:
    app = make_test_app(db_url)
    client = app.test_client()
    store: TableStore = app.extensions["kibitz.store"]
    t = table_at(client)
    last = t.table["version"]
    with store.engine.begin() as conn:
        if how == "payload":
            _entry(conn, t.id, last, payload=typed(2, 64))  # 32 → 64: the round worth more
        elif how == "hash":
            _entry(conn, t.id, last, hash="0" * 64)
        else:
            conn.execute(events.delete().where(sa.and_(events.c.table_id == t.id, events.c.seq == last)))
    assert_damaged(reads(client, t), last)


@pytest.mark.parametrize("version_shift", [-1, +1])
def test_the_row_changed_is_said_by_every_read(db_url: str, version_shift: int) -> None:
    """The row rolled back (an entry lies past its version: the cached state no longer is the
    log's) or moved on (no entry at its version)."""
    app = make_test_app(db_url)
    client = app.test_client()
    store: TableStore = app.extensions["kibitz.store"]
    t = table_at(client)
    version = t.table["version"]
    with store.engine.begin() as conn:
        _row(conn, t.id, version=version + version_shift)
    t.table["version"] = version + version_shift
    # The first entry that no longer follows: the one past the rolled-back row, or the missing one.
    assert_damaged(reads(client, t), version if version_shift < 0 else version + 1)


def test_an_early_entry_changed_is_found_by_the_log_then_said_by_every_read(db_url: str) -> None:
    """An early entry changed with the head left alone: the O(1) checks cannot see it (they do not
    read the log), so a fresh process's table view still answers 200 — until a read of the log
    (here /events) finds it; from then on every read of that version in the process says 409."""
    app = make_test_app(db_url)
    client = app.test_client()
    store: TableStore = app.extensions["kibitz.store"]
    t = table_at(client)
    with store.engine.begin() as conn:
        _entry(conn, t.id, 2, payload=typed(1, 128))
    fresh = make_test_app(db_url).test_client()  # another process: it has read nothing yet
    assert fresh.get(f"/api/tables/{t.id}").status_code == 200
    found = fresh.get(f"/api/tables/{t.id}/events")
    assert found.status_code == 409 and found.get_json()["seq"] == 2
    assert_damaged(reads(fresh, t), 2)
