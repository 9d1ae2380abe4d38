"""The library's counts cannot be inflated by one client (issue 31, hole 4): a publication keeps who
published it (a keyed hash of the client's address, never the address), and a confirmation keeps
who sent it and whether it counts yet — it counts only once its table reached the end of scoring
with the published numbers (MG-2, MG-10). Confirmations stored before are `pending`: each is
settled the first time the library is read after its table finished.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sheet_publications") as batch:
        batch.add_column(sa.Column("publisher", sa.String(64), nullable=True))
    with op.batch_alter_table("sheet_confirmations") as batch:
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
        batch.add_column(sa.Column("status", sa.String(8), nullable=False, server_default="pending"))
        batch.add_column(sa.Column("counted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_sheet_confirmations_status", "sheet_confirmations", ["status"])


def downgrade() -> None:
    op.drop_index("ix_sheet_confirmations_status", table_name="sheet_confirmations")
    with op.batch_alter_table("sheet_confirmations") as batch:
        batch.drop_column("counted_at")
        batch.drop_column("status")
        batch.drop_column("client")
    with op.batch_alter_table("sheet_publications") as batch:
        batch.drop_column("publisher")
