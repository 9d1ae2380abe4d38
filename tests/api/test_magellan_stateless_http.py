"""Magellan over HTTP beside the examples: stateless endpoints' errors, options, a digital ledger table."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from api.rules.magellan.powers import POWERS
from api.rules.magellan.sheet import blank_sheet
from api.rules.referee import Referee
from tests.api.table_client import TableDriver


def test_games_list_magellan_with_its_option_defaults(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").get_json()}
    magellan = games["magellan"]
    assert (magellan["min_players"], magellan["max_players"]) == (3, 6)
    options = magellan["options"]
    assert options["depth"] == "outcomes" and options["chance"] == "physical" and options["auctioneer"] == 0
    assert set(options["sides"].values()) == {"A"} and options["board_sheet"] == blank_sheet()


def test_games_serve_magellans_powers_as_the_engine_reads_them(client: FlaskClient) -> None:
    """MG-8 as data: "what does Cook B do on field II?" has one answer, the engine's own table."""
    games = {g["name"]: g for g in client.get("/api/games").get_json()}
    powers = {(p["explorer"], p["side"], p["field"]): p for p in games["magellan"]["powers"]}
    assert powers == {cell: power.as_json() for cell, power in POWERS.items()} and len(powers) == 36
    cook = powers["cook", "B", 2]
    assert cook["neighbour_pull"] and cook["keep_in_hand"] == 1 and cook["rule"] == "MG-8"
    assert powers["vasco", "A", 3]["draws"] == 3 and powers["pizarro", "B", 3]["crowns"] == "pizarro-draw"
    assert "powers" not in games["mahe"] and "powers" not in games["mhing"]


def test_score_refuses_incomplete_sheets_and_impossible_positions(client: FlaskClient) -> None:
    body = {
        "board_sheet": blank_sheet(),
        "players": [
            {"name": "Red", "ships": [{"explorer": "cook", "field": 1}]},
            {"name": "Blue"},
            {"name": "Tan"},
        ],
    }
    response = client.post("/api/magellan/score", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["code"] == "board-sheet-incomplete" and "Cook side A field I: crowns" in problem["detail"]
    body["players"][0]["ships"] = [{"explorer": "cook", "field": 4}]
    assert client.post("/api/magellan/score", json=body).status_code == 422
    bad_sheet = {
        "board_sheet": {"explorers": {"nobody": {}}},
        "players": [{"name": n} for n in ("Red", "Blue", "Tan")],
    }
    response = client.post("/api/magellan/score", json=bad_sheet)
    assert response.status_code == 422 and response.get_json()["code"] == "invalid-board-sheet"


@pytest.mark.parametrize("count", [1, 2, 7])
def test_score_refuses_a_player_count_magellan_is_not_for(client: FlaskClient, count: int) -> None:
    """Magellan is for 3 to 6 players (MG-3): the stateless score refuses 1, 2 or 7, citing the rule,
    and so does the phone's own referee (the same rules, asked as the app asks them)."""
    body = {"board_sheet": blank_sheet(), "players": [{"name": f"P{i}"} for i in range(count)]}
    response = client.post("/api/magellan/score", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert "3 to 6 players" in problem["detail"] and "MG-3" in problem["detail"]
    answer = json.loads(Referee().handle(json.dumps({"op": "magellan.score", "body": body})))
    assert (
        not answer["ok"] and answer["error"]["code"] == "player-count" and answer["error"]["rule"] == "MG-3"
    )


def test_score_with_a_simulated_pizarro_draw(client: FlaskClient) -> None:
    sheet = blank_sheet()
    body = {
        "sides": {"pizarro": "B"},
        "board_sheet": sheet,
        "players": [
            {
                "name": "Red",
                "ships": [{"explorer": "pizarro", "field": 3}],
                "pizarro": {"simulate": {"seed": 9, "count": 2}},
            },
            {"name": "Blue"},
            {"name": "Tan"},
        ],
    }
    first = client.post("/api/magellan/score", json=body).get_json()
    body["players"][0]["pizarro"]["simulate"]["count"] = 3
    second = client.post("/api/magellan/score", json=body).get_json()
    draws2, draws3 = first["scores"][0]["pizarro"]["draws"], second["scores"][0]["pizarro"]["draws"]
    assert len(draws2) == 2 and draws3[:2] == draws2


def test_odds_with_an_explicit_stack(client: FlaskClient) -> None:
    body = client.post("/api/magellan/pizarro/odds", json={"stack": {"9": 2, "1": 2}, "total": 12}).get_json()
    assert body["bust_chance"] == 0.5 and body["stack_size"] == 4
    response = client.post("/api/magellan/pizarro/odds", json={"stack": {"10": 1}})
    assert response.status_code == 422


def test_sheet_check(client: FlaskClient) -> None:
    body = client.post(
        "/api/magellan/board-sheet/check", json={"sheet": {}, "sides": {"vasco": "B"}}
    ).get_json()
    assert not body["complete"] and "Vasco da Gama side B field I right part: crowns" in body["missing"]
    assert any("left part" in f["entry"] for f in body["rule_fixed"])


def test_digital_ledger_table_keeps_hands_and_draws_secret(client: FlaskClient) -> None:
    t = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Ann"}, {"name": "Ben"}, {"name": "Cid"}],
        options={"depth": "ledger", "chance": "digital", "sides": {"vasco": "A"}},
        seed=11,
    )
    assert t.state["stage"] == "auction" and t.state["card"]["explorer"]
    assert all(p["hand_size"] == 9 and p["open_hand"] is None for p in t.state["players"])
    assert t.state["money"]["draw_stack"] == 63 - 27 and "draw" not in t.state["money"]
    assert t.table["seed"] == 11  # a seed the creator chose is everyone's to see (MA-12-1 / MG-3-1 ruling)
    # Everyone passes: the next card is turned up by the server, so a preview must not show it.
    t.play({"type": "pass"}, {"type": "pass"})
    preview = client.post(f"/api/tables/{t.id}/preview", json={"event": {"type": "pass"}})
    assert preview.status_code == 422 and preview.get_json()["code"] == "preview-would-reveal-chance"
    next_seat = t.legal["next"]["seat"]
    # A ledger bid depends on the bidder's hand: only the bidder's own seat link may record it.
    refused = t.post({"type": "bid", "amount": 46, "seat": next_seat})
    assert refused.status_code == 403 and refused.get_json()["code"] == "seat-token-required"
    own = t.post({"type": "bid", "amount": 46, "seat": next_seat}, seat=next_seat)
    assert own.status_code == 422 and own.get_json()["code"] == "bid-above-money"
    table = t.play({"type": "pass"})
    assert table["state"]["history"][0]["outcome"] == "no-bids"
    assert table["state"]["decks"][0]["remaining"] == 16
