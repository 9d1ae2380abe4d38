"""Snapshots: log entries keep their full state only every 32 entries along a line of play.

Existing logs are converted in place: each entry gets its distance to the nearest snapshot behind it,
and the states of all other entries are dropped — nothing is lost, since every dropped state is the
nearest snapshot plus the entries' own events (api.tables.snapshots rebuilds it on undo).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

SNAPSHOT_EVERY = 32  # frozen here: api.tables.snapshots may change its own later

events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("prev_head", sa.Integer),
    sa.column("state", sa.JSON),
    sa.column("since_snapshot", sa.Integer),
)


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("since_snapshot", sa.Integer, nullable=True))
        batch.alter_column("state", existing_type=sa.JSON, nullable=True)
    bind = op.get_bind()
    table_ids = [row[0] for row in bind.execute(sa.select(events.c.table_id).distinct())]
    for table_id in table_ids:
        rows = bind.execute(
            sa.select(events.c.id, events.c.seq, events.c.kind, events.c.prev_head)
            .where(events.c.table_id == table_id)
            .order_by(events.c.seq)
        ).all()
        since: dict[int, int] = {}
        previous_kind = "game"
        for row in rows:
            if row.kind == "undo":
                bind.execute(
                    events.update().where(events.c.id == row.id).values(state=sa.null(), since_snapshot=None)
                )
            else:
                if previous_kind == "undo":
                    distance = 0
                else:
                    distance = 1 if row.prev_head == 0 else since[row.prev_head] + 1
                    distance = 0 if distance >= SNAPSHOT_EVERY else distance
                since[row.seq] = distance
                update = events.update().where(events.c.id == row.id).values(since_snapshot=distance)
                bind.execute(update if distance == 0 else update.values(state=sa.null()))
            previous_kind = row.kind


def downgrade() -> None:
    raise NotImplementedError("dropped states are rebuilt on demand; there is no way back to one per entry")
