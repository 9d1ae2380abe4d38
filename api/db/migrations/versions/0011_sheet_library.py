"""The library of board sheets (MG-2): a sheet typed in at one table, published for its edition
(the printed board it was typed from), and the tables that confirmed those numbers match their own
board — counted once per table. Publications of one edition with different numbers stay apart.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sheet_publications",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("edition", sa.String(80), nullable=False),
        sa.Column("edition_key", sa.String(320), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("filled", sa.Integer, nullable=False),
        sa.Column("sheet_id", sa.String(32), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "edition_key", "fingerprint", name="uq_sheet_publications_values"),
    )
    op.create_table(
        "sheet_confirmations",
        sa.Column(
            "publication_id",
            sa.String(32),
            sa.ForeignKey("sheet_publications.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sheet_confirmations")
    op.drop_table("sheet_publications")
