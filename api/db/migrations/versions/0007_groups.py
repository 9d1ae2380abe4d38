"""Groups: a family or a club, its players and the tables it played (history and statistics).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_groups",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("edit_token_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "group_tables",
        sa.Column(
            "group_id", sa.String(32), sa.ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("group_tables")
    op.drop_table("player_groups")
