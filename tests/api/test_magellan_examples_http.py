"""MG-10 and MG-11 Examples of REFEREE.md, reproduced through the HTTP API: a whole table played by
events (outcomes depth, physical cards), and the same end position through POST /api/magellan/score.

The board-sheet numbers used here are TEST DATA chosen so that the rule book's totals come out (red:
Marco Polo 0, Vasco da Gama 1); the software never ships such numbers (MG-2).
"""

from __future__ import annotations

import copy
from typing import Any

from flask.testing import FlaskClient

from api.games.magellan.endpoints import SCORE_EXAMPLE
from api.rules.magellan.sheet import blank_sheet
from tests.api.table_client import TableDriver

RED, BLUE, GREEN = 0, 1, 2


def example_sheet() -> dict[str, Any]:
    """TEST DATA: only the crowns this end position needs (MG-2: nothing else is asked for)."""
    sheet = blank_sheet()
    explorers = sheet["explorers"]
    explorers["marco_polo"]["A"]["I"]["crowns"] = 0
    explorers["vasco"]["A"]["I"]["crowns"] = 1
    explorers["cook"]["A"]["III"]["crowns"] = 10
    explorers["columbus"]["A"]["I"]["crowns"] = 5
    return sheet


def reveal(explorer: str) -> dict[str, Any]:
    return {"type": "reveal", "explorer": explorer}


def auction(t: TableDriver, winner: int | None, price: int = 1) -> None:
    """Everyone passes except `winner`, who bids `price` when it is their turn (MG-4)."""
    while t.legal["step"] == "bid":
        seat = t.legal["next"]["seat"]
        if seat == winner:
            t.play({"type": "bid", "amount": price, "seat": seat})
        else:
            t.play({"type": "pass", "seat": seat})


def sell(t: TableDriver, explorer: str, winner: int | None, price: int = 1) -> None:
    t.play(reveal(explorer))
    auction(t, winner, price)


def slide(t: TableDriver, value: int, pile: int | None = None) -> None:
    event: dict[str, Any] = {"type": "slide", "value": value, "seat": RED}
    if pile is not None:
        event["pile"] = pile
    t.play(event)


def play_the_example_game(client: FlaskClient) -> TableDriver:
    t = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"sides": {"pizarro": "B"}, "depth": "outcomes", "chance": "physical", "auctioneer": 0},
    )
    # Phase I: red wins two Magellan cards (slides 1 and 2), Pizarro, Marco Polo and Vasco da Gama.
    sell(t, "magellan", RED)
    slide(t, 1)
    sell(t, "magellan", RED)
    slide(t, 2)
    sell(t, "pizarro", RED)
    sell(t, "marco_polo", RED)
    sell(t, "vasco", RED)
    sell(t, "cook", BLUE)
    for _ in range(3):
        sell(t, "columbus", BLUE)
    sell(t, "vasco", GREEN)
    for explorer in ("pizarro", "pizarro", "magellan", "marco_polo", "marco_polo", "vasco", "cook", "cook"):
        sell(t, explorer, None)
    assert t.state["phase"] == 2
    # Phase II: red wins both Magellan cards again (slides 1 and 4) and Pizarro; blue Cook.
    sell(t, "magellan", RED)
    slide(t, 1, pile=0)
    sell(t, "magellan", RED)
    slide(t, 4)
    sell(t, "pizarro", RED)
    t.play(reveal("pizarro"))  # nobody has a Pizarro ship left on field I: to the box (MG-5)
    sell(t, "cook", BLUE)
    t.play(reveal("cook"))
    for explorer in ("columbus", "columbus", "marco_polo", "marco_polo", "vasco", "vasco"):
        sell(t, explorer, None)
    assert t.state["phase"] == 3
    # Phase III: red the single Magellan card (slides 5) and Pizarro; blue wins the last card, Cook.
    sell(t, "magellan", RED)
    slide(t, 5, pile=0)
    sell(t, "pizarro", RED)
    for explorer in ("columbus", "marco_polo", "vasco"):
        t.play(reveal(explorer))  # nobody eligible (MG-5)
    sell(t, "cook", BLUE)
    return t


