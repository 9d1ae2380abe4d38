"""Group reads cost the same at 10, 100 and 1,000 tables; hostile resumes do not hold the server.

Part 1 (in process, SQLite, the WSGI client): groups of 10, 100 and 1,000 finished Mhing tables,
filed through the stores (tests/api/group_builder.py), not played over HTTP. Per call: statistics,
head-to-head, the group, a page (10 tables: what the smallest group holds) of the history, of the
JSON export (with the records) and of the CSV. The three sizes are timed in alternate batches, so
load from anything else on the machine falls on all alike; the ratios 100/10 and 1,000/10 are
the result (flat: ~1).

Part 2 (a real gunicorn, the `make serve` configuration, on the same SQLite file): a group of 300
finished tables; 5 clients resume its stream over and over with hostile ids (`0`, which makes all 300
tables news, and `999999a` to the 4,096-character limit, ~585 million abandoned tables), then 2 clients
loop on its JSON export, while another address reads `/api/health`: its p50 and p99 are the result
(issue 31: under 100 ms p99; it was 30 s and a killed worker).

Run: `python -m benchmarks.group_reads` (about 5 minutes; `--quick` for 10/100/300 and a 100-table
group under gunicorn; `--gunicorn-only` for part 2 alone, `--in-process-only` for part 1 alone).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from api.app import create_app
from api.db.migrate import upgrade
from devtools.gunicorn import GunicornProcess
from tests.api.group_builder import file_finished, new_group, stores
from tests.hostile.clients import session_from

HOSTILE_ID = "999999a" * (4096 // 7)


def build(app: Any, tables: int) -> tuple[str, list[str]]:
    """A group of 6 players and `tables` finished 4-seat Mhing tables (MH-8 rounds, MH-9 end)."""
    _tables, groups = stores(app)
    gid, token, players = new_group(groups, 6)
    for i in range(tables):
        seats = [players[(i + k) % 6] for k in range(4)]
        file_finished(groups, gid, token, seats, [(i % 4, 2 ** (1 + i % 5)), ((i + 1) % 4, 4)])
    return gid, players


def per_call(call: Callable[[], Any], batch: int = 10) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        call()
    return (time.perf_counter() - start) / batch


def in_process(sizes: list[int], rounds: int) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        app = create_app(url)
        client = app.test_client()
        built = {}
        for size in sizes:
            started = time.perf_counter()
            built[size] = build(app, size)
            lines.append(f"built {size} tables in {time.perf_counter() - started:.1f} s")

        def reads(size: int) -> dict[str, Callable[[], Any]]:
            gid, players = built[size]
            base = f"/api/groups/{gid}"

            def ok(path: str) -> Callable[[], Any]:
                def call() -> None:
                    response = client.get(path)
                    assert response.status_code == 200, (path, response.status_code)

                return call

            return {
                "statistics": ok(f"{base}/stats"),
                "head-to-head": ok(f"{base}/head-to-head?a={players[0]}&b={players[1]}"),
                "group": ok(base),
                "history page (10)": ok(f"{base}/history?limit=10"),
                "export page (10)": ok(f"{base}/export?limit=10"),
                "CSV page (10)": ok(f"{base}/export.csv?limit=10"),
                # Issue 33, item 9: a player's page walks that player's kept results (O(their
                # tables), no replay); a date window's statistics recount the window's kept results.
                "player page": ok(f"{base}/players/{players[0]}"),
                "statistics, date window": ok(f"{base}/stats?from=2000-01-01"),
                "history page (10), date window": ok(f"{base}/history?limit=10&from=2000-01-01"),
            }

        calls = {size: reads(size) for size in sizes}
        for size in sizes:  # warm up
            for call in calls[size].values():
                call()
        samples: dict[tuple[str, int], list[float]] = {}
        for _ in range(rounds):
            for name in calls[sizes[0]]:
                for size in sizes:  # alternate: the sizes share the machine's moods
                    samples.setdefault((name, size), []).append(per_call(calls[size][name], 5))
        for name in calls[sizes[0]]:
            base = statistics.median(samples[(name, sizes[0])])
            cells = [f"{size}: {statistics.median(samples[(name, size)]) * 1e3:.2f} ms" for size in sizes]
            ratios = [
                f"{size}/{sizes[0]} = {statistics.median(samples[(name, size)]) / base:.2f}"
                for size in sizes[1:]
            ]
            lines.append(f"{name}: " + ", ".join(cells) + "; ratio " + ", ".join(ratios))
    return lines


def _stream_resumes(base: str, group_id: str, last: str, stop: float, counts: list[int], owed: int) -> None:
    """Resume the group's stream with `last` until `stop`: read the `owed` events, drop it, again."""
    session = requests.Session()
    while time.monotonic() < stop:
        try:
            with session.get(
                f"{base}/api/groups/{group_id}/stream",
                headers={"Last-Event-ID": last},
                stream=True,
                timeout=(5, 60),
            ) as response:
                if response.status_code != 200:
                    time.sleep(0.1)
                    continue
                events = 0
                for line in response.iter_lines():
                    if line.startswith(b"event: "):
                        events += 1
                    if line.startswith(b": heartbeat") or events >= owed:
                        break
                counts.append(events)
        except requests.RequestException:
            time.sleep(0.1)


