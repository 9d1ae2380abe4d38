"""Create the database if it is missing, then bring its schema to the migrations' head.

Runs before any app server starts (supervise.py's `migrate`, systemd's kibitz-migrate.service) and
first in an upgrade: migrations only ever add, so servers of the old version keep working on the
new schema while they are replaced one at a time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]
from pgurl import split_database  # noqa: E402


def ensure_database(url: str, pg_bin: Path) -> None:
    admin, name = split_database(url)
    psql = [str(pg_bin / "psql"), "-v", "ON_ERROR_STOP=1", "-qAt", admin, "-c"]
    query = f"SELECT 1 FROM pg_database WHERE datname = '{name}'"
    found = subprocess.run([*psql, query], capture_output=True,
                           text=True, check=True).stdout.strip()  # fmt: skip
    if not found:
        subprocess.run([*psql, f'CREATE DATABASE "{name}"'], check=True)


def main() -> int:
    url = os.environ["DATABASE_URL"]
    if url.startswith("postgres"):
        ensure_database(url, Path(os.environ.get("KIBITZ_PG_BIN", "/usr/bin")))
    from api.db.migrate import upgrade

    upgrade(url)
    print("database at the migrations' head", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
