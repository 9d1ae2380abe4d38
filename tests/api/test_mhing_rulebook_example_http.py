"""MH-6 Example from the rule book, through the HTTP API: "3 premiums for 3 triplets"."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_mh6_example_three_honour_triplets_earn_three_premiums(client: FlaskClient) -> None:
    # MH-6 Example: three triplets of honour cards earn 3 premiums. The rest of the hand earns nothing:
    # a bamboo sequence and a pair of circle 7s (two suits with honours, so no whole-hand premium).
    hand = "we we we ws ws ws wn wn wn b2 b3 b4 c7 c7"
    response = client.post("/api/mhing/score", json={"hidden": hand})
    assert response.status_code == 200
    body = response.get_json()
    assert body["wins"] is True
    assert {p["code"]: p["premiums"] for p in body["premiums"]} == {"honour-triplet": 3}
    assert body["total_premiums"] == 3
    assert body["points"] == 8  # MH-8: 3 premiums → 8 points


def test_mh6_example_holds_at_a_table_too(client: FlaskClient) -> None:
    """The same hand recorded as a won round at a Mhing table scores the same 8 points (MH-6, MH-8, MH-9)."""
    created = client.post(
        "/api/tables",
        json={"game": "mhing", "players": [{"name": "Ann"}, {"name": "Ben"}], "options": {}},
    )
    assert created.status_code == 201, created.get_json()
    table = created.get_json()
    hand = {"hidden": "we we we ws ws ws wn wn wn b2 b3 b4 c7 c7"}
    event = {"type": "round_won", "winner": 0, "hand": hand}
    appended = client.post(
        f"/api/tables/{table['id']}/events",
        json={"expected_version": 0, "event": event},
        headers={"Authorization": f"Bearer {table['write_token']}"},
    )
    assert appended.status_code == 201, appended.get_json()
    players = appended.get_json()["table"]["state"]["players"]
    assert [(p["name"], p["score"]) for p in players] == [("Ann", 8), ("Ben", 0)]
