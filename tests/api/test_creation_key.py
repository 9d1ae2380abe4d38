"""Creating a table honours `Idempotency-Key` like an append (issue 21, failure 5): the same key and
body answer the same table with the same tokens, never a twin; the same key with another body is
refused; racing retries make one table. On SQLite and PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from flask.testing import FlaskClient

from tests.api.table_client import TableDriver, four_players, reveal
from tests.api.test_tables_http import assert_problem


def test_the_same_key_and_body_answer_the_same_table(any_db_client: FlaskClient) -> None:
    client = any_db_client
    body = four_players()
    first = client.post("/api/tables", json=body, headers={"Idempotency-Key": "new-table-1"})
    assert first.status_code == 201 and first.get_json()["replayed"] is False
    t = TableDriver(client, first.get_json())
    t.play(reveal(4))  # the table is used meanwhile: the retry still answers this very table
    again = client.post("/api/tables", json=body, headers={"Idempotency-Key": "new-table-1"})
    assert again.status_code == 201 and again.get_json()["replayed"] is True
    created, replayed = first.get_json(), again.get_json()
    for name in ("id", "write_token", "join_path", "seats"):
        assert replayed[name] == created[name], name
    assert replayed["table"]["version"] == 1  # the table as it is now
    # The answered tokens work: the write token records, a seat token opens that seat's view.
    t.token = replayed["write_token"]
    t.play({"type": "die", "value": 3})
    seat = client.get(
        f"/api/tables/{t.id}/seats/1", headers={"Authorization": f"Bearer {replayed['seats'][1]['token']}"}
    )
    assert seat.status_code == 200
    # Without a key, or with another key: a new table each time.
    other = client.post("/api/tables", json=body, headers={"Idempotency-Key": "new-table-2"}).get_json()
    plain = client.post("/api/tables", json=body).get_json()
    assert len({created["id"], other["id"], plain["id"]}) == 3
    assert len({created["write_token"], other["write_token"], plain["write_token"]}) == 3


def test_the_same_key_with_another_body_is_refused(any_db_client: FlaskClient) -> None:
    client = any_db_client
    first = client.post("/api/tables", json=four_players(), headers={"Idempotency-Key": "k-body"})
    assert first.status_code == 201
    changed = four_players()
    changed["players"][0]["name"] = "Someone else"
    refused = client.post("/api/tables", json=changed, headers={"Idempotency-Key": "k-body"})
    assert_problem(refused, 422, "idempotency-key-reused")
    seeded = client.post(
        "/api/tables", json={**four_players(), "seed": 7}, headers={"Idempotency-Key": "k-body"}
    )
    assert_problem(seeded, 422, "idempotency-key-reused")
    assert_problem(
        client.post("/api/tables", json=four_players(), headers={"Idempotency-Key": "bad key\u00e9"}),
        400,
        "bad-idempotency-key",
    )


def test_racing_retries_make_one_table(any_db_client: FlaskClient) -> None:
    """A phone that lost the answer retries while the first request is still running: one table."""
    client = any_db_client
    app = client.application
    body = four_players()

    def create(_: int) -> dict:
        with app.test_client() as own:
            response = own.post("/api/tables", json=body, headers={"Idempotency-Key": "race-1"})
            assert response.status_code == 201, response.get_json()
            return response.get_json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(create, range(8)))
    assert len({a["id"] for a in answers}) == 1
    assert len({a["write_token"] for a in answers}) == 1
    assert sorted(a["replayed"] for a in answers) == [False] + [True] * 7
