"""PostgreSQL connections stay in autocommit and transactions say BEGIN themselves
(api.db.engine): a transaction is still all or nothing, a lone statement is stored at once, and a
connection handed back to the pool inside a transaction is rolled back (the pool's reset does so
only then)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from api.db.engine import TransactionStatus, lone_statements, make_engine, read_connection, write_transaction

pytestmark = pytest.mark.postgres

PROBE = sa.table("kibitz_probe", sa.column("n", sa.Integer))


@pytest.fixture
def engine(postgres_url: str) -> sa.Engine:
    engine = make_engine(postgres_url)
    with write_transaction(engine) as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS kibitz_probe (n integer)")
        conn.exec_driver_sql("DELETE FROM kibitz_probe")
    return engine


def _count(engine: sa.Engine) -> int:
    with read_connection(engine) as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(PROBE)).scalar_one())


def test_a_failed_transaction_leaves_nothing_behind(engine: sa.Engine) -> None:
    with pytest.raises(RuntimeError), write_transaction(engine) as conn:
        conn.execute(PROBE.insert().values(n=1))
        conn.execute(PROBE.insert().values(n=2))
        assert _count(engine) == 0  # not visible to others before the commit
        raise RuntimeError("the request failed half way")
    assert _count(engine) == 0


def test_a_transaction_commits_all_of_it(engine: sa.Engine) -> None:
    with write_transaction(engine) as conn:
        conn.execute(PROBE.insert().values(n=1))
        conn.execute(PROBE.insert().values(n=2))
    assert _count(engine) == 2


def test_a_lone_statement_is_stored_at_once(engine: sa.Engine) -> None:
    with pytest.raises(RuntimeError), lone_statements(engine) as conn:
        conn.execute(PROBE.insert().values(n=1))
        assert _count(engine) == 1  # already committed: no transaction around it
        raise RuntimeError("what follows does not take it back")
    assert _count(engine) == 1


def test_a_connection_returned_inside_a_transaction_is_rolled_back(engine: sa.Engine) -> None:
    raw = engine.raw_connection()
    raw.cursor().execute("BEGIN")
    raw.cursor().execute("INSERT INTO kibitz_probe (n) VALUES (1)")
    raw.close()  # back to the pool, BEGIN still open
    with engine.connect() as conn:
        driver = conn.connection.dbapi_connection
        assert driver is not None and driver.info.transaction_status == TransactionStatus.IDLE
    assert _count(engine) == 0
