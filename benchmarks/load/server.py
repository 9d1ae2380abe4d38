"""A throwaway gunicorn for the load benchmark: migrated database, no rate limits, no access log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from api.db.migrate import upgrade
from devtools.gunicorn import GunicornProcess

# The benchmarks' clients and phones all come from one address: no per-client limits (0 = none).
NO_LIMITS = {
    "KIBITZ_CREATE_LIMIT": "100000 per minute",
    "KIBITZ_TOKEN_FAILURE_LIMIT": "100000 per minute",
    "KIBITZ_VERIFY_LIMIT": "100000 per minute",
    "KIBITZ_CLIENT_CONNECTIONS": "0",
    "KIBITZ_CLIENT_STREAMS": "0",
}


@contextmanager
def serving(database_url: str, log: Path, env: dict[str, str] | None = None) -> Iterator[GunicornProcess]:
    upgrade(database_url)
    with GunicornProcess(
        database_url, log, env={**NO_LIMITS, **(env or {})}, extra_args=("--access-logfile", "/dev/null")
    ) as server:
        yield server


@contextmanager
def gunicorn(database_url: str, log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    with serving(database_url, log, env) as server:
        yield server.base
