"""GEN-1: each game entry remembers whether it showed a die or card the server drew.

Such an entry cannot be undone (nor anything before it), and the table's `undo.possible` says so
without replaying anything.

Existing logs are backfilled without the game rules, so that this migration writes the same whatever
the rules become (it imports nothing of the application: tests/contract/test_rooms.py). Exact where
the server never draws — a table with `chance: physical` (the default: players type every die and
card in) and any Mhing table: no entry drew. Cautious where it may: in a `chance: digital` Mahé or
Magellan table every game entry counts as drawn, so no undo can show a secret the rules would have
kept (telling which entries really drew needs the rules' replay, which changes with the rules; such
old tables only lose their undo). New entries are marked by the server as they are appended.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

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
    sa.column("options", sa.JSON),
)
GAMES_WITH_SERVER_CHANCE = ("mahe", "magellan")  # frozen: the games at this revision that could draw


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("chance_drawn", sa.Boolean, nullable=True))
    bind = op.get_bind()
    for table_id, game_name, options in bind.execute(
        sa.select(game_tables.c.id, game_tables.c.game, game_tables.c.options)
    ).all():
        digital = isinstance(options, dict) and options.get("chance") == "digital"
        drawn = digital and game_name in GAMES_WITH_SERVER_CHANCE
        bind.execute(
            events.update()
            .where(sa.and_(events.c.table_id == table_id, events.c.kind == "game"))
            .values(chance_drawn=drawn)
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chance_drawn")
