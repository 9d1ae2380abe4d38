"""Alembic environment: migrations run against the URL set by api.db.migrate."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from api.db.schema import metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url, "api.db.migrate sets sqlalchemy.url"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    connectable = create_engine(url, poolclass=pool.NullPool)
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
