"""The log of a running Magellan game masks secret card values; the finished record shows them."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.test_magellan_examples_http import example_sheet, play_the_example_game


def slides(events: list[dict]) -> list[object]:
    return [e["event"]["value"] for e in events if e["event"]["type"] == "slide"]


def test_slid_magellan_cards_stay_secret_until_the_game_is_over(client: FlaskClient) -> None:
    """MG-8: cards slid under Magellan (side A) lie face down; the open log must not tell them."""
    t = play_the_example_game(client)
    running = client.get(f"/api/tables/{t.id}/events").get_json()["events"]
    assert slides(running) == ["hidden"] * 5
    t.play(
        {"type": "final_hand", "seat": 0, "cards": [8]},
        {"type": "final_hand", "seat": 1, "cards": [1, 1, 1, 2, 2, 2, 3, 3, 3]},
        {"type": "final_hand", "seat": 2, "cards": [7]},
        {"type": "set_board_sheet", "sheet": example_sheet()},
        *({"type": "pizarro_draw", "value": v} for v in (5, 6, 2, 8)),
    )
    assert t.table["finished"]
    finished = client.get(f"/api/tables/{t.id}/events").get_json()["events"]
    assert slides(finished) == [1, 2, 1, 4, 5]
    record = client.get(f"/api/tables/{t.id}/export").get_json()
    assert client.post("/api/verify", json=record).get_json()["valid"]
