"""Mhing tables through the HTTP API on SQLite and PostgreSQL: rounds, dealer rotation, MH-9 settlements."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.table_client import TableDriver

E1 = "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"  # 8 premiums → 64 points


def mhing(count: int, **options: Any) -> dict[str, Any]:
    names = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:count]
    return {"game": "mhing", "players": [{"name": n} for n in names], "options": options}


def won(winner: int, discarder: int | None = None, **hand: Any) -> dict[str, Any]:
    return {"type": "round_won", "winner": winner, "discarder": discarder, "hand": {"hidden": E1, **hand}}


def typed(winner: int, points: int, discarder: int | None = None) -> dict[str, Any]:
    return {"type": "round_points", "winner": winner, "points": points, "discarder": discarder}


def scores(table: dict[str, Any]) -> list[int]:
    return [p["score"] for p in table["state"]["players"]]


def test_mh9_variant_1_several_rounds_until_someone_reaches_500(any_db_client: FlaskClient) -> None:
    t = TableDriver.create(any_db_client, **mhing(3, first_seat=1))
    assert t.table["options"] == {"settlement": 1, "first_seat": 1}
    assert t.legal["dealer"] == {"seat": 1, "name": "Bo"}
    t.play(won(0, discarder=2, flowers="f1 f2"))  # 10 premiums → 64
    assert scores(t.table) == [64, 0, 0]
    last = t.state["last_round"]
    assert last["premiums"] == 10 and last["points"] == 64 and last["discarder"] == 2
    assert last["score"]["reading"]["notation"] == "b1 b2 b3 | c5 c5 c5 | we we we | dr dr dr | k2 k2"
    t.play({"type": "round_drawn"}, typed(2, 256))
    assert scores(t.table) == [64, 0, 256] and t.legal["dealer"]["seat"] == 1  # 1 → 2 → 0 → 1
    t.play(typed(0, 128, discarder=1), typed(1, 32))
    assert not t.table["finished"] and t.table["result"] is None
    table = t.play(typed(0, 512))
    assert table["finished"] and scores(table) == [704, 32, 256]
    result = table["result"]
    assert result["winners"] == [0] and result["decided_by"] == "target"
    assert [(r["name"], r["score"], r["place"]) for r in result["ranking"]] == [
        ("Ada", 704, 1),
        ("Cy", 256, 2),
        ("Bo", 32, 3),
    ]
    assert set(result["ranking"][0]) >= {"seat", "name", "score", "place"}
    refused = t.post({"type": "round_drawn"})
    assert refused.status_code == 422 and refused.get_json()["code"] == "game-over"


def test_mh9_variant_2_discarder_pays_double_and_a_payer_runs_out(any_db_client: FlaskClient) -> None:
    t = TableDriver.create(any_db_client, **mhing(3, settlement=2))
    assert scores(t.table) == [500, 500, 500] and t.state["total_points"] == 1500
    t.play(won(0))  # drawn from the stack: 64 from each
    assert scores(t.table) == [628, 436, 436]
    t.play(typed(0, 256, discarder=1))  # Bo owes 512 but has 436
    payments = t.state["last_round"]["payments"]
    assert payments == [{"seat": 1, "owed": 512, "paid": 436}, {"seat": 2, "owed": 256, "paid": 256}]
    assert scores(t.table) == [1320, 0, 180]
    assert "nothing-left" in {n["code"] for n in t.legal["notes"]}
    t.play(won(1, discarder=2))  # Bo, at 0, wins: Ada pays 64, Cy pays double
    assert scores(t.table) == [1256, 192, 52]
    t.play(typed(0, 2048, discarder=1))
    table = t.table
    assert table["finished"] and scores(table) == [1500, 0, 0]
    assert table["result"]["decided_by"] == "all-points" and table["result"]["winners"] == [0]
    log = any_db_client.get(f"/api/tables/{t.id}/events").get_json()
    assert [e["event"]["type"] for e in log["events"]] == [
        "round_won",
        "round_points",
        "round_won",
        "round_points",
    ]


def test_refusals_and_undo_through_the_table(any_db_client: FlaskClient) -> None:
    t = TableDriver.create(any_db_client, **mhing(4, settlement=2))
    bad_hand = t.post(won(0, hidden="b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k3"))
    assert bad_hand.status_code == 422 and bad_hand.get_json()["code"] == "not-a-winning-hand"
    assert "four groups and a pair" in bad_hand.get_json()["detail"]
    fifth = t.post(won(0, hidden="b1 b1 b1 b1 b1 c5 c5 c5 we we we dr dr dr"))
    assert fifth.get_json()["code"] == "too-many-copies" and fifth.get_json()["rule"] == "MH-1"
    own = t.post(won(0, discarder=0))
    assert own.get_json()["code"] == "discarder-is-winner"
    points = t.post(typed(0, 100))
    assert points.get_json()["code"] == "not-a-points-value" and points.get_json()["rule"] == "MH-8"
    t.play(typed(3, 64), {"type": "undo"})
    assert scores(t.table) == [500] * 4 and t.state["rounds"] == []


def test_variant_2_refused_for_five_players(any_db_client: FlaskClient) -> None:
    response = any_db_client.post("/api/tables", json=mhing(5, settlement=2))
    assert response.status_code == 422
    assert response.get_json()["code"] == "settlement-player-count" and response.get_json()["rule"] == "MH-9"


def test_mhing_is_listed_with_its_option_defaults(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").get_json()}
    assert games["mhing"] == {
        "name": "mhing",
        "title": "Mhing",
        "min_players": 2,
        "max_players": 6,
        "options": {"settlement": 1, "first_seat": 0},
    }
