"""Shared fixtures: real databases (SQLite file, PostgreSQL), the Flask app, and a real gunicorn."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from api.db.migrate import upgrade
from api.tables.changes import stop_listeners
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


@cache
def _sqlite_template() -> Path:
    """One migrated SQLite file per test process (each xdist worker has its own): running the
    migrations for every test cost ~0.3 s × hundreds of tests; copying the file costs nothing."""
    folder = Path(tempfile.mkdtemp(prefix="kibitz-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    template = folder / "template.sqlite3"
    upgrade(f"sqlite:///{template}")
    for suffix in ("-wal", "-shm", "-journal"):  # the migrations close every connection: none left
        assert not Path(f"{template}{suffix}").exists(), f"{template}{suffix} left by the migrations"
    return template


def migrated_sqlite(path: Path) -> str:
    """A SQLite database at head at `path` (a copy of the migrated template); its URL."""
    shutil.copyfile(_sqlite_template(), path)
    return f"sqlite:///{path}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file at head, this test's own."""
    return migrated_sqlite(tmp_path / "kibitz.sqlite3")


_pg_templates: list[str] = []


def _admin_engine() -> sa.Engine:
    return sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)


def _pg_url(name: str) -> str:
    return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def _postgres_template() -> str:
    """One migrated PostgreSQL database per test process, cloned for every new database
    (`CREATE DATABASE … TEMPLATE …` copies files instead of replaying the migrations). Nothing ever
    connects to it after the migrations, which a clone requires. Dropped when the session ends."""
    if not _pg_templates:
        name = f"kibitz_template_{os.getpid()}_{secrets.token_hex(3)}"
        admin = _admin_engine()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        _pg_templates.append(name)
        upgrade(_pg_url(name))
        admin.dispose()
    return _pg_templates[0]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop this process's PostgreSQL template (xdist workers each finish their own session)."""
    if not _pg_templates:
        return
    admin = _admin_engine()
    with admin.connect() as conn:
        for name in _pg_templates:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()
    _pg_templates.clear()


@contextmanager
def new_postgres_database(prefix: str) -> Iterator[str]:
    """A migrated database of its own on the machine's PostgreSQL server, dropped afterwards."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        template = _postgres_template()
        admin = _admin_engine()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    except Exception as error:  # noqa: BLE001 - any connection failure means "no server"
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN_URL}: {error}")
    url = _pg_url(name)
    try:
        yield url
    finally:
        # An app made on this database may have started a change listener: stop it before the
        # drop, or it keeps reconnecting to a database that is gone (a traceback a second).
        stop_listeners(url)
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


LIVE_SERVER_START = 180  # seconds


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under a real gunicorn (config file included) on a free loopback port, fresh SQLite."""
    folder = tmp_path_factory.mktemp("live")
    url = migrated_sqlite(folder / "kibitz.sqlite3")
    # Every browser test waits on this one server: a start costs ~7 s of CPU (the app's import and
    # its static build's plan), over gunicorn's 30 s default when the machine is shared, and then
    # every test of the run errors. Give it the time a loaded machine needs.
    server = GunicornProcess(url, folder / "gunicorn.log", env=TEST_LIMITS).start(timeout=LIVE_SERVER_START)
    try:
        yield server.base
    finally:
        server.stop()


BROWSER_TESTS = ROOT / "tests" / "browser"
# Files of independent, long tests (each builds what it needs once per process): under `--dist
# loadgroup` their tests go to whichever worker is free instead of queuing on one. schemathesis' one
# test per operation was 10 of the suite's slowest tests, all in one file that `loadfile` kept on
# one worker while the other ran out of work.
SPREAD_FILES = frozenset({"test_schemathesis.py"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Markers from what a test uses, so that `-m` selects every test it names (issue 34: `browser`
    was on 1 of 23 browser files): every test under tests/browser is `browser`; a test that uses
    `postgres_url` is `postgres`; one that uses `live_server` is `gunicorn`. Runs before `-m`
    deselects."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if item.path.is_relative_to(BROWSER_TESTS) and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if "postgres_url" in names and not item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.postgres)
        if "live_server" in names and not item.get_closest_marker("gunicorn"):
            item.add_marker(pytest.mark.gunicorn)
        if item.path.name not in SPREAD_FILES and not item.get_closest_marker("xdist_group"):
            # `--dist loadgroup`: a file's tests stay together on one worker (its module fixtures
            # made once), except the files whose tests are spread over the workers one by one.
            item.add_marker(pytest.mark.xdist_group(str(item.path.relative_to(ROOT))))
