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
    table = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    assert table.table["seed"] is None  # server-drawn: secret while the game runs
    _play_to_end(table, random.Random(1))
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
    assert len(reseeds) == 1 and isinstance(reseeds[0], int) and reseeds[0] != revealed
    verdict = client.post("/api/verify", json=record).get_json()
    assert verdict["valid"] is True, verdict


def test_a_revealed_seed_no_longer_predicts_the_next_dice(client: FlaskClient) -> None:
    table = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    _play_to_end(table, random.Random(3))
    revealed = table.table["seed"]
    played = _game_events(client, table.id)
    back = len(played) - int(len(played) * KEPT)  # whatever the secret seed, most of a game is left
    for _ in range(back):  # reopen, and go further back: still drawn from the fresh seed
        table.play({"type": "undo"})

    # What the revealed seed says the next dice would be (the old server's behaviour) …
    twin = TableDriver.create(
        client, game="mahe", players=PLAYERS, options={"chance": "digital"}, seed=revealed
    )
    for event in [e for e in _game_events(client, table.id) if e["type"] != "undo"][:-back]:
        twin.play(event)
    predicted = _next_dice(twin, 8)
    # … and what the reopened table really draws.
    actual = _next_dice(table, 8)
    assert len(actual) == len(predicted) == 8
    assert actual != predicted  # equal by chance once in 6**8


def test_an_ordinary_undo_cannot_reroll_a_server_die(client: FlaskClient) -> None:
    """MA-12: while the seed is secret, undo restores the draw counter, so rolling again repeats."""
    table = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    first = _next_dice(table, 1)
    table.play({"type": "undo"})
    assert _next_dice(table, 1) == first
    log = client.get(f"/api/tables/{table.id}/events").get_json()["events"]
    assert all("reseed" not in entry["event"] for entry in log)


def test_a_seed_the_creator_chose_is_shown_to_everyone_from_the_start(client: FlaskClient) -> None:
    chosen = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"}, seed=42)
    assert chosen.table["seed"] == 42
    assert client.get(f"/api/tables/{chosen.id}").get_json()["seed"] == 42
    drawn = TableDriver.create(client, game="mahe", players=PLAYERS, options={"chance": "digital"})
    assert drawn.table["seed"] is None
