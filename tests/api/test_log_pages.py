"""The events list in pages: `after` a log position and a `limit`, the next page named in the body
(`next_after`, `next`) and in the `Link` header; without them the whole log, as before."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.table_client import TableDriver, four_players, reveal


def played(client: FlaskClient) -> TableDriver:
    table = TableDriver.create(client, **four_players())
    # MA-3 as the tests elsewhere play it: a card, then dice, stop, and an undo that is logged too
    table.play(reveal(4), {"type": "die", "value": 2}, {"type": "die", "value": 4}, {"type": "stop"})
    table.play({"type": "undo"}, {"type": "stop"})
    return table


def pages(client: FlaskClient, table: TableDriver, limit: int) -> list[dict[str, Any]]:
    answers, url = [], f"/api/tables/{table.id}/events?limit={limit}"
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        answers.append(body)
        assert (response.headers.get("Link") is None) == (body["next"] is None)
        if body["next"]:
            assert response.headers["Link"] == f'<{body["next"]}>; rel="next"'
            assert body["next_after"] == body["events"][-1]["seq"]
        url = body["next"]
    return answers


def test_without_paging_the_whole_log_as_before(any_db_client: FlaskClient) -> None:
    table = played(any_db_client)
    body = any_db_client.get(f"/api/tables/{table.id}/events").get_json()
    assert [entry["seq"] for entry in body["events"]] == [1, 2, 3, 4, 5, 6]
    assert body["next"] is None and body["next_after"] is None and body["version"] == 6


def test_following_next_reads_every_entry_once(client: FlaskClient) -> None:
    table = played(client)
    for limit in range(1, 8):  # every page size up to one past the log's length
        answers = pages(client, table, limit)
        seqs = [entry["seq"] for body in answers for entry in body["events"]]
        assert seqs == [1, 2, 3, 4, 5, 6], limit
        assert all(len(body["events"]) <= limit for body in answers)
        assert len(answers) == -(-6 // limit), limit


def test_after_a_position_and_bad_paging_refused(client: FlaskClient) -> None:
    table = played(client)
    body = client.get(f"/api/tables/{table.id}/events?after=4").get_json()
    assert [entry["event"]["type"] for entry in body["events"]] == ["undo", "stop"]
    for query in ("limit=0", "limit=1001", "after=-1", "limit=x"):
        answer = client.get(f"/api/tables/{table.id}/events?{query}")
        assert answer.status_code == 422 and answer.get_json()["code"] == "invalid-request", query
