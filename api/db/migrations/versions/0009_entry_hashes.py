"""A record that proves itself: each log entry keeps its chain hash and the server's signature.

The hash is SHA-256 over the previous entry's hash (the first: the table header's), the entry's
sequence number and its event (api.tables.chain); the signature is the server's Ed25519 signature
of the log as far as that entry, with the key from KIBITZ_RECORD_KEY (never in the database).
Existing logs are hashed and signed here, in order, as they are.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("payload", sa.JSON),
    sa.column("hash", sa.String),
    sa.column("signature", sa.String),
)
game_tables = sa.table(
    "game_tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("players", sa.JSON),
    sa.column("options", sa.JSON),
    sa.column("seed", sa.BigInteger),
)


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("signature", sa.String(100), nullable=True))
    from api.tables.chain import genesis, link, record_key

    bind = op.get_bind()
    tables = bind.execute(sa.select(game_tables)).mappings().all()
    if not tables:
        return
    key = record_key()
    for table in tables:
        previous = genesis(table)
        rows = bind.execute(
            sa.select(events.c.id, events.c.seq, events.c.payload)
            .where(events.c.table_id == table["id"])
            .order_by(events.c.seq)
        ).all()
        for row in rows:
            previous = link(previous, row.seq, row.payload)
            signature = key.sign(table["id"], row.seq, previous)
            bind.execute(
                events.update().where(events.c.id == row.id).values(hash=previous, signature=signature)
            )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("signature")
        batch.drop_column("hash")
