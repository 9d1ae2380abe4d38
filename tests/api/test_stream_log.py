"""The lean stream (`?view=log`, issue 36): a phone whose own referee holds an open-record table takes
only the log entries from the stream and works the rest out itself, as boardgame.io's clients run
the game code. Checked here: for random whole games of all three games, what such a phone rebuilds —
the first whole table, then only `log` events, its referee (`api.rules.referee`, the very code the
phone runs under Pyodide) replaying the entries — equals `GET /api/tables/{id}` at every version it
reads, also when it reads only every few versions; through a real gunicorn, a phone that switches
from a patch stream to a lean one with `since` (and one resuming with `Last-Event-ID`) misses and
doubles no change; tables that keep secrets refuse the lean stream."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.i18n import localize_notes
from api.rules.referee import RefereeTable
from tests.browser.test_referee_differential import WholeGame, magellan_game, mahe_game, mhing_game
from tests.conftest import make_test_app, migrated_sqlite
from tests.live.sse import StreamReader


def open_game(kind: str, seed: int) -> WholeGame:
    """A random whole game on a table whose record is open (typed-in chance, no hidden hands)."""
    rng = random.Random(seed)
    if kind == "mahe":
        return mahe_game("mahe", rng.randint(2, 7), "physical", seed, undo_rate=0.05)
    if kind == "magellan":
        return magellan_game("magellan", rng.randint(3, 6), "outcomes", "physical", seed, undo_rate=0.03)
    settlement = rng.choice([1, 2])  # MH-9: variant 2 for 2 to 4 players
    return mhing_game("mhing", rng.randint(2, 4 if settlement == 2 else 6), settlement, seed, undo_rate=0.05)


class LeanPhone:
    """What the phone keeps of a table on a lean stream: the first whole table's facts, the log,
    and its referee's table (extended entry by entry, as `session.js` holds it)."""

    def __init__(self, first: dict[str, Any], language: str) -> None:
        assert first["type"] == "table"
        self.table = first["table"]
        self.language = language
        self.version = first["version"]
        self.at: str = self.table["updated_at"]
        self.seed = self.table["seed"]
        t = self.table
        assert self.version == 0, "these phones start on a new table (a phone further on reads the log)"
        self.referee = RefereeTable.start(t["game"], t["players"], t["options"], t["seed"] or 0)

    def take(self, item: dict[str, Any]) -> None:
        """One `log` event (or, before the switch, a `patch` event's entries, as session.js takes
        them): its entries follow the version the phone has, one after the other."""
        assert item["type"] in ("log", "patch"), item
        if item["type"] == "log":  # and nothing else (`id`: the SSE id, added by StreamReader)
            assert set(item) - {"id"} <= {"type", "version", "entries", "seed"}
        entries = item["entries"]
        assert [e["seq"] for e in entries] == list(range(self.version + 1, item["version"] + 1))
        for entry in entries:
            self.referee = self.referee.apply(entry["event"])
        self.version, self.at, self.seed = item["version"], entries[-1]["at"], item.get("seed")

    def view(self) -> dict[str, Any]:
        """The table as the phone composes it from its referee's answer (session.js `compose`)."""
        rules = self.referee.view()
        return {
            **self.table,
            "version": self.version,
            "finished": rules["finished"],
            "state": rules["state"],
            "legal_actions": localize_notes(rules["legal_actions"], self.language),
            "result": rules["result"],
            "seed": self.seed,
            "updated_at": self.at,
        }


def stream_once(client: FlaskClient, table_id: str, query: str) -> list[dict[str, Any]]:
    """The events of one stream request (under the test client a stream ends after its first event)."""
    answer = client.get(f"/api/tables/{table_id}/stream?{query}")
    text = answer.get_data(as_text=True)
    answer.close()  # frees the stream's slot (a client's streams are counted)
    assert answer.status_code == 200, text
    events = []
    for block in text.split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":")
        )
        if "data" in fields:
            data = json.loads(fields["data"])
            assert fields["event"] == data["type"] and int(fields["id"]) == data["version"]
            events.append(data)
    return events


@pytest.fixture(scope="module")
def lean_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return make_test_app(migrated_sqlite(tmp_path_factory.mktemp("lean") / "kibitz.sqlite3"))


@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["mahe", "magellan", "mhing"]),
    seed=st.integers(0, 2**32),
    language=st.sampled_from(["en", "de", "fr"]),
    every=st.integers(1, 4),
    public_seed=st.booleans(),
)
def test_a_phone_on_the_lean_stream_rebuilds_the_table_as_get_reads_it(
    lean_app: Flask, kind: str, seed: int, language: str, every: int, public_seed: bool
) -> None:
    """Random whole games (undos among them): the phone takes the whole table once, then only `log`
    events (every version, or only every few: one event with all it missed), and its referee's table
    equals the server's at each; the end's seed arrives with the last entry."""
    client = lean_app.test_client()
    game = open_game(kind, seed)
    body: dict[str, Any] = {"game": kind, "players": game.players, "options": game.options}
    if public_seed:
        body["seed"] = game.seed
    created = client.post("/api/tables", json=body).get_json()
    table_id, auth = created["id"], {"Authorization": f"Bearer {created['write_token']}"}
    first = stream_once(client, table_id, f"view=log&lang={language}")
    assert [e["type"] for e in first] == ["table"]
    phone = LeanPhone(first[0], language)
    events = game.events[:120]
    for version, event in enumerate(events, 1):
        answer = client.post(
            f"/api/tables/{table_id}/events",
            json={"expected_version": version - 1, "event": event},
            headers=auth,
        )
        assert answer.status_code == 201, answer.get_data(as_text=True)
        if version % every and version != len(events):
            continue
        (item,) = stream_once(client, table_id, f"view=log&since={phone.version}&lang={language}")
        phone.take(item)
        table = client.get(f"/api/tables/{table_id}", headers={"Accept-Language": language}).get_json()
        assert phone.view() == table, (kind, version)
    # A phone that has it all gets nothing but the stream's retry line.
    assert stream_once(client, table_id, f"view=log&since={len(events)}") == []


