"""PostgreSQL drops the app's connections (a restart, an administrator, a failover): the next
requests are answered as usual, although pooled connections are pinged only after being idle."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from api.db import engine as db_engine
from tests.api.table_client import four_players
from tests.conftest import PG_ADMIN_URL, make_test_app, new_postgres_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def own_database() -> Iterator[tuple[str, sa.Engine]]:
    """A database of this test's own, so that dropping its connections touches no other test."""
    with new_postgres_database("kibitz_drop") as url:
        admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        yield url, admin
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
