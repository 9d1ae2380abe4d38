"""Exports of a finished game (JSON record, CSV, BG Stats) and their verification by replay."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote

from flask.testing import FlaskClient

from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver, four_players, reveal


def test_unfinished_game_cannot_be_exported(client: FlaskClient) -> None:
    t = TableDriver.create(client, **four_players())
    t.play(reveal(2))
    for path in ("export", "export.csv", "export/bgstats"):
        response = client.get(f"/api/tables/{t.id}/{path}")
        assert response.status_code == 409
        assert response.get_json()["code"] == "game-not-finished"


def test_record_replays_to_the_same_result_and_reveals_the_seed(client: FlaskClient) -> None:
    t = play_short_game(client)
    assert t.table["seed"] is not None
    record = client.get(f"/api/tables/{t.id}/export").get_json()
    assert record["format"] == "kibitz-record/3"
    assert record["seed"] == str(t.table["seed"])  # format 3: decimal digits, exact in any language
    assert record["result"] == t.table["result"]
    assert record["result"]["winners"] == [0]
    verdict = client.post("/api/verify", json=record).get_json()
    assert verdict == {
        "valid": True,
        "finished": True,
        "result": record["result"],
        "claimed_result_matches": True,
        "chain": {"intact": True, "index": None, "seq": None, "reason": None},
        "signature": "valid",
        "problem": None,
        "format": "kibitz-record/3",
        "unbound": [],
        "currency": "current",
        "current_head": {"version": t.table["version"], "entries": t.table["version"]},
    }


def test_verify_catches_a_forged_result_and_a_forged_log(client: FlaskClient) -> None:
    record = client.get(f"/api/tables/{play_short_game(client).id}/export").get_json()
    forged = json.loads(json.dumps(record))
    forged["result"]["winners"] = [1]
    verdict = client.post("/api/verify", json=forged).get_json()
    assert not verdict["valid"] and not verdict["claimed_result_matches"]
    assert verdict["result"]["winners"] == [0]
    cheated = json.loads(json.dumps(record))
    cheated["events"][2]["event"] = {"type": "die", "value": 6}  # 2, 6: a bust, so the log goes astray
    verdict = client.post("/api/verify", json=cheated).get_json()
    assert not verdict["valid"]
    truncated = {**record, "events": record["events"][:10]}
    verdict = client.post("/api/verify", json=truncated).get_json()
    assert not verdict["valid"] and verdict["problem"]["code"] == "record-tampered"
    assert verdict["chain"]["reason"] == "entries-missing-at-the-end"
    # A record without its chain (written by hand) is still checked by replaying it.
    bare = {k: v for k, v in truncated.items() if k != "chain"}
    bare["events"] = [{"seq": e["seq"], "event": e["event"]} for e in bare["events"]]
    verdict = client.post("/api/verify", json=bare).get_json()
    assert not verdict["valid"] and verdict["problem"]["code"] == "game-not-finished"


def test_verify_rejects_what_is_not_a_record(client: FlaskClient) -> None:
    response = client.post("/api/verify", json={"format": "something-else", "events": []})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"


def test_csv_has_one_row_per_player_with_eggs_cards_and_winner(client: FlaskClient) -> None:
    t = play_short_game(client)
    response = client.get(f"/api/tables/{t.id}/export.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["name"] for r in rows] == ["Martin", "Eva", "David", "Andrea"]
    martin = rows[0]
    assert martin["place"] == "1" and martin["winner"] == "True"
    assert int(martin["eggs"]) == t.table["result"]["ranking"][0]["eggs"]
    assert int(martin["cards"]) == 21


def test_bgstats_link_carries_the_play(client: FlaskClient) -> None:
    t = play_short_game(client)
    body = client.get(f"/api/tables/{t.id}/export/bgstats").get_json()
    prefix = "bgstats://app.bgstatsapp.com/createPlay.html?data="
    assert body["url"].startswith(prefix)
    play = json.loads(unquote(body["url"][len(prefix) :]))
    assert play == body["play"]
    assert play["game"]["name"] == "Mahé" and play["sourceName"] == "Kibitz"
    winners = [p["name"] for p in play["players"] if p["winner"]]
    assert winners == ["Martin"]
    assert {p["name"]: p["score"] for p in play["players"]}["Eva"] == 0
