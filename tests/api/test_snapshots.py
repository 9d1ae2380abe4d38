"""Storage that stays small: log entries keep full states only as snapshots every k entries
(api.tables.snapshots), and migration 0005 converts logs written by the old schema (a state in every
entry) with nothing lost — undo, replay and export answer exactly as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from flask.testing import FlaskClient

from api.db.migrate import alembic_config, upgrade
from api.db.schema import events, game_tables
from api.rules.magellan.game import MAGELLAN
from api.rules.registry import get_game
from api.rules.replay import replay
from api.tables.snapshots import SNAPSHOT_EVERY, state_at
from tests.api.table_client import TableDriver
from tests.conftest import make_test_app
from tests.rules.magellan_support import players, random_event

MAHE_PLAYERS = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]


def _mahe_with_undos(client: FlaskClient, rng: random.Random, moves: int) -> TableDriver:
    """A physical Mahé table: typed dice and cards, with an undo now and then."""
    table = TableDriver.create(client, game="mahe", players=MAHE_PLAYERS, options={"chance": "physical"})
    for _ in range(moves):
        if table.table["finished"]:
            break
        legal = table.legal
        kinds = {a["type"]: a for a in legal["actions"]}
        if table.table["legal_actions"]["undo"]["possible"] and rng.random() < 0.1:
            table.play({"type": "undo"})
        elif "reveal_card" in kinds:
            table.play({"type": "reveal_card", "value": rng.randint(1, 6)})
        elif "stop" in kinds and rng.random() < 0.4:
            table.play({"type": "stop"})
        else:
            table.play({"type": "die", "value": rng.randint(1, 3)})
    return table


def _magellan_with_undos(client: FlaskClient, rng: random.Random, moves: int) -> TableDriver:
    table = TableDriver.create(
        client, game="magellan", players=players(5), options={"depth": "ledger", "chance": "digital"}
    )
    store = client.application.extensions["kibitz.store"]
    for _ in range(moves):
        state = MAGELLAN.load(store.get(table.id).state)
        if state.stage == "finished":
            break
        if table.table["legal_actions"]["undo"]["possible"] and rng.random() < 0.05:
            table.undo()  # a secret entry from its own seat's phone (GEN-1)
        else:
            event = random_event(state, rng)  # a hand's own events come from that player's phone
            table.play(event, seat=MAGELLAN.secret_seat(state, event))
    return table


def _undo_all_the_way(client: FlaskClient, table: TableDriver) -> list[dict[str, Any]]:
    views = []
    while table.table["legal_actions"]["undo"]["possible"]:
        table.undo()
        views.append({k: v for k, v in table.table.items() if k not in ("updated_at", "version")})
    return views


def test_undo_far_back_rebuilds_every_state_from_snapshots(client: FlaskClient) -> None:
    table = _mahe_with_undos(client, random.Random(5), 3 * SNAPSHOT_EVERY)
    store = client.application.extensions["kibitz.store"]
    game = get_game("mahe")
    assert game is not None
    while table.table["legal_actions"]["undo"]["possible"]:
        table.play({"type": "undo"})
        log = [e["event"] for e in client.get(f"/api/tables/{table.id}/events").get_json()["events"]]
        replayed = replay(game, MAHE_PLAYERS, table.table["options"], store.get(table.id).seed, log)
        assert game.dump(replayed) == store.get(table.id).state
    with store.engine.connect() as conn:
        kept = conn.execute(
            sa.select(sa.func.count()).where(events.c.table_id == table.id, events.c.state.is_not(None))
        ).scalar_one()
        total = conn.execute(sa.select(sa.func.count()).where(events.c.table_id == table.id)).scalar_one()
    assert kept * 4 < total  # most entries keep only their event


# Columns the schema gained after revision 0004 (snapshots, GEN-1, the record's chain).
NEWER_COLUMNS = ("id", "since_snapshot", "chance_drawn", "hash", "signature")


def _old_schema_copy(source: sa.Engine, target_url: str) -> None:
    """Write the source's logs into a database at revision 0004, as the old schema did: the full
    state after every entry (an undo entry: the state it returned to)."""
    command.upgrade(alembic_config(target_url), "0004")
    target = sa.create_engine(target_url)
    with source.connect() as src, target.begin() as dst:
        for row in src.execute(sa.select(game_tables)).mappings():
            # Columns added after 0004 (0010: the creation's Idempotency-Key) are not there yet.
            then = {k: v for k, v in row.items() if not k.startswith("creation_")}
            dst.execute(sa.insert(game_tables).values(**then))
            game = get_game(row["game"])
            assert game is not None
            log = (
                src.execute(sa.select(events).where(events.c.table_id == row["id"]).order_by(events.c.seq))
                .mappings()
                .all()
            )
            payloads = [entry["payload"] for entry in log]
            for index, entry in enumerate(log):
                after = replay(game, row["players"], row["options"], row["seed"], payloads[: index + 1])
                values = {k: v for k, v in entry.items() if k not in NEWER_COLUMNS}
                dst.execute(sa.insert(events).values(**{**values, "state": game.dump(after)}))
    target.dispose()


def test_migration_converts_old_logs_with_nothing_lost(tmp_path: Path) -> None:
    source_url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    upgrade(source_url)
    source_app = make_test_app(source_url)
    client = source_app.test_client()
    tables = [
        _mahe_with_undos(client, random.Random(1), 150),
        _magellan_with_undos(client, random.Random(2), 120),
    ]
    old_url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    _old_schema_copy(source_app.extensions["kibitz.store"].engine, old_url)
    old_engine = sa.create_engine(old_url)
    with old_engine.connect() as conn:
        rows = conn.execute(sa.select(events.c.table_id, events.c.seq, events.c.kind, events.c.state))
        old_states = {(r.table_id, r.seq): r.state for r in rows if r.kind == "game"}
    old_engine.dispose()

    upgrade(old_url)  # 0004 → head: the conversion under test
    migrated = make_test_app(old_url)
    moved = migrated.test_client()
    store = migrated.extensions["kibitz.store"]
    with store.engine.connect() as conn:
        for (table_id, seq), state in old_states.items():
            game = get_game(store.get(table_id).game)
            assert game is not None
            assert state_at(conn, game, table_id, seq) == state, (table_id, seq)
        dropped = conn.execute(sa.select(sa.func.count()).where(events.c.state.is_(None))).scalar_one()
    assert dropped > len(old_states) // 2

    for table in tables:
        for path in ("", "/events"):
            assert (
                moved.get(f"/api/tables/{table.id}{path}").get_json()
                == client.get(f"/api/tables/{table.id}{path}").get_json()
            )
        twin = TableDriver(
            moved, {"id": table.id, "write_token": table.token, "table": table.table, "seats": table.seats}
        )
        assert _undo_all_the_way(moved, twin) == _undo_all_the_way(client, table)
