"""The libpq form of the app's DATABASE_URL (pg_dump and pg_restore read libpq URIs)."""

from __future__ import annotations

import re


def libpq_url(url: str) -> str:
    return re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql://", url)


def split_database(url: str) -> tuple[str, str]:
    """(the same server's maintenance database `postgres`, the database's name)."""
    libpq = libpq_url(url)
    base, query = (libpq.split("?", 1) + [""])[:2]
    server, _, name = base.rpartition("/")
    suffix = f"?{query}" if query else ""
    return f"{server}/postgres{suffix}", name
