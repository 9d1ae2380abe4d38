"""Plays imported into a group from a BG Stats export (issue 33, item 9): results without an event
log — game, day, who sat, scores and winners — counted in the group's history, statistics and
player pages, marked imported (no record to verify). Keyed by the play, so importing a file again
adds nothing; placed in the group's one sequence of places with its tables.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "group_imports",
        sa.Column(
            "group_id", sa.String(32), sa.ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("import_key", sa.String(64), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("facts", sa.JSON, nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_group_imports_position", "group_imports", ["group_id", "position"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_group_imports_position", table_name="group_imports")
    op.drop_table("group_imports")
