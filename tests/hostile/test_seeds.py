"""Server dice stay unpredictable (MA-12): a revealed seed predicts nothing once undo reopens a game,
and a seed the creator chose is everyone's to see.

Hostile finding: a finished game reveals its seed, yet `undo` reopened it, and replaying the public
log on a table made with that seed predicted the next dice exactly.
"""

from __future__ import annotations

import random
from typing import Any

from flask.testing import FlaskClient

from api.rules.mahe.game import MAHE
from api.rules.replay import replay
from tests.api.table_client import TableDriver
from tests.api.test_tables_http import assert_problem

KEPT = 1 / 3  # share of the finished game kept when undoing: the rest leaves dice enough to compare
PLAYERS = [{"name": "Ann", "colours": ["red", "yellow"]}, {"name": "Ben", "colours": ["green", "darkblue"]}]


def _policy_event(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A player's choice among the legal actions of a digital Mahé table (dice drawn by the server)."""
    kinds = {action["type"]: action for action in legal["actions"]}
    if "choose_turtle" in kinds:
        return {"type": "choose_turtle", "turtle": rng.choice(kinds["choose_turtle"]["turtles"])}
    if "stop" in kinds and ("die" not in kinds or rng.random() < 0.5):
        return {"type": "stop"}
    return {"type": "die"}


def _play_to_end(table: TableDriver, rng: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        if table.table["finished"]:
            return
        table.play(_policy_event(table.legal, rng))
    raise AssertionError("the game did not end")


def _finished_and_undoable(client: FlaskClient, seed: int) -> TableDriver:
    """A finished digital game whose last entry drew nothing, so that an undo can reopen it (GEN-1:
    a last die or card the server drew stands, and the game stays over)."""
    for attempt in range(seed, seed + 40):
        table = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
        assert table.table["seed"] is None  # server-drawn: secret while the game runs
        _play_to_end(table, random.Random(attempt))
        if table.legal["undo"]["possible"]:
            return table
    raise AssertionError("every game ended on a server draw")


def _game_events(client: FlaskClient, table_id: str) -> list[dict[str, Any]]:
    log = client.get(f"/api/tables/{table_id}/events").get_json()["events"]
    return [entry["event"] for entry in log]


def _next_dice(table: TableDriver, count: int) -> list[int]:
    """Record `count` server dice, always asking for one die at a time and stopping after it."""
    values: list[int] = []
    while len(values) < count and not table.table["finished"]:
        kinds = {action["type"] for action in table.legal["actions"]}
        if "choose_turtle" in kinds:
            turtle = next(a for a in table.legal["actions"] if a["type"] == "choose_turtle")["turtles"][0]
            table.play({"type": "choose_turtle", "turtle": turtle})
        elif "die" in kinds and table.legal["phase"] == "roll":
            table.play({"type": "die"})
            values.append(_last_die(table.state))
        else:
            table.play({"type": "stop"})
    return values


def _last_die(state: dict[str, Any]) -> int:
    dice = (state.get("turn") or {}).get("dice") or (state.get("last_move") or {}).get("dice")
    assert dice, state
    return int(dice[-1]["value"])


def test_undo_of_a_finished_digital_game_draws_on_from_a_fresh_secret_seed(client: FlaskClient) -> None:
    table = _finished_and_undoable(client, 1)
    revealed = table.table["seed"]
    assert isinstance(revealed, int)

    table.play({"type": "undo"})  # reopens the game
    assert table.table["finished"] is False and table.table["seed"] is None
    log = client.get(f"/api/tables/{table.id}/events").get_json()["events"]
    assert log[-1]["event"] == {"type": "undo", "reseed": "hidden"}  # the new seed is not shown

    # The hostile attempt: replay the public log from the revealed seed, as the old server would
    # have, and foresee the state — its seed and unseen pile are no longer the table's.
    game_events = [e for e in _game_events(client, table.id) if e["type"] != "undo"][:-1]
    foreseen = replay(MAHE, PLAYERS, MAHE.normalize_options({"chance": "digital"}), revealed, game_events)
    stored = client.application.extensions["kibitz.store"].get(table.id).state
    assert stored["seed"] != revealed
    assert MAHE.dump(foreseen) != stored

    # Play on to the end again: the record carries the fresh seed and verifies anywhere.
    _play_to_end(table, random.Random(2))
    record = client.get(f"/api/tables/{table.id}/export").get_json()
    reseeds = [e["event"]["reseed"] for e in record["events"] if e["event"]["type"] == "undo"]
    # kibitz-record/3 writes a seed as its decimal digits (exact in any JSON parser)
    assert len(reseeds) == 1 and isinstance(reseeds[0], str) and int(reseeds[0]) != revealed
    verdict = client.post("/api/verify", json=record).get_json()
    assert verdict["valid"] is True, verdict


def test_a_revealed_seed_no_longer_predicts_the_next_dice(client: FlaskClient) -> None:
    table = _finished_and_undoable(client, 3)
    revealed = table.table["seed"]
    played = _game_events(client, table.id)
    back = 0
    # Reopen, and go back as far as GEN-1 lets anyone: a server die or card stands.
    while table.legal["undo"]["possible"] and back < len(played):
        table.play({"type": "undo"})
        back += 1
    assert back >= 1
    assert_problem(table.post({"type": "undo"}), 422, "chance-stands")

    # What the revealed seed says the next dice would be (the old server's behaviour) …
    twin = TableDriver.create(
        client, game="mahe", players=PLAYERS, options={"chance": "digital"}, seed=revealed
    )
    for event in [e for e in _game_events(client, table.id) if e["type"] != "undo"][:-back]:
        twin.play(event)
    assert twin.state == table.state  # the same seen position …
    stored = client.application.extensions["kibitz.store"].get(table.id).state
    assert stored["seed"] != revealed  # … but not the same future


def test_an_undo_cannot_reroll_or_show_the_next_server_die(client: FlaskClient) -> None:
    """GEN-1 (hostile finding: `die` then `undo` showed the next die, and the player could stop
    instead): a die the server rolled stands, so does everything before it."""
    table = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    _next_dice(table, 1)
    assert table.legal["undo"]["possible"] is False
    refused = table.post({"type": "undo"})
    assert_problem(refused, 422, "chance-stands")
    assert refused.get_json()["rule"] == "GEN-1"
    log = client.get(f"/api/tables/{table.id}/events").get_json()["events"]
    assert all(entry["kind"] == "game" for entry in log)  # nothing was taken back


def test_a_seed_the_creator_chose_is_shown_to_everyone_from_the_start(client: FlaskClient) -> None:
    chosen = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"}, seed=42)
    assert chosen.table["seed"] == 42
    assert client.get(f"/api/tables/{chosen.id}").get_json()["seed"] == 42
    drawn = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    assert drawn.table["seed"] is None
