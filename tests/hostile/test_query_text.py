"""Query parameters get the refusals a JSON body's text gets (issue 22's strictness, issue 24's
"valid is never refused, invalid never accepted"): every operation of the document that takes a
free-text query parameter answers 400 `control-character` to a control character in it, and
stores nothing. (Schemathesis found `GET …/head-to-head?a=%07` answered 200.)"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.table_client import four_players
from tests.openapi_document import openapi_document

DOC = openapi_document()


def text_queries() -> list[tuple[str, str]]:
    """(path, parameter) for every GET with a free-text query parameter (no enum, no format)."""
    found = []
    for path, item in DOC["paths"].items():
        operation = item.get("get")
        if not operation:
            continue
        for parameter in operation.get("parameters", []):
            schema = parameter.get("schema", {})
            if parameter.get("in") == "query" and schema.get("type") == "string" and "enum" not in schema:
                found.append((path, parameter["name"]))
    return found


def test_the_document_has_free_text_queries() -> None:
    assert ("/api/groups/{group_id}/head-to-head", "a") in text_queries()


@pytest.mark.parametrize(("path", "name"), text_queries())
def test_a_control_character_in_a_query_is_refused(client: FlaskClient, path: str, name: str) -> None:
    table = client.post("/api/tables", json=four_players()).get_json()
    group = client.post("/api/groups", json={"name": "Club", "players": [{"name": "Ann"}, {"name": "Ben"}]})
    ids: dict[str, Any] = {"table_id": table["id"], "group_id": group.get_json()["id"], "seat": 0}
    if any(f"{{{key}}}" in path for key in ("sheet_id", "publication_id")):
        pytest.skip("no such resource made here")
    url = path.format(**ids)
    answer = client.get(url, query_string={name: "x\u0007y"})
    assert answer.status_code == 400, (url, answer.get_json())
    # Every query string is checked before any operation reads it (api.http.strict), the stream's
    # `lang` too (other text that names no language is its `bad-lang`).
    assert answer.get_json()["code"] == "control-character"
