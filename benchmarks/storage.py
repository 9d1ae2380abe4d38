"""Bytes stored per finished 5-player Magellan game: one state per log entry (the old schema) against
snapshots every k entries (api.tables.snapshots), measured in the same run on a real SQLite file.

`python -m benchmarks.storage` prints both sizes and their ratio (target: at most 1/10).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import sqlalchemy as sa

from api.db.migrate import upgrade
from api.db.schema import events
from api.rules.magellan.game import MAGELLAN
from api.tables import snapshots
from api.tables.store import TableStore
from tests.rules.magellan_support import TEST_SHEET, players, random_event

GAMES = 3


def stored_bytes(every: int, seed: int) -> tuple[int, int]:
    """(bytes of log entries, entries) for one finished game with snapshots every `every` entries."""
    snapshots.SNAPSHOT_EVERY = every
    folder = Path(tempfile.mkdtemp(prefix="kibitz-storage-"))
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    upgrade(url)
    store = TableStore(sa.create_engine(url))
    options = {"depth": "ledger", "chance": "digital", "board_sheet": TEST_SHEET}
    table, token, _ = store.create("magellan", players(5), options, seed)
    rng = random.Random(seed)
    version = 0
    while True:
        state = MAGELLAN.load(store.get(table.id).state)
        if state.stage == "finished":
            break
        version = store.append(table.id, token, version, random_event(state, rng)).seq
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(events.c.payload, events.c.state).where(events.c.table_id == table.id))
        size = sum(
            len(json.dumps(r.payload)) + len(json.dumps(r.state) if r.state is not None else "") for r in rows
        )
    return size, version


def main() -> None:
    default = snapshots.SNAPSHOT_EVERY
    for seed in range(GAMES):
        before, entries = stored_bytes(1, seed)
        after, _ = stored_bytes(default, seed)
        print(
            f"game {seed}: {entries} entries; one state per entry {before / 1e6:.2f} MB, "
            f"snapshots every {default}: {after / 1e3:.0f} KB; ratio {after / before:.3f}"
        )
    snapshots.SNAPSHOT_EVERY = default


if __name__ == "__main__":
    main()
