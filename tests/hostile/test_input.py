"""Hostile input: limits before parsing, never a 5xx, stored data untouched (issue: holes a hostile
tester found, items 5 and 8). On SQLite and PostgreSQL where the hole was PostgreSQL's."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.rules.errors import MalformedEvent
from api.rules.magellan.game import MAGELLAN
from api.rules.mahe.game import MAHE
from api.rules.mhing.game import MHING
from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver, four_players
from tests.rules.magellan_support import players

DEEP = "[" * 1000 + "]" * 1000  # about 2 KB


def _raw(client: FlaskClient, path: str, body: str, headers: dict[str, str] | None = None) -> Any:
    return client.post(path, data=body, content_type="application/json", headers=headers or {})


def _log(client: FlaskClient, table: TableDriver) -> Any:
    return client.get(f"/api/tables/{table.id}/events").get_json()


@pytest.mark.parametrize("body", [f'{{"game": {DEEP}}}', f'{{"expected_version": 0, "event": {DEEP}}}'])
@pytest.mark.parametrize("path", ["/api/tables", "events", "preview", "/api/verify"])
def test_deeply_nested_json_is_refused_before_parsing(client: FlaskClient, path: str, body: str) -> None:
    table = TableDriver.create(client, **four_players())
    before = _log(client, table)
    target = f"/api/tables/{table.id}/{path}" if path in ("events", "preview") else path
    answer = _raw(client, target, body, {"Authorization": f"Bearer {table.token}"})
    assert answer.status_code == 400 and answer.get_json()["code"] == "too-deeply-nested"
    assert _log(client, table) == before


def test_integers_over_twenty_digits_are_refused(client: FlaskClient) -> None:
    table = TableDriver.create(client, **four_players())
    body = '{"expected_version": 0, "event": {"type": "reveal_card", "value": ' + "9" * 4400 + "}}"
    answer = _raw(client, f"/api/tables/{table.id}/events", body, {"Authorization": f"Bearer {table.token}"})
    assert answer.status_code == 400 and answer.get_json()["code"] == "number-too-long"
    created = _raw(client, "/api/tables", '{"game": "mahe", "players": [], "seed": ' + "1" * 5000 + "}")
    assert created.status_code == 400 and created.get_json()["code"] == "number-too-long"
    assert _log(client, table)["version"] == 0


@pytest.mark.parametrize(
    ("name", "code"),
    [("\\ud800", "invalid-text"), ("Ann\\u0000", "control-character"), ("\\u001bEsc", "control-character")],
)
def test_names_must_be_clean_text(client: FlaskClient, name: str, code: str) -> None:
    body = four_players()
    text = json.dumps(body).replace('"Martin"', f'"{name}"')
    answer = _raw(client, "/api/tables", text)
    assert answer.status_code == 400 and answer.get_json()["code"] == code


def test_exports_of_a_table_with_a_formula_as_name_are_defused(client: FlaskClient) -> None:
    table = play_short_game(client)  # Martin wins; renamed below through a fresh table with the same log
    record = client.get(f"/api/tables/{table.id}/export").get_json()
    sneaky = TableDriver.create(
        client,
        game="mahe",
        players=[
            {**p, "name": '=HYPERLINK("http://x")'} if p["name"] == "Martin" else p for p in record["players"]
        ],
        options=record["options"],
    )
    for entry in record["events"]:
        sneaky.play(entry["event"])
    answer = client.get(f"/api/tables/{sneaky.id}/export.csv")
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    names = [row[2] for row in rows[1:]]
    assert '\'=HYPERLINK("http://x")' in names
    assert not any(name.startswith(("=", "+", "-", "@")) for name in names)
    assert client.get(f"/api/tables/{sneaky.id}/export/bgstats").status_code == 200


def test_idempotency_key_limits(any_db_client: FlaskClient) -> None:
    client = any_db_client
    table = TableDriver.create(client, **four_players())
    for key in ("k" * 129, "with space", "naïve"):
        answer = table.post({"type": "reveal_card", "value": 2}, key=key)
        assert answer.status_code == 400 and answer.get_json()["code"] == "bad-idempotency-key"
    assert _log(client, table)["version"] == 0
    assert table.post({"type": "reveal_card", "value": 2}, key="k" * 128).status_code == 201


@pytest.mark.parametrize("bad_id", ["abc%00def", "%00" * 6, "x" * 200, "AAAAAAAAAAAAAAA%0A"])
def test_ids_that_cannot_be_ours_are_404_without_touching_the_database(
    any_db_client: FlaskClient, bad_id: str
) -> None:
    for path in (f"/api/tables/{bad_id}", f"/api/tables/{bad_id}/events", f"/api/sheets/{bad_id}"):
        answer = any_db_client.get(path)
        assert answer.status_code == 404, (path, answer.get_data(as_text=True))
    append = any_db_client.post(
        f"/api/tables/{bad_id}/events",
        json={"expected_version": 0, "event": {"type": "stop"}},
        headers={"Authorization": "Bearer x"},
    )
    assert append.status_code == 404


def test_if_none_match_star_and_lists(client: FlaskClient) -> None:
    table = TableDriver.create(client, **four_players())
    etag = client.get(f"/api/tables/{table.id}").headers["ETag"]
    for header in ("*", f'W/"other", {etag}', etag.removeprefix("W/")):
        assert client.get(f"/api/tables/{table.id}", headers={"If-None-Match": header}).status_code == 304
    assert client.get(f"/api/tables/{table.id}", headers={"If-None-Match": 'W/"other"'}).status_code == 200


GAMES = [
    (MAHE, four_players()["players"], {"chance": "physical"}, {"type": "reveal_card", "value": 3}),
    (MAGELLAN, players(3), {}, {"type": "reveal", "explorer": "cook"}),
    (MHING, [{"name": "A"}, {"name": "B"}], {}, {"type": "round_drawn"}),
]


@pytest.mark.parametrize(("game", "seats", "options", "event"), GAMES, ids=lambda g: getattr(g, "name", ""))
def test_every_engine_refuses_an_unknown_field(game: Any, seats: Any, options: Any, event: Any) -> None:
    state = game.new_game(seats, game.normalize_options(options), 1)
    game.apply(state, event)  # the event as the rules know it is fine …
    with pytest.raises(MalformedEvent) as refused:  # … with a field they do not know, it is refused
        game.apply(state, {**event, "junk": "x" * 200_000})
    assert refused.value.code == "unknown-field" and "junk" in refused.value.detail


def test_an_unknown_field_is_never_stored(client: FlaskClient) -> None:
    table = TableDriver.create(client, **four_players())
    answer = table.post({"type": "reveal_card", "value": 3, "junk": "x" * 1000})
    assert answer.status_code == 422 and answer.get_json()["code"] == "unknown-field"
    assert _log(client, table)["events"] == []


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=JSON_VALUES, depth=st.integers(0, 60), raw_tail=st.sampled_from(["", "\\ud800", "\\u0000", "1e999"])
)
def test_random_json_never_gets_a_5xx(client: FlaskClient, value: Any, depth: int, raw_tail: str) -> None:
    table = TableDriver.create(client, **four_players())
    body = "[" * depth + json.dumps({"event": value, "expected_version": 0, "tail": raw_tail}) + "]" * depth
    body = body.replace('"tail": "\\\\', '"tail": "\\')  # let the escape through unescaped
    headers = {"Authorization": f"Bearer {table.token}"}
    for path in (
        "/api/tables",
        f"/api/tables/{table.id}/events",
        f"/api/tables/{table.id}/preview",
        "/api/verify",
    ):
        answer = _raw(client, path, body, headers)
        assert answer.status_code < 500, (path, answer.get_data(as_text=True))
        assert answer.mimetype == "application/problem+json" or answer.status_code < 300
    assert _log(client, table)["version"] == 0
