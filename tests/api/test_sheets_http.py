"""Board sheets (MG-2): stored by name, never invented, updated only with the edit token."""

from __future__ import annotations

import copy

from flask.testing import FlaskClient


def blank(client: FlaskClient) -> dict:
    response = client.get("/api/sheets/template?game=magellan")
    assert response.status_code == 200
    return response.get_json()["data"]


def filled(data: dict, value: int = 1) -> dict:
    """Every null number set to `value` (test data typed in, as a player would from a board)."""
    if isinstance(data, dict):
        return {k: filled(v, value) for k, v in data.items()}
    return value if data is None else data


def test_template_is_all_empty_no_invented_numbers(client: FlaskClient) -> None:
    """MG-2 Decision: the software never invents field values."""
    data = blank(client)
    numbers: list = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        else:
            numbers.append(node)

    walk(data)
    assert numbers and all(n is None for n in numbers)
    assert set(data["explorers"]) == {"columbus", "pizarro", "magellan", "marco_polo", "vasco", "cook"}


def test_create_read_update_a_sheet(any_db_client: FlaskClient) -> None:
    client = any_db_client
    data = blank(client)
    created = client.post("/api/sheets", json={"game": "magellan", "name": "Our board", "data": data})
    assert created.status_code == 201
    body = created.get_json()
    sheet_id, token = body["id"], body["edit_token"]
    assert not body["sheet"]["complete"] and body["sheet"]["missing"]
    complete = filled(data)
    url = f"/api/sheets/{sheet_id}"
    update = {"name": "Our board", "data": complete, "expected_version": 1}
    assert client.put(url, json=update).status_code == 401
    assert client.put(url, json=update, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(url).get_json()["version"] == 1
    done = client.put(url, json=update, headers={"Authorization": f"Bearer {token}"})
    assert done.status_code == 200
    assert done.get_json()["complete"] and done.get_json()["missing"] == []
    stale = client.put(url, json=update, headers={"Authorization": f"Bearer {token}"})
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale-version"
    assert client.get(url).get_json()["data"] == complete


def test_bad_sheets_are_refused_clearly(client: FlaskClient) -> None:
    data = blank(client)
    negative = copy.deepcopy(data)
    negative["explorers"]["cook"]["A"]["I"]["bags"] = -2
    response = client.post("/api/sheets", json={"game": "magellan", "name": "x", "data": negative})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["detail"]
    other = client.post("/api/sheets", json={"game": "mahe", "name": "x", "data": {}})
    assert other.status_code == 422 and other.get_json()["code"] == "no-board-sheets"
    assert client.get("/api/sheets/nope").status_code == 404
