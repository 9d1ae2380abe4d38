"""Reading a Mhing table costs the same at any log length (hostile finding: 5.6 KB at 20 entries,
169 KB at 992): the state and the public view keep only the latest rounds; the whole history is the
log and the export."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from api.rules.mhing.game import MHING
from api.rules.mhing.state import RECENT_ROUNDS
from api.rules.replay import replay
from tests.api.table_client import TableDriver

PLAYERS = [{"name": n} for n in ("Ann", "Ben", "Cy", "Di")]
HAND = {"hidden": "b1 b1 b1 c4 c5 c6 k7 k8 k9 b6 b7 b8 c1 c1"}  # a winning hand worth 0 premiums (MH-8)


def _round(n: int) -> dict[str, Any]:
    if n % 3 == 0:
        return {"type": "round_drawn"}
    return {"type": "round_won", "winner": n % 4, "hand": HAND}


def _table_after(client: FlaskClient, rounds: int) -> tuple[TableDriver, bytes]:
    # Settlement 1; the hand is worth 0 points, so the game runs as long as the test likes.
    table = TableDriver.create(client, game="mhing", players=PLAYERS, options={"settlement": 1})
    store = client.application.extensions["kibitz.store"]
    version = 0
    for n in range(rounds):
        version = store.append(table.id, table.token, version, _round(n)).seq
    return table, client.get(f"/api/tables/{table.id}").get_data()


SHORT, LONG = 20, 404  # equal modulo 12, so both end on the same pattern of drawn and won rounds


def test_a_long_mhing_table_reads_as_small_as_a_short_one(client: FlaskClient) -> None:
    _, short = _table_after(client, SHORT)
    long_table, long = _table_after(client, LONG)
    # Same rounds in the window, so the only difference is a digit more in each round number
    # (12 bytes today); a history that grew with the log would add about 1 KB per round.
    assert len(long) <= len(short) + 64, (len(short), len(long))
    view = client.get(f"/api/tables/{long_table.id}").get_json()
    assert view["state"]["rounds_played"] == LONG and len(view["state"]["rounds"]) == RECENT_ROUNDS
    assert [r["number"] for r in view["state"]["rounds"]] == list(range(LONG - RECENT_ROUNDS + 1, LONG + 1))
    assert view["state"]["last_round"] == view["state"]["rounds"][-1]
    # Every round is still in the log, and the cached state equals a replay of it.
    log = client.get(f"/api/tables/{long_table.id}/events").get_json()["events"]
    assert len(log) == LONG
    store = client.application.extensions["kibitz.store"]
    row = store.get(long_table.id)
    replayed = replay(MHING, PLAYERS, row.options, row.seed, [e["event"] for e in log])
    assert MHING.dump(replayed) == row.state


def test_a_state_cached_before_the_window_loads_as_its_replay() -> None:
    """Tables cached by the old code kept every round and no count: they load as the windowed state
    a replay gives (same scores, dealer MH-2, round number), so nothing is migrated by hand."""
    state = MHING.new_game(PLAYERS, {"settlement": 1}, 0)
    every_round = []
    for n in range(12):
        state = MHING.apply(state, _round(n))
        every_round.append(MHING.dump(state)["rounds"][-1])
    old = {key: value for key, value in MHING.dump(state).items() if key != "rounds_played"}
    old["rounds"] = every_round
    loaded = MHING.load(old)
    assert loaded == state and loaded.rounds_played == 12 and len(loaded.rounds) == RECENT_ROUNDS
    assert MHING.public_view(loaded) == MHING.public_view(state)
