"""What durable SQLite commits cost: appends per second with synchronous=FULL (what Kibitz runs, an
acknowledged append survives a power loss) against synchronous=NORMAL (WAL's default, which may lose
the last commits on power loss), in the same run on the same disk.

`python -m benchmarks.durability` prints both rates and the ratio.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

from api.db.engine import make_engine
from api.db.migrate import upgrade
from api.tables.store import TableStore

FOUR = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]
APPENDS = 400


def appends_per_second(synchronous: str) -> float:
    folder = Path(tempfile.mkdtemp(prefix="kibitz-durability-"))
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    upgrade(url)
    engine = make_engine(url)

    @event.listens_for(engine, "connect")
    def _mode(dbapi_connection: object, _record: object) -> None:
        dbapi_connection.execute(f"PRAGMA synchronous={synchronous}")  # type: ignore[attr-defined]

    store = TableStore(engine)
    table, token, _ = store.create("mahe", FOUR, {"chance": "physical"})
    with engine.connect() as conn:
        assert (
            conn.execute(sa.text("PRAGMA synchronous")).scalar_one() == {"FULL": 2, "NORMAL": 1}[synchronous]
        )
    started = time.perf_counter()
    version = 0
    for n in range(APPENDS):
        event_ = {"type": "reveal_card", "value": 1 + n % 6} if n % 2 == 0 else {"type": "undo"}
        version = store.append(table.id, token, version, event_).seq
    return APPENDS / (time.perf_counter() - started)


def main() -> None:
    normal, full = appends_per_second("NORMAL"), appends_per_second("FULL")
    print(f"appends/s: synchronous=NORMAL {normal:.0f}, FULL {full:.0f}; FULL/NORMAL = {full / normal:.2f}")


if __name__ == "__main__":
    main()
