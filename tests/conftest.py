"""Shared fixtures: real databases (SQLite file, PostgreSQL), the Flask app, and a real gunicorn."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from api.db.migrate import upgrade
from devtools.gunicorn import GunicornProcess

ROOT = Path(__file__).resolve().parent.parent
# Records are signed with this test session's own key (api.tables.chain), never var/'s; gunicorns
# started by the tests inherit it.
os.environ["KIBITZ_RECORD_KEY"] = str(Path(tempfile.mkdtemp(prefix="kibitz-key-")) / "record-key.pem")
IN_CI = bool(os.environ.get("CI"))
PG_ADMIN_URL = os.environ.get("KIBITZ_TEST_PG_URL", "postgresql+psycopg://root@127.0.0.1:5432/test")


def unavailable(reason: str) -> None:
    """Skip on a developer machine; in CI a missing PostgreSQL or browser is a failure."""
    if IN_CI:
        pytest.fail(f"{reason} (mandatory when CI is set)")
    pytest.skip(reason)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'kibitz.sqlite3'}"
    upgrade(url)
    return url


@contextmanager
def new_postgres_database(prefix: str) -> Iterator[str]:
    """A migrated database of its own on the machine's PostgreSQL server, dropped afterwards."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except Exception as error:  # noqa: BLE001 - any connection failure means "no server"
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN_URL}: {error}")
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database on the machine's PostgreSQL server for this test session."""
    with new_postgres_database("kibitz_test") as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


# Generous limits for the suite; tests of the limits themselves set their own.
TEST_LIMITS = {
    "KIBITZ_CREATE_LIMIT": "10000 per minute",
    "KIBITZ_TOKEN_FAILURE_LIMIT": "10000 per minute",
    "KIBITZ_TOKEN_GUESS_LIMIT": "10000 per minute",
    "KIBITZ_VERIFY_LIMIT": "10000 per minute",
    "KIBITZ_PUBLISH_LIMIT": "10000 per minute",
}


def make_test_app(url: str, **config: object) -> Flask:
    return create_app(url, TESTING=True, **{**TEST_LIMITS, **config})


@pytest.fixture
def app(sqlite_url: str) -> Flask:
    return make_test_app(sqlite_url)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def any_db_client(db_url: str) -> FlaskClient:
    """A client on SQLite and, as a second run, on PostgreSQL."""
    return make_test_app(db_url).test_client()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under a real gunicorn (config file included) on a free loopback port, fresh SQLite."""
    folder = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{folder / 'kibitz.sqlite3'}"
    upgrade(url)
    with GunicornProcess(url, folder / "gunicorn.log", env=TEST_LIMITS) as server:
        yield server.base
