"""Run the Alembic migrations without an alembic.ini: `python -m api.db.migrate`."""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

from api.config import database_url_from_env

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """The schema to head, then the data only the rules can derive (never inside a migration)."""
    command.upgrade(alembic_config(url), "head")
    from sqlalchemy import create_engine, pool

    from api.tables.backfill import fill_chance_drawn  # the runner may use the application

    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        fill_chance_drawn(engine)
    finally:
        engine.dispose()


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else database_url_from_env()
    upgrade(url)
    print(f"database at head: {url.split('@')[-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