def test_log_events_are_one_message_for_every_language_and_seat(lean_app: Flask) -> None:
    """The same bytes for every lean phone one version behind, whatever its language or seat; a
    `since` past the table's version gets the whole table; `Last-Event-ID` wins over `since`."""
    client = lean_app.test_client()
    game = mahe_game("mahe", 3, "physical", 5)
    created = client.post(
        "/api/tables", json={"game": "mahe", "players": game.players, "options": game.options}
    )
    table_id, token = created.get_json()["id"], created.get_json()["write_token"]
    for version, event in enumerate(game.events[:3]):
        client.post(
            f"/api/tables/{table_id}/events",
            json={"expected_version": version, "event": event},
            headers={"Authorization": f"Bearer {token}"},
        )
    bodies = {
        json.dumps(stream_once(client, table_id, f"view=log&since=2&lang={language}"))
        for language in ("en", "de", "fr")
    }
    assert len(bodies) == 1
    (item,) = stream_once(client, table_id, "view=log&since=2")
    assert item["type"] == "log" and [e["seq"] for e in item["entries"]] == [3] and "seed" not in item
    assert [e["type"] for e in stream_once(client, table_id, "view=log&since=9")] == ["table"]
    with client.get(
        f"/api/tables/{table_id}/stream?view=log&since=0", headers={"Last-Event-ID": "1"}
    ) as answer:
        text = answer.get_data(as_text=True)
    assert '"seq":1' not in text and '"seq":2' in text and '"seq":3' in text


@pytest.mark.parametrize(
    ("game", "options"),
    [("mahe", {"chance": "digital"}), ("magellan", {"chance": "digital"}), ("magellan", {"depth": "ledger"})],
)
def test_tables_that_keep_secrets_refuse_the_lean_stream(
    app: Flask, game: str, options: dict[str, Any]
) -> None:
    """Server-drawn chance and hidden hands cannot be derived from the open log: 409, nothing opened."""
    players = (
        [{"name": f"P{i}", "colours": [c]} for i, c in enumerate(["red", "green", "yellow", "purple"])]
        if game == "mahe"
        else [{"name": n} for n in ("Ada", "Bo", "Cy")]
    )
    created = app.test_client().post(
        "/api/tables", json={"game": game, "players": players, "options": options}
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    answer = app.test_client().get(f"/api/tables/{created.get_json()['id']}/stream?view=log")
    assert answer.status_code == 409 and answer.get_json()["code"] == "open-record-only"
    assert (
        app.test_client().get(f"/api/tables/{created.get_json()['id']}/stream?view=whole").status_code == 400
    )


@pytest.mark.gunicorn
def test_a_phone_switches_to_the_lean_stream_and_resumes_it_without_a_gap(live_server: str) -> None:
    """On a real gunicorn: a phone on a patch stream switches, once its referee is ready, to a lean
    stream opened with `since` (no whole table again); later it drops and resumes with
    `Last-Event-ID` — every change arrives once, in order, and rebuilds the table `GET` reads."""
    game = mahe_game("mahe", 3, "physical", 7)
    created = requests.post(
        f"{live_server}/api/tables",
        json={"game": "mahe", "players": game.players, "options": game.options},
        timeout=10,
    ).json()
    table_id, auth = created["id"], {"Authorization": f"Bearer {created['write_token']}"}
    base = f"{live_server}/api/tables/{table_id}/stream"
    events = game.events[:40]

    def append(version: int) -> None:
        answer = requests.post(
            f"{live_server}/api/tables/{table_id}/events",
            json={"expected_version": version, "event": events[version]},
            headers=auth,
            timeout=10,
        )
        assert answer.status_code == 201, answer.text

    full = StreamReader(f"{base}?patches=true&lang=de")
    first = full.next()
    phone = LeanPhone(first, "de")
    for version in range(5):
        append(version)
        item = full.next()
        assert item["type"] == "patch"
        phone.take(item)
    full.close()  # the referee is ready: the phone switches, naming the version it has
    for version in range(5, 8):  # changes while it switches
        append(version)
    seen: list[int] = []

    def follow(stream: StreamReader, until: int) -> None:
        while phone.version < until:
            item = stream.next()
            phone.take(item)
            seen.extend(e["seq"] for e in item["entries"])
            table = requests.get(
                f"{live_server}/api/tables/{table_id}", headers={"Accept-Language": "de"}, timeout=10
            ).json()
            if table["version"] == phone.version:
                assert phone.view() == table, phone.version

    lean = StreamReader(f"{base}?view=log&since=5&lang=de")
    follow(lean, 8)
    for version in range(8, 20):
        append(version)
        follow(lean, version + 1)
    lean.close()  # a drop; the browser resumes with the id of the last event it took
    for version in range(20, 23):
        append(version)
    resumed = StreamReader(f"{base}?view=log&since=5&lang=de", {"Last-Event-ID": str(phone.version)})
    follow(resumed, 23)
    for version in range(23, len(events)):
        append(version)
        follow(resumed, version + 1)
    resumed.close()
    assert seen == list(range(6, len(events) + 1))  # each change once, in order
