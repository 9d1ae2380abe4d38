"""POST /api/mahe/move: one move resolved without a table (MA-3, MA-5, MA-6, MA-7)."""

from __future__ import annotations

from flask.testing import FlaskClient

from api.games.mahe.endpoints import EXAMPLE


def empty_track() -> list[list[str]]:
    return [[] for _ in range(21)]


def test_rule_book_example_through_the_stateless_endpoint(client: FlaskClient) -> None:
    """MA-7 Example: red from 18 with 1, 2, 3 carries yellow to 15; yellow's owner takes the 5."""
    body = client.post("/api/mahe/move", json=EXAMPLE).get_json()
    assert body["distance"] == 18 and body["to"] == 15 and body["from"] == 18
    assert body["position"]["track"][14] == ["red", "yellow"]
    assert body["position"]["track"][17] == ["darkblue"]
    assert (body["card_taker_turtle"], body["card_taker_seat"], body["card_value"]) == ("yellow", 1, 5)
    assert body["decider_seat"] == 1


def test_bust_sends_the_mover_and_riders_to_the_raft_and_leaves_those_below(client: FlaskClient) -> None:
    """MA-6: over 7 busts; turtles below stay, the raft never stacks."""
    track = empty_track()
    track[4] = ["green", "red", "yellow"]
    body = client.post(
        "/api/mahe/move", json={"position": {"track": track}, "turtle": "red", "dice": [5, 4]}
    ).get_json()
    assert body["bust"] and body["to"] == 0
    assert body["position"]["track"][4] == ["green"]
    assert sorted(body["position"]["raft"]) == ["red", "yellow"]
    assert body["card_taker_turtle"] is None


def test_impossible_requests_are_clear_4xx(client: FlaskClient) -> None:
    track = empty_track()
    track[0] = ["red"]
    third_die = client.post(
        "/api/mahe/move", json={"position": {"track": track}, "turtle": "red", "dice": [3, 4, 1]}
    )
    assert third_die.status_code == 422 and third_die.get_json()["rule"] == "MA-3"
    missing = client.post(
        "/api/mahe/move", json={"position": {"track": track}, "turtle": "blue-whale", "dice": [3]}
    )
    assert missing.status_code == 422 and missing.mimetype == "application/problem+json"
    short = client.post("/api/mahe/move", json={"position": {"track": [[]]}, "turtle": "red", "dice": [3]})
    assert short.status_code == 422 and "track" in short.get_json()["detail"]
