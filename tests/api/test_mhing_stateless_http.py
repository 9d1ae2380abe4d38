"""The stateless Mhing endpoints: score, waits, points, claims — and their OpenAPI documentation."""

from __future__ import annotations

from flask.testing import FlaskClient
from openapi_spec_validator import validate

from api.games.mhing.endpoints import CLAIMS_EXAMPLE, SCORE_EXAMPLE, WAITS_EXAMPLE
from api.http.openapi_doc import render_openapi
from tests.openapi_document import load_yaml


def test_score_the_documented_example(client: FlaskClient) -> None:
    response = client.post("/api/mhing/score", json=SCORE_EXAMPLE)
    assert response.status_code == 200
    body = response.get_json()
    assert body["wins"] and body["discard"] is True and body["flowers"] == ["f1"]
    reading = body["reading"]
    assert reading["groups"][0] == {
        "cards": ["b3", "b4", "b5"],
        "notation": "b3 jk=b4 b5",
        "kind": "sequence",
        "laid_out": True,
        "jokers": 1,
    }
    assert reading["jokers_as"] == ["dr"]
    codes = {p["code"]: p["premiums"] for p in body["premiums"]}
    assert codes == {"flower": 1, "honour-triplet": 2, "pair-2-5-8": 1, "all-suits-winds-dragons": 5}
    assert body["total_premiums"] == 9 and body["points"] == 64


def test_score_accepts_lists_and_answers_why_a_hand_does_not_go_out(client: FlaskClient) -> None:
    listed = client.post(
        "/api/mhing/score",
        json={
            "groups": [["B1", "b2", "b3"]],
            "hidden": ["c5", "c5", "c5", "we", "we", "we", "dr", "dr", "dr", "k2", "k2"],
        },
    ).get_json()
    assert listed["wins"] and listed["points"] == 64
    short = client.post("/api/mhing/score", json={"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2"})
    assert short.status_code == 200
    assert short.get_json()["wins"] is False and short.get_json()["reason"].startswith("13 cards")
    assert short.get_json()["reason_code"] == "wrong-card-count"


def test_score_problems_are_problem_json(client: FlaskClient) -> None:
    cases = {
        "b1 b2 q7": "unknown-card",
        "b1 b1 b1 b1 b1": "too-many-copies",
        "jk jk jk jk jk jk jk": "too-many-jokers",
        "f1 f1 f2 f2 f3 f3 f4 f4 f1": "too-many-flowers",
    }
    for hidden, code in cases.items():
        response = client.post("/api/mhing/score", json={"hidden": hidden})
        assert response.status_code == 422 and response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == code
    flower = client.post("/api/mhing/score", json={"groups": ["f1 b2 b3"], "hidden": "b1"})
    assert flower.get_json()["code"] == "flower-in-group"
    shape = client.post("/api/mhing/score", json={"hidden": 14})
    assert shape.status_code == 422 and shape.get_json()["code"] == "invalid-request"


def test_waits(client: FlaskClient) -> None:
    body = client.post("/api/mhing/waits", json=WAITS_EXAMPLE).get_json()
    assert body["ready"] and body["cards"] == 13
    assert {w["card"]: w["points"] for w in body["waits"]} == {"dr": 64, "k2": 32, "jk": 64}
    assert all(w["reading"]["kind"] == "groups-and-pair" for w in body["waits"])
    wrong = client.post("/api/mhing/waits", json={"hidden": "b1 b2 b3"})
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "wrong-card-count"


def test_points_by_get_and_post(client: FlaskClient) -> None:
    assert client.get("/api/mhing/points?premiums=7").get_json() == {
        "premiums": 7,
        "points": 32,
        "rule": "MH-8",
    }
    assert client.get("/api/mhing/points?premiums=0").get_json()["points"] == 0
    assert client.post("/api/mhing/points", json={"premiums": 2}).get_json()["points"] == 4
    assert client.get("/api/mhing/points").status_code == 422
    assert client.get("/api/mhing/points?premiums=-1").status_code == 422


def test_claims(client: FlaskClient) -> None:
    body = client.post("/api/mhing/claims", json=CLAIMS_EXAMPLE).get_json()
    assert body["taker"] == {"seat": 3, "kind": "triplet"} and body["skipped"] == [1, 2]
    own = client.post(
        "/api/mhing/claims", json={"discarder": 1, "seats": 4, "claims": [{"seat": 1, "kind": "out"}]}
    )
    assert (
        own.status_code == 422
        and own.get_json()["code"] == "own-discard"
        and own.get_json()["rule"] == "MH-4"
    )
    far = client.post(
        "/api/mhing/claims", json={"discarder": 1, "seats": 3, "claims": [{"seat": 4, "kind": "out"}]}
    )
    assert far.get_json()["code"] == "no-such-seat"
    kind = client.post(
        "/api/mhing/claims", json={"discarder": 1, "seats": 3, "claims": [{"seat": 2, "kind": "pung"}]}
    )
    assert kind.status_code == 422 and kind.get_json()["code"] == "invalid-request"


def test_every_mhing_operation_is_documented() -> None:
    document = load_yaml(render_openapi())
    validate(document)
    paths = {p: ops for p, ops in document["paths"].items() if p.startswith("/api/mhing")}
    assert set(paths) == {"/api/mhing/score", "/api/mhing/waits", "/api/mhing/points", "/api/mhing/claims"}
    for path, operations in paths.items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            assert operation.get("summary") and operation.get("description"), where
            assert "422" in operation["responses"], where
            if method == "post":
                body = operation["requestBody"]["content"]["application/json"]
                assert "example" in body or "examples" in body, where