def test_mg10_and_mg11_examples_through_table_events(client: FlaskClient) -> None:
    t = play_the_example_game(client)
    assert t.state["stage"] == "scoring" and t.legal["step"] == "final_hand"
    history = t.state["history"]
    assert [sum(1 for h in history if h["phase"] == p and h["outcome"] != "vetoed") for p in (1, 2, 3)] == [
        18,
        12,
        6,
    ]
    t.play(
        {"type": "final_hand", "seat": RED, "cards": [8]},
        {"type": "final_hand", "seat": BLUE, "cards": [1, 1, 1, 2, 2, 2, 3, 3, 3]},
        {"type": "final_hand", "seat": GREEN, "cards": [7]},
    )
    # MG-2: the crowns are not entered yet, so the scoring waits and says what is missing.
    blocked = t.legal["blocked"]
    assert (
        blocked["code"] == "board-sheet-incomplete" and "Cook side A field III: crowns" in blocked["missing"]
    )
    refused = t.post({"type": "pizarro_draw", "value": 5})
    assert refused.status_code == 422 and refused.get_json()["code"] == "board-sheet-incomplete"
    t.play({"type": "set_board_sheet", "sheet": example_sheet()})
    # MG-10 Example: red has 36 before Pizarro; red scores last (blue won the last card).
    scores = t.state["scoring"]["scores"]
    red = scores[RED]
    assert t.state["scoring"]["order"] == [BLUE, GREEN, RED]
    assert [p["points"] for p in red["magellan"]["piles"]] == [24, 10]
    assert [(p["crowns"], p["multiplier"]) for p in red["magellan"]["piles"]] == [(8, 3), (5, 2)]
    assert red["by_explorer"]["magellan"] == 34
    assert red["by_explorer"]["marco_polo"] == 0 and red["by_explorer"]["vasco"] == 1
    assert red["money"]["crowns"] == 1
    assert red["before_pizarro"] == 36
    assert scores[BLUE]["total"] == 52
    # MG-11 Example: 5, 6, 2 → 13, 49 in all — but blue has 52, so red draws again.
    assert t.legal["next"]["seat"] == RED and t.legal["step"] == "pizarro"
    t.play(*({"type": "pizarro_draw", "value": v} for v in (5, 6, 2)))
    draw = t.legal["actors"][0]["actions"][0]
    assert draw["total"] == 13 and draw["to_beat"] == 16
    assert t.state["scoring"]["scores"][RED]["total"] == 49
    table = t.play({"type": "pizarro_draw", "value": 8})  # 21 > 20: Pizarro 0
    assert table["finished"]
    result = table["result"]
    red = result["scores"][RED]
    assert red["pizarro"] == {"draws": [5, 6, 2, 8], "sum": 21, "points": 0, "bust": True}
    assert red["total"] == 36
    assert [(r["name"], r["score"], r["place"]) for r in result["ranking"]] == [
        ("Blue", 52, 1),
        ("Red", 36, 2),
        ("Green", 2, 3),
    ]


def test_mg10_and_mg11_examples_through_the_stateless_endpoint(client: FlaskClient) -> None:
    body = client.post("/api/magellan/score", json=SCORE_EXAMPLE).get_json()
    red = body["scores"][0]
    assert body["scoring_order"] == [1, 2, 0]
    assert red["magellan"]["points"] == 34 and red["before_pizarro"] == 36
    assert red["by_explorer"] == {
        "columbus": 0,
        "pizarro": 0,
        "magellan": 34,
        "marco_polo": 0,
        "vasco": 1,
        "cook": 0,
    }
    assert red["pizarro"]["sum"] == 21 and red["pizarro"]["points"] == 0 and red["total"] == 36
    assert [(r["name"], r["score"]) for r in body["ranking"]] == [("Blue", 52), ("Red", 36), ("Green", 0)]
    # Stopping after 5, 6, 2 would have given 49 (MG-11 Example).
    stopped = copy.deepcopy(SCORE_EXAMPLE)
    stopped["players"][0]["pizarro"] = {"draws": [5, 6, 2]}
    assert client.post("/api/magellan/score", json=stopped).get_json()["scores"][0]["total"] == 49


def test_mg11_odds_for_the_example_situation(client: FlaskClient) -> None:
    """After 5, 6, 2 red needs more than 16 to beat blue: the odds say draw for that, stop for points."""
    known = [8, 1, 1, 5, 2, 4, 1, 1, 1, 2, 2, 2, 3, 3, 3, 7]
    body = client.post(
        "/api/magellan/pizarro/odds", json={"known_cards": known, "drawn": [5, 6, 2], "target": 16}
    ).get_json()
    assert body["total"] == 13 and body["stack_size"] == 63 - len(known) - 3
    assert 0 < body["bust_chance"] < 1 and body["beat_advice"] == "draw"
    assert 0 < body["beat_chance"] < body["tie_or_beat_chance"] < 1
