"""GEN-1, seen as a hostile client sees it: chance the server drew stands, and a secret entry is taken
back only by its own seat.

Hostile findings: Magellan, ledger depth, digital chance — a seat swapped, read its new card in its
own view, undid with its own token, and the next seat's swap drew exactly that card; Mahé, digital
dice — `die` then `undo` showed the next die, and the player could stop instead; any seat's token
undid another seat's secret entry. Each is replayed here against a real gunicorn. The property at
the end: no sequence of appends, previews and undos by any token holder takes back a draw the server
showed, or shows one before it is recorded.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.db.migrate import upgrade
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState
from api.rules.mahe.game import MAHE
from tests.conftest import make_test_app
from tests.rules.magellan_support import TEST_SHEET, players, random_event

LEDGER_DIGITAL = {"depth": "ledger", "chance": "digital", "board_sheet": TEST_SHEET}
MAHE_PLAYERS = [
    {"name": "Ann", "colours": ["red", "yellow"]},
    {"name": "Ben", "colours": ["green", "darkblue"]},
]
Event = dict[str, Any]


class LiveTable:
    """A table on the live server, its tokens, and (Magellan, public seed) a local mirror of its state."""

    def __init__(self, base: str, created: dict[str, Any]) -> None:
        self.base = base
        self.id: str = created["id"]
        self.write: str = created["write_token"]
        self.seats: list[str] = [seat["token"] for seat in created.get("seats", [])]
        self.table: dict[str, Any] = created["table"]

    @classmethod
    def create(cls, base: str, **body: Any) -> LiveTable:
        created = requests.post(f"{base}/api/tables", json=body, timeout=10)
        assert created.status_code == 201, created.text
        return cls(base, created.json())

    def token(self, holder: int | None) -> str:
        return self.write if holder is None else self.seats[holder]

    def post(self, event: Event, holder: int | None = None, path: str = "events") -> requests.Response:
        body = {"expected_version": self.table["version"], "event": event}
        headers = {"Authorization": f"Bearer {self.token(holder)}"}
        answer = requests.post(
            f"{self.base}/api/tables/{self.id}/{path}", json=body, headers=headers, timeout=10
        )
        assert answer.status_code < 500, answer.text
        if path == "events" and answer.status_code == 201:
            self.table = answer.json()["table"]
        return answer

    def play(self, event: Event, holder: int | None = None) -> None:
        answer = self.post(event, holder)
        assert answer.status_code == 201, (event, answer.text)

    def own_hand(self, seat: int) -> list[int]:
        headers = {"Authorization": f"Bearer {self.seats[seat]}"}
        view = requests.get(f"{self.base}/api/tables/{self.id}/seats/{seat}", headers=headers, timeout=10)
        assert view.status_code == 200, view.text
        return list(view.json()["view"]["hand"])

    def log(self) -> list[dict[str, Any]]:
        return list(requests.get(f"{self.base}/api/tables/{self.id}/events", timeout=10).json()["events"])


def _refused_for_chance(answer: requests.Response) -> None:
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "chance-stands" and problem["rule"] == "GEN-1"
    assert answer.headers["Content-Type"].startswith("application/problem+json")


def _magellan_until(
    table: LiveTable, state: MagellanState, rng: random.Random, kind: str
) -> tuple[MagellanState, Event]:
    """Play random events (each from the phone of the seat whose hand it concerns) until the next
    event would be `kind`; that event is returned, not sent."""
    while True:
        event = random_event(state, rng)
        if event["type"] == kind:
            return state, event
        table.play(event, MAGELLAN.secret_seat(state, event))
        state = MAGELLAN.apply(state, event)


@pytest.mark.gunicorn
def test_magellan_a_swapped_card_stands_and_a_secret_bid_is_undone_only_by_its_seat(live_server: str) -> None:
    seed = 1  # a public seed: the test mirrors the table locally (its first swap comes after ~120 events)
    table = LiveTable.create(
        live_server, game="magellan", players=players(4), options=LEDGER_DIGITAL, seed=seed
    )
    state = MAGELLAN.new_game(players(4), MAGELLAN.normalize_options(table.table["options"]), seed)
    rng = random.Random(seed)

    # A bid is secret in ledger depth (MG-6: no more than the hand can pay): only its seat undoes it.
    state, bid = _magellan_until(table, state, rng, "bid")
    bidder = MAGELLAN.secret_seat(state, bid)
    assert bidder is not None
    table.play(bid, bidder)
    assert table.table["legal_actions"]["undo"]["possible"] is True
    for holder in (None, (bidder + 1) % 4):
        refused = table.post({"type": "undo"}, holder)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "seat-token-required" and refused.json()["seat"] == bidder
    table.play({"type": "undo"}, bidder)  # GEN-1: its own phone may
    table.play(bid, bidder)
    state = MAGELLAN.apply(state, bid)

    # The swap: the server draws the new card, which the swapper sees in its own view.
    state, swap = _magellan_until(table, state, rng, "swap")
    swapper = int(swap["seat"])
    before = table.own_hand(swapper)
    table.play(swap, swapper)
    drawn = Counter(table.own_hand(swapper)) - Counter(before)
    assert sum(drawn.values()) == 1
    assert table.table["legal_actions"]["undo"]["possible"] is False
    log = table.log()
    for holder in (swapper, None, (swapper + 1) % 4):
        _refused_for_chance(table.post({"type": "undo"}, holder))
        _refused_for_chance(table.post({"type": "undo"}, holder, path="preview"))
    assert table.log() == log  # nothing was taken back …
    assert Counter(table.own_hand(swapper)) - Counter(before) == drawn  # … and the card stays in hand


@pytest.mark.gunicorn
def test_mahe_a_server_die_stands_a_typed_one_does_not(live_server: str) -> None:
    digital = LiveTable.create(live_server, game="mahe", players=MAHE_PLAYERS, options={"chance": "digital"})
    digital.play({"type": "choose_turtle", "turtle": "red"})
    assert digital.table["legal_actions"]["undo"]["possible"] is True  # nothing drawn yet
    digital.play({"type": "die"})
    seen = digital.table["state"]["turn"]["dice"]
    assert digital.table["legal_actions"]["undo"]["possible"] is False
    _refused_for_chance(digital.post({"type": "undo"}))
    _refused_for_chance(digital.post({"type": "undo"}, 0))
    read = requests.get(f"{live_server}/api/tables/{digital.id}", timeout=10).json()
    assert read["state"]["turn"]["dice"] == seen and read["legal_actions"]["undo"]["possible"] is False

    typed = LiveTable.create(live_server, game="mahe", players=MAHE_PLAYERS, options={"chance": "physical"})
    typed.play({"type": "reveal_card", "value": 4})
    typed.play({"type": "choose_turtle", "turtle": "red"})
    typed.play({"type": "die", "value": 3})
    for _ in range(3):  # a typing slip is corrected, all the way back
        assert typed.table["legal_actions"]["undo"]["possible"] is True
        typed.play({"type": "undo"})
    assert typed.table["legal_actions"]["undo"]["possible"] is False


# --- the property: no sequence of appends, previews and undos takes back or foreshows a draw ---------


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder: Path = tmp_path_factory.mktemp("gen1")
    url = f"sqlite:///{folder / 'kibitz.sqlite3'}"
    upgrade(url)
    yield make_test_app(url)


def _drawn(game: Any, state: Any) -> tuple[int, int]:
    """How far the server's chance has gone: never backwards once shown (GEN-1)."""
    if game is MAHE:
        return state.draws, -len(state.supply.hidden)
    return state.draws, 0


