"""Each player's own view (e.g. the Magellan hand in ledger depth) opens only with that seat's token."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.table_client import four_players


def create_ledger_magellan(client: FlaskClient) -> dict:
    response = client.post(
        "/api/tables",
        json={
            "game": "magellan",
            "players": [{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
            "options": {"depth": "ledger", "chance": "digital"},
            "seed": 11,
        },
    )
    assert response.status_code == 201
    return response.get_json()


def test_each_seat_sees_its_own_hand_and_no_one_elses(client: FlaskClient) -> None:
    """MG-3: the starting money set 1–9 is held secretly in hand."""
    created = create_ledger_magellan(client)
    seats = created["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert seats[1]["path"] == f"/#/t/{created['id']}?s=1&sk={seats[1]['token']}"
    assert len({s["token"] for s in seats} | {created["write_token"]}) == 4
    url = f"/api/tables/{created['id']}/seats"

    own = client.get(f"{url}/1", headers={"Authorization": f"Bearer {seats[1]['token']}"})
    assert own.status_code == 200
    assert own.get_json()["seat"] == 1
    assert sorted(own.get_json()["view"]["hand"]) == list(range(1, 10))
    public = client.get(f"/api/tables/{created['id']}").get_json()["state"]
    assert public["players"][1]["hand_size"] == 9
    assert "hand" not in public["players"][1], "the public view tells the size, never the cards"

    for token in (seats[0]["token"], created["write_token"]):
        refused = client.get(f"{url}/1", headers={"Authorization": f"Bearer {token}"})
        assert refused.status_code == 403 and refused.get_json()["code"] == "bad-seat-token"
    assert client.get(f"{url}/1").get_json()["code"] == "seat-token-required"
    assert client.get(f"{url}/7", headers={"Authorization": "Bearer x"}).status_code == 404


def test_mahe_own_view_shows_the_face_down_egg_cards(client: FlaskClient) -> None:
    """MA-7 Decision: the shared view counts a player's cards; their own view shows the values."""
    created = client.post("/api/tables", json=four_players()).get_json()
    seat = created["seats"][2]
    response = client.get(
        f"/api/tables/{created['id']}/seats/2", headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert response.get_json() == {
        "seat": 2,
        "view": {"seat": 2, "name": "David", "cards": [], "beach": False, "eggs": 0, "card_count": 0},
    }
