"""Settings read from the environment, with defaults that need nothing installed."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE = ROOT / "var" / "kibitz.sqlite3"
# The largest request body (413 beyond); the gunicorn worker reads bodies up to it ahead of the app.
MAX_BODY_BYTES = 256 * 1024


@dataclass(frozen=True)
class Settings:
    database_url: str
    max_body_bytes: int = MAX_BODY_BYTES


def database_url_from_env() -> str:
    """DATABASE_URL wins; otherwise a SQLite file in var/ (created on demand)."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        DEFAULT_SQLITE.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{DEFAULT_SQLITE}"
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def settings_from_env() -> Settings:
    return Settings(database_url=database_url_from_env())
