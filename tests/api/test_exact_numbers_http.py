"""What a client sends is clean or refused: whole numbers beyond ±(2^53 − 1) (a JavaScript client
could not even have meant them exactly) get 400 `number-too-large` in bodies and in integer query
parameters, and any query string with control characters or broken UTF-8 gets 400, on every
operation — read by it or not."""

from __future__ import annotations

from flask.testing import FlaskClient

PLAYERS = [{"name": "Ann", "colours": ["red", "green"]}, {"name": "Bob", "colours": ["yellow", "purple"]}]


def test_a_seed_above_javascripts_exact_range_is_refused_and_one_within_is_kept(client: FlaskClient) -> None:
    too_large = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS, "seed": 2**53})
    assert too_large.status_code == 400 and too_large.get_json()["code"] == "number-too-large"
    created = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS, "seed": 2**53 - 1})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["table"]["seed"] == 2**53 - 1  # chosen by the creator: public, exact


def test_numbers_beyond_the_range_anywhere_in_a_body_are_refused_in_the_asked_language(
    client: FlaskClient,
) -> None:
    answer = client.post(
        "/api/mahe/move", json={"state": {"x": -(2**60)}}, headers={"Accept-Language": "de"}
    )
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "number-too-large"
    assert answer.headers["Content-Language"] == "de" and "Ganze Zahlen" in answer.get_json()["detail"]


def test_an_integer_query_parameter_beyond_the_range_is_refused(client: FlaskClient) -> None:
    table = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS}).get_json()
    answer = client.get(f"/api/tables/{table['id']}/events?after={2**53}")
    assert answer.status_code == 400 and answer.get_json()["code"] == "number-too-large"
    assert client.get(f"/api/tables/{table['id']}/events?after=0").status_code == 200


def test_every_operation_refuses_a_query_string_with_control_characters(client: FlaskClient) -> None:
    for path in ("/api/health", "/api/games", "/api/record-key"):
        assert client.get(path + "?x=1").status_code == 200
        nul = client.get(path + "?x=%00")
        assert nul.status_code == 400 and nul.get_json()["code"] == "control-character", path
        broken = client.get(path + "?x=%ED%A0%80")  # a lone surrogate, not UTF-8
        assert broken.status_code == 400 and broken.get_json()["code"] == "invalid-text", path


def test_a_whole_number_written_with_a_fraction_part_is_that_integer(client: FlaskClient) -> None:
    """JSON Schema (OpenAPI 3.1) counts 0.0 as an integer; so does the server — and 2.5 is none."""
    table = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS}).get_json()
    auth = {"Authorization": f"Bearer {table['write_token']}"}
    half = client.post(
        f"/api/tables/{table['id']}/events",
        json={"expected_version": 0.5, "event": {"type": "reveal_card", "value": 4}},
        headers=auth,
    )
    assert half.status_code == 422 and half.get_json()["code"] == "invalid-request"
    whole = client.post(
        f"/api/tables/{table['id']}/events",
        json={"expected_version": 0.0, "event": {"type": "reveal_card", "value": 4.0}},
        headers=auth,
    )
    assert whole.status_code == 201, whole.get_json()
    logged = client.get(f"/api/tables/{table['id']}/events").get_json()["events"][0]["event"]
    assert logged == {"type": "reveal_card", "value": 4} and isinstance(logged["value"], int)
