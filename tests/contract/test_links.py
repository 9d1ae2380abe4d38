"""OpenAPI links: the document itself says that creating a table (or a sheet) gives the id, tokens
and seats the other operations need — and following each link on a real answer works."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.openapi_document import openapi_document

DOC = openapi_document()
OPERATIONS = {
    op["operationId"]: (path, method, op)
    for path, item in DOC["paths"].items()
    for method, op in item.items()
    if isinstance(op, dict) and "operationId" in op
}


def resolve(expression: str, body: dict[str, Any]) -> Any:
    """`$response.body#/seats/0/seat` → the value at that JSON pointer."""
    assert expression.startswith("$response.body#/"), expression
    value: Any = body
    for part in expression.removeprefix("$response.body#/").split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def links_of(path: str) -> dict[str, Any]:
    links: dict[str, Any] = DOC["paths"][path]["post"]["responses"]["201"]["links"]
    return links


def test_every_link_names_a_real_operation_and_its_parameters() -> None:
    for path in ("/api/tables", "/api/sheets"):
        for name, link in links_of(path).items():
            target_path, _method, operation = OPERATIONS[link["operationId"]]
            declared = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "path"}
            declared |= {part.strip("{}") for part in target_path.split("/") if part.startswith("{")}
            assert set(link["parameters"]) - {"header.Authorization"} <= declared, name
            if "header.Authorization" in link["parameters"]:  # the token the target's security needs
                assert operation["security"], name


def test_following_the_links_of_a_new_table_reaches_it(client: FlaskClient) -> None:
    body = {
        "game": "mahe",
        "players": [
            {"name": "Eva", "colours": ["red", "yellow"]},
            {"name": "Tom", "colours": ["green", "darkblue"]},
        ],
        "options": {},
    }
    created = client.post("/api/tables", json=body).get_json()
    statuses = {}
    for name, link in links_of("/api/tables").items():
        target_path, method, _operation = OPERATIONS[link["operationId"]]
        url = target_path
        headers = {}
        for parameter, expression in link["parameters"].items():
            if parameter == "header.Authorization":
                bearer, pointer = expression.removesuffix("}").split("{")
                headers["Authorization"] = bearer + resolve(pointer, created)
            else:
                url = url.replace("{" + parameter + "}", str(resolve(expression, created)))
        if method != "get" or name == "FollowTable":
            continue
        statuses[name] = client.get(url, headers=headers).status_code
    assert statuses["GetTable"] == 200 and statuses["ReadLog"] == 200 and statuses["ReadFirstSeat"] == 200
    assert statuses["ExportRecord"] == 409  # reached: the game is not over yet
    append = links_of("/api/tables")["AppendEvent"]["parameters"]["header.Authorization"]
    assert append == "Bearer {$response.body#/write_token}"


def test_the_sheet_link_sends_the_edit_token(client: FlaskClient) -> None:
    body = {"game": "magellan", "name": "Our board", "data": {"explorers": {}}}
    created = client.post("/api/sheets", json=body).get_json()
    link = links_of("/api/sheets")["UpdateSheet"]
    bearer, pointer = link["parameters"]["header.Authorization"].removesuffix("}").split("{")
    answer = client.put(
        f"/api/sheets/{resolve(link['parameters']['sheet_id'], created)}",
        json={"name": "Ours", "data": {"explorers": {}}, "expected_version": 1},
        headers={"Authorization": bearer + resolve(pointer, created)},
    )
    assert answer.status_code == 200
    assert OPERATIONS["updateSheet"][2]["security"] == [{"editToken": []}]
