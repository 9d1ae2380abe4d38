"""PostgreSQL drops the app's connections (a restart, an administrator, a failover): the next
requests are answered as usual, although pooled connections are pinged only after being idle."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from api.db import engine as db_engine
from api.db.migrate import upgrade
from tests.api.table_client import four_players
from tests.conftest import PG_ADMIN_URL, make_test_app, unavailable

pytestmark = pytest.mark.postgres


@pytest.fixture
def own_database() -> Iterator[tuple[str, sa.Engine]]:
    """A database of this test's own, so that dropping its connections touches no other test."""
    name = f"kibitz_drop_{secrets.token_hex(4)}"
    try:
        admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except Exception as error:  # noqa: BLE001 - no server
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN_URL}: {error}")
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    upgrade(url)
    yield url, admin
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


def _drop_every_connection(admin: sa.Engine, url: str) -> int:
    with admin.connect() as conn:
        dropped = conn.execute(
            sa.text(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()) AS t"
            ),
            {"name": url.rsplit("/", 1)[1]},
        ).scalar_one()
    return int(dropped)


def test_requests_after_the_server_dropped_every_connection_are_answered(
    own_database: tuple[str, sa.Engine], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, admin = own_database
    monkeypatch.setattr(db_engine, "PING_AFTER_IDLE_SECONDS", 0.2)
    client = make_test_app(url).test_client()
    created = client.post("/api/tables", json=four_players()).get_json()
    table_id, token = created["id"], created["write_token"]
    for _ in range(3):  # a few pooled connections, used moments ago
        assert client.get(f"/api/tables/{table_id}").status_code == 200

    assert _drop_every_connection(admin, url) >= 1
    time.sleep(0.3)  # idle long enough to be pinged before use

    assert client.get(f"/api/tables/{table_id}").status_code == 200
    body = {"expected_version": 0, "event": {"type": "reveal_card", "value": 3}}
    answer = client.post(
        f"/api/tables/{table_id}/events", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201, answer.get_json()
    assert client.get(f"/api/tables/{table_id}").get_json()["version"] == 1
