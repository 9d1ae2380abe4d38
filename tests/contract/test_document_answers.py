"""The document and the server agree, operation by operation: every operation of openapi.yaml is
called through the app (its requests built from the document's own examples, on real tables, a
group, a board sheet), and each answer has a status the operation documents, a media type it
documents, the headers it declares (`Content-Language` on every answer, `Retry-After` with 429),
and a body valid against the documented schema (JSON Schema 2020-12, the document as it is)."""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema
import pytest
from flask.testing import FlaskClient
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.api.finished_game import play_short_game
from tests.openapi_document import openapi_document

DOC = openapi_document()
BASE = "urn:kibitz:openapi"
REGISTRY: Registry[Any] = Registry().with_resource(BASE, Resource(contents=DOC, specification=DRAFT202012))
OPERATIONS = [
    (path, method, operation)
    for path, item in DOC["paths"].items()
    for method, operation in item.items()
    if method in ("get", "post", "put", "patch", "delete")
]


def absolute(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {
            k: (BASE + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else absolute(v))
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [absolute(v) for v in schema]
    return schema


def example(content: dict[str, Any]) -> Any:
    if "example" in content:
        return copy.deepcopy(content["example"])
    return copy.deepcopy(next(iter(content["examples"].values()))["value"])


class World:
    """What the operations act on: a finished Mahé table, a running one, a group, a board sheet."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        finished = play_short_game(client)
        running = client.post("/api/tables", json=self.request_example("/api/tables", "post")).get_json()
        group = client.post("/api/groups", json=self.request_example("/api/groups", "post")).get_json()
        sheet = client.post("/api/sheets", json=self.request_example("/api/sheets", "post")).get_json()
        self.ids = {
            "table_id": finished.id,
            "group_id": group["id"],
            "sheet_id": sheet["id"],
            "publication_id": "nope-publication",
            "seat": "0",
        }
        self.running = running
        players = group.get("players") or [{}, {}]
        self.ids["player_id"] = players[0].get("id", "nope-player")
        self.query = {"a": players[0].get("id", "x"), "b": players[1].get("id", "y")}
        self.tokens = {
            "writeToken": finished.token,
            "seatToken": finished.seats[0]["token"],
            "groupToken": group.get("edit_token") or group.get("token"),
            "editToken": sheet.get("edit_token"),
        }

    @staticmethod
    def request_example(path: str, method: str) -> Any:
        return example(DOC["paths"][path][method]["requestBody"]["content"]["application/json"])

    @staticmethod
    def sample(schema: dict[str, Any]) -> Any:
        return schema.get("example", [*schema.get("enum", []), ""][0])

    def call(self, path: str, method: str, operation: dict[str, Any]) -> Any:
        url = re.sub(r"\{(\w+)\}", lambda m: self.ids[m.group(1)], path)
        headers = {"Accept-Language": "de"}
        for requirement in operation.get("security") or []:
            for scheme in requirement:
                if self.tokens.get(scheme):
                    headers["Authorization"] = f"Bearer {self.tokens[scheme]}"
                    break
            if "Authorization" in headers:
                break
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        query = {
            p["name"]: self.query.get(p["name"], self.sample(p["schema"]))
            for p in operation.get("parameters", [])
            if p.get("in") == "query" and p.get("required")
        }
        kwargs: dict[str, Any] = {"headers": headers, "query_string": query}
        if body is not None:
            kwargs["json"] = example(body)
        return self.client.open(url, method=method.upper(), **kwargs)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    from tests.conftest import make_test_app, migrated_sqlite

    url = migrated_sqlite(tmp_path_factory.mktemp("answers") / "answers.sqlite3")
    return World(make_test_app(url).test_client())


def disagreements(path: str, method: str, operation: dict[str, Any], answer: Any) -> list[str]:
    where = f"{method.upper()} {path} → {answer.status_code}"
    documented = operation["responses"].get(str(answer.status_code))
    if documented is None:
        return [f"{where}: status not documented ({sorted(operation['responses'])})"]
    found = []
    for name, header in (documented.get("headers") or {}).items():
        present = answer.headers.get(name)
        if present is None and (header.get("required") or name in ("Content-Language", "Retry-After")):
            found.append(f"{where}: no {name} header")
        enum = header.get("schema", {}).get("enum")
        if present is not None and enum and present not in enum:
            found.append(f"{where}: {name}: {present!r} not in {enum}")
    content = documented.get("content")
    if not content:
        return found
    media = answer.mimetype
    if media not in content:
        return [*found, f"{where}: media type {media} not documented ({list(content)})"]
    if "json" in media:
        validator = jsonschema.Draft202012Validator(absolute(content[media]["schema"]), registry=REGISTRY)
        body = answer.get_json()
        errors = [f"{list(e.absolute_path)}: {e.message[:160]}" for e in validator.iter_errors(body)]
        found += [f"{where}: {error}" for error in errors[:3]]
    return found


@pytest.mark.parametrize(
    ("path", "method", "operation"), OPERATIONS, ids=[f"{m.upper()} {p}" for p, m, _ in OPERATIONS]
)
def test_every_answer_is_what_the_document_says(
    world: World, path: str, method: str, operation: dict[str, Any]
) -> None:
    answer = world.call(path, method, operation)
    assert answer.status_code < 500, answer.get_data(as_text=True)[:300]
    assert not disagreements(path, method, operation, answer)


def test_the_answers_said_in_german_are_in_german(world: World) -> None:
    """`Content-Language: de` is what the notes are said in: Mahé's game-over note (MA-8) too."""
    answer = world.client.get(f"/api/tables/{world.ids['table_id']}", headers={"Accept-Language": "de"})
    assert answer.headers["Content-Language"] == "de"
    notes = answer.get_json()["legal_actions"]["notes"]
    over = [n for n in notes if n["code"] == "game-over"]
    assert over and over[0]["text"] != over[0]["template"], over
