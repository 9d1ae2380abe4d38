"""Group figures kept as tables change (issue 31): each membership keeps its table's game, its place
in the group (`position`, the order the group's stream and history page by), whether the table is
finished, and the finished game's facts with the table version they were worked out at; each group
keeps one row of figures that can be subtracted exactly (counts, sums, counters of scores), so a read
of the statistics costs O(players), never a replay of every table.

Figures are not worked out here (a migration replays no games): a group without its figures row has
them rebuilt once, on its first read.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("group_tables") as batch:
        batch.add_column(sa.Column("game", sa.String(32), nullable=True))
        batch.add_column(sa.Column("position", sa.Integer, nullable=True))
        batch.add_column(sa.Column("finished", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("facts", sa.JSON, nullable=True))
        batch.add_column(sa.Column("facts_version", sa.Integer, nullable=True))
        batch.add_column(sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(
        "UPDATE group_tables SET"
        " game = (SELECT g.game FROM game_tables g WHERE g.id = group_tables.table_id),"
        " finished = (SELECT g.finished FROM game_tables g WHERE g.id = group_tables.table_id)"
    )
    op.execute(
        "UPDATE group_tables SET position = (SELECT n.position FROM (SELECT group_id, table_id,"
        " ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY added_at, table_id) AS position"
        " FROM group_tables) n"
        " WHERE n.group_id = group_tables.group_id AND n.table_id = group_tables.table_id)"
    )
    op.create_index("ix_group_tables_position", "group_tables", ["group_id", "position"], unique=True)
    op.create_index("ix_group_tables_game", "group_tables", ["group_id", "game", "position"])
    op.create_index("ix_group_tables_table", "group_tables", ["table_id"])
    op.create_table(
        "group_figures",
        sa.Column(
            "group_id", sa.String(32), sa.ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("figures", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("group_figures")
    op.drop_index("ix_group_tables_table", "group_tables")
    op.drop_index("ix_group_tables_game", "group_tables")
    op.drop_index("ix_group_tables_position", "group_tables")
    with op.batch_alter_table("group_tables") as batch:
        for name in ("counted", "facts_version", "facts", "finished", "position", "game"):
            batch.drop_column(name)
