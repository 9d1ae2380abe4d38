"""PostgreSQL announces every new log entry itself: a trigger on `events` sends the change-feed
notice (channel `kibitz_tables`, payload `<table id>:<log position>`) inside the inserting
transaction, so it goes out exactly when the append commits — one round trip less per append than
the separate `SELECT pg_notify(...)` it replaces. SQLite has no NOTIFY (one process announces its
own appends) and gets nothing.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

CREATE = """
CREATE FUNCTION kibitz_announce_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kibitz_tables', NEW.table_id || ':' || NEW.seq);
    RETURN NULL;
END
$$;
CREATE TRIGGER kibitz_announce_entry AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION kibitz_announce_entry();
"""

DROP = """
DROP TRIGGER IF EXISTS kibitz_announce_entry ON events;
DROP FUNCTION IF EXISTS kibitz_announce_entry();
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DROP)
