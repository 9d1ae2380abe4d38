"""`make serve-cluster`: several app servers on one PostgreSQL database and one Redis, locally.

Each server is a gunicorn of its own on its own port (8001, 8002, … by default) — what several
machines behind a load balancer would be. Appends on one reach phones streaming from another through
PostgreSQL LISTEN/NOTIFY; rate-limit counters are shared in Redis. Ctrl-C stops them all.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from api.db.migrate import upgrade
from devtools.gunicorn import GunicornProcess

DEFAULT_DATABASE = "postgresql+psycopg://root@127.0.0.1:5432/kibitz"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def main() -> int:
    database = os.environ.get("DATABASE_URL", DEFAULT_DATABASE)
    if not database.startswith("postgresql"):
        print("serve-cluster needs PostgreSQL: set DATABASE_URL=postgresql+psycopg://…", file=sys.stderr)
        return 2
    _ensure_database(database)
    upgrade(database)
    count = int(os.environ.get("KIBITZ_SERVERS", "2"))
    first_port = int(os.environ.get("KIBITZ_FIRST_PORT", "8001"))
    env = {"RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", DEFAULT_REDIS)}
    logs = Path("var")
    logs.mkdir(exist_ok=True)
    servers = [
        GunicornProcess(database, logs / f"server-{n + 1}.log", port=first_port + n, env=env).start()
        for n in range(count)
    ]
    for server in servers:
        print(f"app server on {server.base} (log: {server.log_path})", flush=True)
    stopping = False

    def stop(*_args: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping and all(s.process is not None and s.process.poll() is None for s in servers):
            time.sleep(0.5)
    finally:
        for server in servers:
            server.stop()
    return 0


def _ensure_database(url: str) -> None:
    """Create the cluster's database on first use (the machine's server has trust auth)."""
    import sqlalchemy as sa

    base, _, name = url.rpartition("/")
    admin = sa.create_engine(f"{base}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        exists = conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first()
        if not exists:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
