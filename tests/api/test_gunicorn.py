"""A few requests through a real gunicorn (gthread workers, config file), not the test client."""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.gunicorn


def test_table_round_trip_through_gunicorn(live_server: str) -> None:
    created = requests.post(
        f"{live_server}/api/tables",
        json={
            "game": "mahe",
            "players": [
                {"name": "Eva", "colours": ["red", "yellow"]},
                {"name": "Tom", "colours": ["green", "black"]},
            ],
            "options": {"chance": "digital"},
        },
        timeout=10,
    )
    assert created.status_code == 201
    table_id, token = created.json()["id"], created.json()["write_token"]
    table = created.json()["table"]
    assert table["state"]["phase"] == "choose_turtle"
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "k1"}
    body = {"expected_version": 0, "event": {"type": "choose_turtle", "turtle": "yellow"}}
    first = requests.post(
        f"{live_server}/api/tables/{table_id}/events", json=body, headers=headers, timeout=10
    )
    retry = requests.post(
        f"{live_server}/api/tables/{table_id}/events", json=body, headers=headers, timeout=10
    )
    assert first.status_code == retry.status_code == 201
    assert retry.json()["replayed"] is True
    read = requests.get(f"{live_server}/api/tables/{table_id}", timeout=10)
    assert read.json()["version"] == 1 and read.json()["state"]["turn"]["turtle"] == "yellow"
    again = requests.get(
        f"{live_server}/api/tables/{table_id}", headers={"If-None-Match": read.headers["ETag"]}
    )
    assert again.status_code == 304


def test_pwa_and_problem_errors_through_gunicorn(live_server: str) -> None:
    index = requests.get(f"{live_server}/", timeout=10)
    assert index.status_code == 200 and "text/html" in index.headers["Content-Type"]
    assert "frame-ancestors 'none'" in index.headers["Content-Security-Policy"]
    missing = requests.get(f"{live_server}/api/tables/nope", timeout=10)
    assert missing.status_code == 404
    assert missing.headers["Content-Type"].startswith("application/problem+json")
    assert missing.json()["code"] == "table-not-found"
