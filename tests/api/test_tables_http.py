"""Tables through the HTTP API: creation, tokens, stale appends, idempotency, undo, preview, errors."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.api.table_client import STOP, TableDriver, dice, die, four_players, reveal

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["detail"]
    return body


def log_length(client: FlaskClient, table_id: str) -> int:
    return len(client.get(f"/api/tables/{table_id}/events").get_json()["events"])


def test_create_returns_token_join_link_and_first_legal_actions(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    assert t.table["version"] == 0 and not t.table["finished"]
    assert t.state["phase"] == "reveal_card"
    assert [a["type"] for a in t.legal["actions"]] == ["reveal_card"]
    assert t.legal["undo"] == {"possible": False}
    assert t.table["seed"] is None  # hidden until the game is over
    created = client.post("/api/tables", json=four_players()).get_json()
    assert created["join_path"] == f"/#/t/{created['id']}?k={created['write_token']}"
    assert created["id"] != t.id and created["write_token"] != t.token


def test_reading_needs_only_the_id_and_unknown_ids_are_404(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    assert client.get(f"/api/tables/{t.id}").status_code == 200
    assert_problem(client.get("/api/tables/not-a-table"), 404, "table-not-found")
    assert_problem(client.get("/api/tables/not-a-table/events"), 404, "table-not-found")


def test_append_needs_the_write_token_and_leaves_the_table_untouched_without_it(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    body = {"expected_version": 0, "event": reveal(4)}
    assert_problem(client.post(f"/api/tables/{t.id}/events", json=body), 401, "write-token-required")
    wrong = {"Authorization": "Bearer not-the-token"}
    assert_problem(
        client.post(f"/api/tables/{t.id}/events", json=body, headers=wrong), 403, "bad-write-token"
    )
    assert t.refresh()["version"] == 0
    assert log_length(client, t.id) == 0


def test_stale_append_gets_409_with_the_current_table(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    t.play(reveal(4))
    stale = t.post(die(3), version=0)
    body = assert_problem(stale, 409, "stale-version")
    assert body["table"]["version"] == 1
    assert body["table"]["state"]["face_up"] == 4
    assert log_length(client, t.id) == 1


def test_retry_with_same_idempotency_key_is_applied_once(any_db_client: FlaskClient) -> None:
    """On PostgreSQL the reuse at the current version is refused by the unique key index inside the
    append's one compare-and-swap statement (run on the driver): still a 422, nothing stored."""
    client = any_db_client
    t = TableDriver.create(client, **four_players())
    first = t.post(reveal(4), key="tap-1")
    again = t.post(reveal(4), key="tap-1", version=0)
    assert first.status_code == again.status_code == 201
    assert first.get_json()["seq"] == again.get_json()["seq"] == 1
    assert again.get_json()["replayed"] is True
    assert log_length(client, t.id) == 1
    reused = t.post(reveal(5), key="tap-1", version=1)  # illegal now: refused before storing
    assert_problem(reused, 422, "idempotency-key-reused")
    legal = t.post(die(3), key="tap-1", version=1)  # legal: the unique key index refuses it
    assert_problem(legal, 422, "idempotency-key-reused")
    assert log_length(client, t.id) == 1 and t.refresh()["version"] == 1


def test_illegal_move_is_422_with_rule_and_detail_and_changes_nothing(client: FlaskClient) -> None:
    """MA-3 Decision: with a sum of 7 after two dice, no third die is offered."""
    t = TableDriver.create(client, **four_players())
    t.play(reveal(4), die(3))
    before = t.refresh()
    response = t.post(die(4))  # 3 + 4 = 7: the move is carried out at once
    assert response.status_code == 201
    t.table = response.get_json()["table"]
    assert t.state["track"][13] == ["red"]  # 7 × 2 = 14
    refused = t.post({"type": "play_card", "value": 2})  # MA-11: only with the variant chosen
    body = assert_problem(refused, 422, "variant-off")
    assert body["rule"] == "MA-11"
    assert t.refresh()["version"] == before["version"] + 1


