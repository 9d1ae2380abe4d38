"""Snapshots: the log keeps a full state only every SNAPSHOT_EVERY entries along each line of play.

Every other entry stores just its event; the table row caches the current state, so reading stays
O(1), and the state at any earlier position (what an undo returns to) is the nearest snapshot behind
it plus at most SNAPSHOT_EVERY - 1 events re-applied — O(k), whatever the log's length. A finished
5-player Magellan game thus stores a few dozen states instead of one per event.

"Behind it" follows `prev_head`: the line of play that led to an entry, skipping undone entries. An
entry right after an undo always keeps its state, so no replay ever has to cross an undo (whose
restored state may have been reseeded, see api.rules.replay).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, and_, select

from api.db.schema import events, game_tables
from api.rules.game import Game

SNAPSHOT_EVERY = 32


def since_snapshot(head_since: int | None, head: int, version: int) -> int:
    """How far the entry appended on `head` lies from the nearest snapshot behind it (0 = it is one);
    `head_since` is that distance of the head entry itself, read with the table row."""
    if head != version:  # the last entry was an undo
        return 0
    distance = 1 if head == 0 else int(head_since or 0) + 1  # the initial state is a snapshot
    return 0 if distance >= SNAPSHOT_EVERY else distance


def state_at(conn: Connection, game: Game, table_id: str, seq: int) -> dict[str, Any]:
    """The full state after the game entry `seq` (0: the initial state)."""
    pending: list[Mapping[str, Any]] = []
    node = seq
    snapshot: Mapping[str, Any] | None = None
    while node != 0:
        entry = (
            conn.execute(
                select(events.c.prev_head, events.c.payload, events.c.state).where(
                    and_(events.c.table_id == table_id, events.c.seq == node)
                )
            )
            .mappings()
            .one()
        )
        if entry["state"] is not None:
            snapshot = entry["state"]
            break
        pending.append(entry["payload"])
        node = int(entry["prev_head"])
    if snapshot is None:
        snapshot = conn.execute(
            select(game_tables.c.initial_state).where(game_tables.c.id == table_id)
        ).scalar_one()
    if not pending:
        return dict(snapshot)
    state = game.load(snapshot)
    for event in reversed(pending):
        state = game.apply(state, event)
    return game.dump(state)
