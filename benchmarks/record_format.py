"""What issue 35's record format and conditional reads cost, as ratios within one run.

1. Signing bytes: RFC 8785 (`jcs`, what a kibitz-record/3 signature signs) against the former
   `canonical` (format 2) of the same record: a long Mhing game (200 scored hands) and a short one.
2. A polled group history page answered 304 (If-None-Match) against the same page answered 200:
   server time and bytes on the wire (the ETag is taken over the answer, so the page is still
   rendered: the saving is the transfer, not the work).
Paired batches, alternately, so other load on the machine weighs on both alike. Run:
`python -m benchmarks.record_format`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from api.app import create_app
from api.db.migrate import upgrade
from api.tables.chain import canonical, jcs
from benchmarks.head_check import paired
from tests.api.group_builder import end, file_finished, mhing_table, new_group, stores


def finished_record(client: Any, rounds: int) -> tuple[str, dict[str, Any]]:
    """A finished Mhing game of `rounds` scored rounds (2 points each), exported."""
    tables, _ = stores(client.application)
    table_id, token, version = mhing_table(tables, [(n, 2) for n in range(rounds)], seats=4)
    end(tables, table_id, token, version)
    answer = client.get(f"/api/tables/{table_id}/export")
    assert answer.status_code == 200, answer.get_json()
    return table_id, answer.get_json()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        upgrade(url)
        app = create_app(url, KIBITZ_CREATE_LIMIT="100000 per minute")
        client = app.test_client()
        print("1. signing bytes, jcs (format 3) / canonical (format 2), same record")
        for rounds in (5, 200):
            _, record = finished_record(client, rounds)
            size = len(canonical(record))
            t3, t2, ratio = paired(lambda r=record: jcs(r), lambda r=record: canonical(r), rounds=11)  # type: ignore[misc]
            times = f"{t3 * 1e6:8.0f} µs / {t2 * 1e6:8.0f} µs"
            print(f"   {rounds:>3} rounds, {size:>7} bytes: {times}  ratio {ratio:.2f}")

        print("2. group history page: 304 / 200")
        tables, groups = stores(app)
        group_id, token, players = new_group(groups, 4)
        for number in range(50):
            file_finished(groups, group_id, token, players[:2], [(number % 2, 64)])
        page = f"/api/groups/{group_id}/history?limit=50"
        full = client.get(page)
        etag = full.headers["ETag"]
        t304, t200, ratio = paired(
            lambda: client.get(page, headers={"If-None-Match": etag}), lambda: client.get(page), rounds=11
        )
        unchanged = client.get(page, headers={"If-None-Match": etag})
        print(f"   time {t304 * 1e3:.2f} ms / {t200 * 1e3:.2f} ms  ratio {ratio:.2f}")
        print(f"   bytes {len(unchanged.get_data())} / {len(full.get_data())}")


if __name__ == "__main__":
    main()
