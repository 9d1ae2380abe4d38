"""Every whole number a client reads is exact in JavaScript (within ±(2^53 − 1)): the document
bounds every integer so (a seat 0 … 6), the server draws seeds below 2^53, and what JavaScript's
`JSON.parse`/`JSON.stringify` (node) does to every example of the document and to finished records
of all three games changes nothing — the records still verify, legacy seeds above 2^53 included
(written as strings of their digits: api.rules.common.seeds)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.contract.integers import SEAT_NAMES
from api.http.context import STORE_KEY
from api.rules.common.seeds import MAX_SAFE_INTEGER, read_seed, shown_seed
from api.tables.tokens import new_seed
from tests.browser.test_referee_differential import WholeGame, magellan_game, mahe_game, mhing_game
from tests.openapi_document import openapi_document

DOC = openapi_document()
SKIP = ("example", "examples", "default", "enum", "const")


def integer_schemas(node: Any, where: str = "#", name: str = "") -> list[tuple[str, str, dict[str, Any]]]:
    """(pointer, property name, schema) of every integer schema in the document."""
    found = []
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            found.append((where, name, node))
        for key, value in node.items():
            if key in SKIP:
                continue
            if key == "properties":
                for prop, inner in value.items():
                    found += integer_schemas(inner, f"{where}/properties/{prop}", prop)
            else:
                inherited = name if key in ("items", "anyOf", "oneOf") else ""
                found += integer_schemas(value, f"{where}/{key}", inherited)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += integer_schemas(value, f"{where}/{index}", name)
    return found


def test_every_integer_in_the_document_is_bounded_within_javascripts_exact_range() -> None:
    schemas = integer_schemas(DOC)
    assert len(schemas) > 300
    low, high = -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER
    unbounded = [
        where
        for where, _, schema in schemas
        if not low <= schema.get("minimum", -(2**64)) <= schema.get("maximum", 2**64) <= high
    ]
    assert not unbounded, unbounded[:10]
    seats = [(where, schema["maximum"]) for where, name, schema in schemas if name in SEAT_NAMES]
    assert len(seats) > 50 and all(0 <= high <= 6 for _, high in seats), [s for s in seats if s[1] > 6]
    mhing = [high for where, _, high in [(w, n, s["maximum"]) for w, n, s in schemas if n in SEAT_NAMES]
             if "/schemas/Mhing" in where]  # fmt: skip
    assert mhing and set(mhing) == {5}  # MH-1: at most 6 players


def test_the_seed_forms() -> None:
    """New seeds stay below 2^53; a larger (legacy) seed is written as its digits and read back."""
    assert all(0 <= new_seed() <= MAX_SAFE_INTEGER for _ in range(200))
    assert shown_seed(MAX_SAFE_INTEGER) == MAX_SAFE_INTEGER
    assert shown_seed(3369090833065030803) == "3369090833065030803"
    assert read_seed("3369090833065030803") == 3369090833065030803 and read_seed(7) == 7
    seed = DOC["components"]["schemas"]["CreateMaheTable"]["properties"]["seed"]
    assert seed["maximum"] == 9007199254740991


def examples(node: Any) -> list[Any]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "example":
                found.append(value)
            elif key == "examples" and isinstance(value, dict):
                found += [e["value"] for e in value.values() if isinstance(e, dict) and "value" in e]
            elif key == "examples" and isinstance(value, list):
                found += value
            else:
                found += examples(value)
    elif isinstance(node, list):
        for value in node:
            found += examples(value)
    return found


ROUND_TRIP = "let t='';process.stdin.on('data',d=>t+=d).on('end',()=>{process.stdout.write(" \
    "JSON.stringify(JSON.parse(t).map(x=>JSON.stringify(JSON.parse(x)))))})"  # fmt: skip


def through_javascript(values: list[Any]) -> list[Any]:
    """Each value serialised by Python, parsed and serialised again by node, parsed by Python."""
    if not shutil.which("node"):
        pytest.fail("node is needed (CI has it; `make` uses it for npm ci)")
    texts = [json.dumps(value, ensure_ascii=False) for value in values]
    done = subprocess.run(
        ["node", "-e", ROUND_TRIP], input=json.dumps(texts), capture_output=True, text=True, timeout=120,
        check=True,
    )  # fmt: skip
    return [json.loads(text) for text in json.loads(done.stdout)]


def same(a: Any, b: Any) -> bool:
    """The same values: every integer exactly (a fraction such as a win rate of 1.0 comes back as
    the number 1, which is the same number)."""
    return bool(a == b)


def test_every_example_of_the_document_survives_javascript() -> None:
    found = examples(DOC)
    assert len(found) > 200
    back = through_javascript(found)
    changed = [a for a, b in zip(found, back, strict=True) if not same(a, b)]
    assert not changed, changed[:3]


LEGACY = st.integers(MAX_SAFE_INTEGER + 1, 2**62)
GAMES = st.one_of(
    st.builds(lambda n, s, c: ("mahe", n, s, c), st.integers(2, 7), st.integers(0, 10**6),
              st.sampled_from(["physical", "digital"])),
    st.builds(lambda n, s, c: ("magellan", n, s, c), st.integers(3, 6), st.integers(0, 10**6),
              st.sampled_from(["physical", "digital"])),
    st.builds(lambda n, s, c: ("mhing", n, s, c), st.integers(2, 6), st.integers(0, 10**6),
              st.sampled_from([1, 2])),
)  # fmt: skip


def whole_game(kind: str, count: int, seed: int, mode: Any) -> WholeGame:
    if kind == "mahe":
        return mahe_game("random", count, mode, seed, undo_rate=0.03)
    if kind == "magellan":
        return magellan_game("random", count, "outcomes", mode, seed, undo_rate=0.03)
    settlement = mode if count <= 4 else 1  # MH-9: variant 2 is for 2 to 4 players
    return mhing_game("random", count, settlement, seed, undo_rate=0.05)


def record_of(app: Flask, client: FlaskClient, game: WholeGame) -> dict[str, Any]:
    """The game played at a table with its own seed (perhaps a legacy one above 2^53), exported."""
    table, token, _ = app.extensions[STORE_KEY].create(game.game, game.players, game.options, game.seed)
    for version, event in enumerate(game.events):
        answer = client.post(
            f"/api/tables/{table.id}/events",
            json={"expected_version": version, "event": event},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201, answer.get_json()
    exported = client.get(f"/api/tables/{table.id}/export")
    assert exported.status_code == 200
    return dict(exported.get_json())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(GAMES, st.one_of(st.just(None), LEGACY))
def test_finished_records_survive_javascript_and_still_verify(
    app: Flask, client: FlaskClient, played: tuple[str, int, int, Any], legacy: int | None
) -> None:
    kind, count, seed, mode = played
    game = whole_game(kind, count, seed, mode)
    if legacy is not None:  # a table from before seeds stayed below 2^53, replayed with its own seed
        game = whole_game(kind, count, legacy, mode)
    record = record_of(app, client, game)
    assert record["format"] == "kibitz-record/3" and record["seed"] == str(game.seed)  # digits in format 3
    (back,) = through_javascript([record])
    assert same(back, record)
    verdict = client.post("/api/verify", json=back).get_json()
    assert verdict["valid"] is True, verdict
    assert verdict["chain"]["intact"] is True and verdict["signature"] == "valid"
