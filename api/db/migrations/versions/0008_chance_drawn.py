"""GEN-1: each game entry remembers whether it showed a die or card the server drew.

Such an entry cannot be undone (nor anything before it), and the table's `undo.possible` says so
without replaying anything. Existing logs are backfilled by following each line of play from its
snapshots with the game's own rules.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("payload", sa.JSON),
    sa.column("prev_head", sa.Integer),
    sa.column("state", sa.JSON),
    sa.column("chance_drawn", sa.Boolean),
)
game_tables = sa.table(
    "game_tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("initial_state", sa.JSON),
)


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("chance_drawn", sa.Boolean, nullable=True))
    from api.rules.registry import get_game  # the rules decide what was drawn

    bind = op.get_bind()
    for table_id, game_name, initial in bind.execute(
        sa.select(game_tables.c.id, game_tables.c.game, game_tables.c.initial_state)
    ).all():
        game = get_game(game_name)
        if game is None:
            continue
        states: dict[int, Any] = {0: game.load(initial)}
        rows = bind.execute(
            sa.select(
                events.c.id, events.c.seq, events.c.kind, events.c.payload, events.c.prev_head, events.c.state
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
            drawn = bool(game.reveals_hidden_chance(before, after))
            bind.execute(events.update().where(events.c.id == row.id).values(chance_drawn=drawn))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chance_drawn")
