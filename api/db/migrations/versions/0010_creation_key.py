"""Creating a table honours `Idempotency-Key`: the table row keeps a hash of the key it was created
with (unique), the hash of the creation request, and a secret salt from which, with the key, its
tokens were derived — so a retried creation answers the very same table and tokens, and a lost
creation answer never leaves a twin.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("creation_key_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creation_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creation_salt", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_game_tables_creation_key", ["creation_key_hash"])


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_constraint("uq_game_tables_creation_key", type_="unique")
        batch.drop_column("creation_salt")
        batch.drop_column("creation_hash")
        batch.drop_column("creation_key_hash")
