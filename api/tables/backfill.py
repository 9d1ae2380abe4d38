"""Data the game rules derive from a log, filled in after the schema migrations (api.db.migrate runs
it after Alembic's upgrade), never inside a migration: a migration imports nothing of the
application (tests/contract/test_rooms.py), and what was drawn can only be told by replaying a log
with the rules.

`chance_drawn` (GEN-1, revision 0008): whether a game entry showed a die or card the server drew.
The server marks every entry it appends; entries from before 0008 are NULL until this step follows
each line of play from its snapshots with the game's own rules. Only tables with such entries are
read, so once filled the step costs one query."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from api.db.schema import events, game_tables
from api.rules.registry import get_game


def fill_chance_drawn(engine: sa.Engine) -> int:
    """Mark the game entries whose `chance_drawn` is unknown; returns how many were marked."""
    marked = 0
    with engine.begin() as conn:
        unknown = sa.and_(events.c.kind == "game", events.c.chance_drawn.is_(None))
        table_ids = conn.execute(sa.select(events.c.table_id).where(unknown).distinct()).scalars().all()
        for table_id in table_ids:
            game_name, initial = conn.execute(
                sa.select(game_tables.c.game, game_tables.c.initial_state).where(game_tables.c.id == table_id)
            ).one()
            game = get_game(game_name)
            if game is None:
                continue
            states: dict[int, Any] = {0: game.load(initial)}
            rows = conn.execute(
                sa.select(
                    events.c.id,
                    events.c.seq,
                    events.c.kind,
                    events.c.payload,
                    events.c.prev_head,
                    events.c.state,
                    events.c.chance_drawn,
                )
                .where(events.c.table_id == table_id)
                .order_by(events.c.seq)
            ).all()
            for row in rows:
                if row.kind != "game" or row.prev_head not in states:
                    continue
                before = states[row.prev_head]
                after = game.load(row.state) if row.state is not None else game.apply(before, row.payload)
                states[row.seq] = after
                if row.chance_drawn is None:
                    drawn = bool(game.reveals_hidden_chance(before, after))
                    conn.execute(events.update().where(events.c.id == row.id).values(chance_drawn=drawn))
                    marked += 1
    return marked