def _mahe_event(state: Any, rng: random.Random) -> Event:
    legal = MAHE.legal_actions(state)
    kinds = {action["type"]: action for action in legal["actions"]}
    if "choose_turtle" in kinds:
        return {"type": "choose_turtle", "turtle": rng.choice(kinds["choose_turtle"]["turtles"])}
    if "stop" in kinds and ("die" not in kinds or rng.random() < 0.4):
        return {"type": "stop"}
    return {"type": "die"}


OPS = st.lists(
    st.tuples(st.sampled_from(["append", "append", "preview", "undo"]), st.integers(-1, 3)),
    min_size=5,
    max_size=60,
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(game_name=st.sampled_from(["mahe", "magellan"]), seed=st.integers(0, 2**31), ops=OPS)
def test_no_sequence_of_appends_previews_and_undos_takes_back_or_foreshows_a_draw(
    module_app: Flask, game_name: str, seed: int, ops: list[tuple[str, int]]
) -> None:
    client = module_app.test_client()
    store = module_app.extensions["kibitz.store"]
    game: Any = MAHE if game_name == "mahe" else MAGELLAN
    names = MAHE_PLAYERS if game is MAHE else players(4)
    options = {"chance": "digital"} if game is MAHE else LEDGER_DIGITAL
    created = client.post(
        "/api/tables", json={"game": game_name, "players": names, "options": options}
    ).get_json()
    tokens = [created["write_token"], *(seat["token"] for seat in created["seats"])]
    rng = random.Random(seed)
    high = _drawn(game, game.load(store.get(created["id"]).state))
    for op, who in ops:
        row = store.get(created["id"])
        if row.finished:
            break
        state = game.load(row.state)
        event = _mahe_event(state, rng) if game is MAHE else random_event(state, rng)
        owner = game.secret_seat(state, event)
        if op == "undo":
            event = {"type": "undo"}
        holder = owner if op == "append" else (None if who < 0 else who % len(names))
        token = tokens[0 if holder is None else holder + 1]
        body = {"expected_version": row.version, "event": event}
        path = "preview" if op == "preview" else "events"
        answer = client.post(
            f"/api/tables/{row.id}/{path}", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code < 500, answer.get_json()
        if op == "preview" and answer.status_code == 200:
            # A preview never shows a draw the server has not recorded yet.
            assert not game.reveals_hidden_chance(state, game.apply(state, event))
        now = _drawn(game, game.load(store.get(created["id"]).state))
        assert now >= high, (op, event, holder)  # nothing drawn and shown was taken back
        high = now