def test_malformed_bodies_are_422_problems(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    headers = {"Authorization": f"Bearer {t.token}"}
    url = f"/api/tables/{t.id}/events"
    assert_problem(client.post(url, json={"event": reveal(3)}, headers=headers), 422, "invalid-request")
    assert_problem(client.post(url, json={"expected_version": 0}, headers=headers), 422, "invalid-request")
    assert_problem(
        client.post(url, json={"expected_version": 0, "event": {"value": 3}}, headers=headers),
        422,
        "invalid-request",
    )
    not_json = client.post(url, data="{nope", headers={**headers, "Content-Type": "application/json"})
    assert not_json.status_code in (400, 422) and not_json.mimetype == PROBLEM
    unknown = client.post(url, json={"expected_version": 0, "event": {"type": "teleport"}}, headers=headers)
    assert unknown.status_code == 422 and unknown.mimetype == PROBLEM
    assert log_length(client, t.id) == 0


def test_bad_setups_are_refused_clearly(client: FlaskClient) -> None:
    assert_problem(client.post("/api/tables", json={**four_players(), "game": "chess"}), 422, "unknown-game")
    one = {"game": "mahe", "players": [{"name": "Solo", "colours": ["red"]}]}
    assert client.post("/api/tables", json=one).status_code == 422
    clash = four_players()
    clash["players"][1]["colours"] = ["red"]
    response = client.post("/api/tables", json=clash)
    assert response.status_code == 422 and response.mimetype == PROBLEM
    bad_option = four_players(chance="psychic")
    assert client.post("/api/tables", json=bad_option).status_code == 422


def test_undo_is_recorded_and_restores_the_previous_state(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    t.play(reveal(4), *dice(2, 4), STOP)
    assert t.state["track"][11] == ["red"]
    assert t.legal["undo"]["possible"]
    t.play({"type": "undo"})
    assert t.state["track"][11] == [] and t.state["phase"] == "decide"
    assert t.state["turn"]["dice"] == [{"value": 2, "source": "die"}, {"value": 4, "source": "die"}]
    t.play({"type": "undo"}, {"type": "undo"})
    assert t.state["turn"]["dice"] == []
    log = client.get(f"/api/tables/{t.id}/events").get_json()
    assert [e["kind"] for e in log["events"]] == ["game"] * 4 + ["undo"] * 3
    assert [e["in_effect"] for e in log["events"][:4]] == [True, False, False, False]
    assert log["events"][4]["undoes"] == 4
    t.play({"type": "undo"})
    assert not t.legal["undo"]["possible"]
    assert_problem(t.post({"type": "undo"}), 422, "nothing-to-undo")


def test_undo_cannot_reroll_server_dice(client: FlaskClient) -> None:
    """GEN-1, MA-12: a die the server rolled stands; typed-in dice stay undoable."""
    t = TableDriver.create(client, **four_players(chance="digital"), seed=1234)
    t.play({"type": "die"})
    assert t.legal["undo"]["possible"] is False
    assert_problem(t.post({"type": "undo"}), 422, "chance-stands")
    typed = TableDriver.create(client, **four_players())
    typed.play(reveal(5), die(2))
    assert typed.legal["undo"]["possible"] is True
    typed.play({"type": "undo"})
    assert typed.legal["undo"]["possible"] is True  # the typed card, too


def test_preview_answers_the_next_state_without_storing_it(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    t.play(reveal(5), *dice(2, 1))
    url = f"/api/tables/{t.id}/preview"
    preview = client.post(url, json={"expected_version": t.table["version"], "event": die(4)})
    assert preview.status_code == 200
    moved = preview.get_json()["table"]["state"]
    assert moved["track"][20] == ["red"] and moved["players"][0]["card_count"] == 1
    assert moved["last_move"]["card"] == {"seat": 0, "value": 5, "beach": False}
    assert t.refresh()["state"]["track"][20] == []
    assert log_length(client, t.id) == 3
    assert_problem(client.post(url, json={"expected_version": 0, "event": die(4)}), 409, "stale-version")


def test_conditional_get_answers_304_until_something_changes(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    first = client.get(f"/api/tables/{t.id}")
    etag = first.headers["ETag"]
    assert client.get(f"/api/tables/{t.id}", headers={"If-None-Match": etag}).status_code == 304
    t.play(reveal(2))
    changed = client.get(f"/api/tables/{t.id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_request_over_the_size_limit_gets_413(client: FlaskClient) -> None:
    huge = json.dumps({"game": "mahe", "players": [], "padding": "x" * 400_000})
    response = client.post("/api/tables", data=huge, headers={"Content-Type": "application/json"})
    assert_problem(response, 413, "request-too-large")


def test_security_headers_on_api_and_app(client: FlaskClient) -> None:
    for path in ("/api/games", "/"):
        headers = client.get(path).headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_games_list_names_mahe_with_its_option_defaults(client: FlaskClient) -> None:
    games = client.get("/api/games").get_json()
    mahe = next(g for g in games if g["name"] == "mahe")
    assert (mahe["min_players"], mahe["max_players"]) == (2, 7)
    assert mahe["options"]["chance"] == "physical"


def test_preview_never_reveals_a_server_die(client: FlaskClient) -> None:
    """MA-12: in digital games the drawn die stays secret until recorded; undo cannot fish for it."""
    t = TableDriver.create(client, **four_players(chance="digital"), seed=99)
    url = f"/api/tables/{t.id}/preview"
    refused = client.post(url, json={"event": {"type": "die"}})
    assert_problem(refused, 422, "preview-would-reveal-chance")
    assert t.refresh()["state"]["draws"] == 0
