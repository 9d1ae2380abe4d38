"""Reading a Mhing table costs the same at any log length (hostile finding: 5.6 KB at 20 entries,
169 KB at 992): the state and the public view keep only the latest rounds; the whole history is the
log and the export."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from api.rules.mhing.game import MHING
from api.rules.mhing.state import RECENT_ROUNDS
from api.tables.replay import replay
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


def test_a_long_mhing_table_reads_as_small_as_a_short_one(client: FlaskClient) -> None:
    _, short = _table_after(client, 20)
    long_table, long = _table_after(client, 400)
    # Same shape, only bigger numbers (round numbers, scores): a few bytes, never a growing history.
    assert len(long) <= len(short) + 64, (len(short), len(long))
    view = client.get(f"/api/tables/{long_table.id}").get_json()
    assert view["state"]["rounds_played"] == 400 and len(view["state"]["rounds"]) == RECENT_ROUNDS
    assert [r["number"] for r in view["state"]["rounds"]] == list(range(396, 401))
    # Every round is still in the log, and the cached state equals a replay of it.
    log = client.get(f"/api/tables/{long_table.id}/events").get_json()["events"]
    assert len(log) == 400
    store = client.application.extensions["kibitz.store"]
    row = store.get(long_table.id)
    replayed = replay(MHING, PLAYERS, row.options, row.seed, [e["event"] for e in log])
    assert MHING.dump(replayed) == row.state
