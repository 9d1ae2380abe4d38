"""GEN-1: each game entry remembers whether it showed a die or card the server drew.

Such an entry cannot be undone (nor anything before it), and the table's `undo.possible` says so
without replaying anything.

Existing entries stay NULL here ("not known yet"): telling what an old entry drew needs the game
rules' replay, and a migration imports nothing of the application (tests/contract/test_rooms.py),
so `python -m api.db.migrate` fills them after the upgrade (api.tables.backfill).

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

def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("chance_drawn", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chance_drawn")
