"""`make serve-cluster`: several app servers on one PostgreSQL database and one Redis, locally.

Each server is a gunicorn of its own on its own port (8001, 8002, … by default) — what several
machines behind a load balancer would be. Appends on one reach phones streaming from another through
PostgreSQL LISTEN/NOTIFY; rate-limit counters are shared in Redis. Ctrl-C or SIGTERM stops them all
(together, within gunicorn's graceful timeout) and then the supervisor itself.
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


class Stop(Exception):
    """SIGTERM or SIGINT reached the supervisor."""


def main() -> int:
    # From the first moment on a signal stops whatever was started: a supervisor stopped while its
    # servers start must not leave them running, nor keep running itself once they are stopped.
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    servers: list[GunicornProcess] = []
    try:
        return _run(servers)
    except Stop:
        return 0
    finally:
        _stop_all(servers)


def _raise_stop(*_args: object) -> None:
    raise Stop


def _run(servers: list[GunicornProcess]) -> int:
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
    for n in range(count):
        server = GunicornProcess(database, logs / f"server-{n + 1}.log", port=first_port + n, env=env)
        servers.append(server)  # before it starts: a signal meanwhile stops it too
        # A stop signal that arrives while the server is being spawned waits until it has a pid to
        # stop (raised inside Popen, it would leave a running server the supervisor never knew).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            server.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        print(f"app server on {server.base} (log: {server.log_path})", flush=True)
    while all(s.process is not None and s.process.poll() is None for s in servers):
        time.sleep(0.5)
    print("an app server stopped on its own; stopping the others", file=sys.stderr, flush=True)
    return 1


def _stop_all(servers: list[GunicornProcess], grace: float = 15) -> None:
    """SIGTERM to every server at once, then wait for them together (gunicorn's graceful_timeout is
    10 s, which open live streams use up); SIGKILL whatever is left after `grace`, or at once on a
    second signal."""

    def kill_now(*_args: object) -> None:
        for server in servers:
            server.kill9()

    signal.signal(signal.SIGINT, kill_now)
    signal.signal(signal.SIGTERM, kill_now)
    running = [s for s in servers if s.process is not None and s.process.poll() is None]
    for server in running:
        server.terminate()
    deadline = time.monotonic() + grace
    for server in running:
        if not server.wait(max(0.0, deadline - time.monotonic())):
            server.kill9()


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