def _export_loop(base: str, group_id: str, stop: float, counts: list[int]) -> None:
    session = requests.Session()
    path = f"/api/groups/{group_id}/export"
    while time.monotonic() < stop:
        response = session.get(f"{base}{path}", timeout=60)
        counts.append(response.status_code)
        link = response.headers.get("Link")
        path = link[1 : link.index(">")] if link else f"/api/groups/{group_id}/export"


def _health(base: str, stop: float) -> list[float]:
    other = session_from("127.0.0.2")
    times = []
    while time.monotonic() < stop:
        started = time.perf_counter()
        assert other.get(f"{base}/api/health", timeout=60).status_code == 200
        times.append(time.perf_counter() - started)
        time.sleep(0.02)
    return times


def _pct(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def under_gunicorn(tables: int, seconds: float) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        gid, _players = build(create_app(url), tables)
        with GunicornProcess(url, Path(tmp) / "gunicorn.log", env={"KIBITZ_STREAM_HEARTBEAT": "5"}) as server:
            idle = _health(server.base, time.monotonic() + 3)
            lines.append(
                f"health, idle: p50 {_pct(idle, 0.5) * 1e3:.1f} ms, p99 {_pct(idle, 0.99) * 1e3:.1f} ms"
            )
            for label, start_clients in (
                ("5 hostile resumes (3 × `0`, 2 × `999999a`…4,096 chars)", "resume"),
                ("2 clients looping the JSON export", "export"),
            ):
                stop = time.monotonic() + seconds
                counts: list[int] = []
                threads = []
                if start_clients == "resume":
                    for i in range(5):
                        last = "0" if i < 3 else HOSTILE_ID
                        args = (server.base, gid, last, stop, counts, tables)
                        threads.append(threading.Thread(target=_stream_resumes, args=args))
                else:
                    for _ in range(2):
                        threads.append(
                            threading.Thread(target=_export_loop, args=(server.base, gid, stop, counts))
                        )
                for thread in threads:
                    thread.start()
                time.sleep(0.5)
                health = _health(server.base, stop)
                for thread in threads:
                    thread.join(120)
                done = (
                    f"{len(counts)} resumes, {sum(counts)} events"
                    if start_clients == "resume"
                    else f"{len(counts)} export pages"
                )
                lines.append(
                    f"{tables} tables, {label}: {done} in {seconds:.0f} s; another client's health "
                    f"p50 {_pct(health, 0.5) * 1e3:.1f} ms, p99 {_pct(health, 0.99) * 1e3:.1f} ms "
                    f"({len(health)} requests)"
                )
    return lines


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = [10, 100, 300] if quick else [10, 100, 1000]
    if "--in-process-only" in sys.argv:
        for line in in_process(sizes, 5 if quick else 9):
            print(line, flush=True)
        return
    if "--gunicorn-only" not in sys.argv:
        for line in in_process(sizes, 5 if quick else 9):
            print(line, flush=True)
    for line in under_gunicorn(100 if quick else 300, 10 if quick else 20):
        print(line, flush=True)


if __name__ == "__main__":
    main()
