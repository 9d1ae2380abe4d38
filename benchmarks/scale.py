"""`python -m benchmarks.scale [--quick]`: many tables, many phones, 1, 2 and 4 app servers.

Each round starts N app servers (gunicorn, the project's config: one gevent worker each) on one
fresh PostgreSQL database — what `make serve-cluster` runs, LISTEN/NOTIFY between servers — opens
`phones` live streams (SSE) on every table plus one crowded table of `spectators`, spread over the
servers round-robin, and records one change per table every `interval` seconds from a pool of
writers. Measured in a steady window: appends per second, change-to-phone latency (the entry's
server timestamp against the time the phone read it; same machine, same clock), the app servers'
CPU per delivered message (/proc) and the benchmark client's own CPU. Then one server is killed
(SIGKILL, master and worker) and its phones reconnect to another with Last-Event-ID; at the end
every phone must hold every version of its table exactly once. Figures are ratios against the
1-server round of the same run: the machine is small and shared.

The phones are a bare asyncio HTTP/1.1 client (chunked SSE, no library): one Python process must
hold thousands of streams without becoming the bottleneck on two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import random
import secrets
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from api.db.migrate import upgrade
from benchmarks.load.clients import PLAYERS
from benchmarks.load.cpu import group_cpu_seconds
from benchmarks.load.server import NO_LIMITS
from devtools.gunicorn import GunicornProcess

PG_ADMIN = "postgresql+psycopg://root@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Shape:
    tables: int
    phones: int
    spectators: int
    interval: float  # seconds between two changes on one table
    warmup: float
    window: float  # the steady window the figures come from
    after_kill: float  # run on after the kill, then let the phones catch up
    stream: str = "table"  # what the phones ask for: whole tables, patches, or the log alone


# Scaled down from the 500 tables × 5 phones (a first run at 500 tables, a change every 5 s,
# overloaded one server on this shared 2-core machine: docs/measurements.md, "Many tables").
FULL = Shape(tables=100, phones=5, spectators=1000, interval=3.0, warmup=8, window=20, after_kill=10)
QUICK = Shape(tables=10, phones=5, spectators=50, interval=2.0, warmup=4, window=8, after_kill=6)


@dataclass
class Table:
    id: str
    token: str
    version: int = 0
    appended_at: dict[int, float] = field(default_factory=dict)


@dataclass
class Phone:
    table: Table
    server: int
    seen: list[int] = field(default_factory=list)
    last: int | None = None
    start: int | None = None  # the version of its first event: it must see every one after it
    reconnects: int = 0
    moved: bool = False  # its server was killed and it resumed on another


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.delivered = 0
        self.appends = 0
        self.retried = 0
        self.refused: dict[str, int] = {}  # answers other than 201, by status
        self.counting = False

    def deliver(self, entries: list[dict[str, Any]], now: float) -> None:
        if not self.counting:
            return
        self.delivered += 1
        for entry in entries:
            at = datetime.fromisoformat(entry["at"]).timestamp()
            self.latencies.append(now - at)


class Cluster:
    def __init__(self, database: str, count: int, logs: Path) -> None:
        env = {**NO_LIMITS, "RATELIMIT_STORAGE_URI": REDIS, "KIBITZ_CONNECTIONS": "10000"}
        self.servers = [
            GunicornProcess(
                database,
                logs / f"scale-{count}-{n}.log",
                env=env,
                extra_args=("--access-logfile", "/dev/null"),
            )
            for n in range(count)
        ]
        self.alive = [True] * count

    def start(self) -> None:
        for server in self.servers:
            server.start()

    def stop(self) -> None:
        for server in self.servers:
            server.kill9()

    def live(self, preferred: int) -> int:
        """`preferred` if it runs, else the next server that does (what a load balancer does)."""
        for step in range(len(self.servers)):
            n = (preferred + step) % len(self.servers)
            if self.alive[n]:
                return n
        raise RuntimeError("no server left")

    def cpu(self) -> float:
        return sum(
            group_cpu_seconds(s.process.pid)
            for s, up in zip(self.servers, self.alive, strict=True)
            if up and s.process is not None
        )

    def address(self, n: int) -> tuple[str, int]:
        return "127.0.0.1", self.servers[n].port


async def request(
    host: str, port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """One HTTP/1.1 request on a connection of its own; the JSON answer."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        data = json.dumps(body).encode() if body is not None else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Connection: close",
            "Content-Type: application/json",
            f"Content-Length: {len(data)}",
        ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        rest = _unchunk(rest)
    return status, json.loads(rest) if rest else None


def _unchunk(raw: bytes) -> bytes:
    out, pos = bytearray(), 0
    while True:
        end = raw.index(b"\r\n", pos)
        size = int(raw[pos:end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += raw[end + 2 : end + 2 + size]
        pos = end + 4 + size


# `log`: what a phone whose own referee holds the table asks for (issue 36: the entries alone).
STREAM_QUERY = {"table": "", "patches": "?patches=true", "log": "?view=log"}


async def phone(cluster: Cluster, p: Phone, stats: Stats, stop: asyncio.Event, stream: str = "table") -> None:
    """A live stream, resumed with Last-Event-ID after every cut (on another server if its own died)."""
    while not stop.is_set():
        n = cluster.live(p.server)
        if n != p.server:
            p.server, p.moved = n, True
        host, port = cluster.address(n)
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.2)
            continue
        resume = f"Last-Event-ID: {p.last}\r\n" if p.last is not None else ""
        writer.write(
            f"GET /api/tables/{p.table.id}/stream{STREAM_QUERY[stream]} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Accept: text/event-stream\r\n{resume}\r\n".encode()
        )
        try:
            await _read_stream(reader, p, stats, stop)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()
        if not stop.is_set():
            p.reconnects += 1
            await asyncio.sleep(random.uniform(0.05, 0.5))  # the server's `retry`, spread


async def _read_stream(reader: asyncio.StreamReader, p: Phone, stats: Stats, stop: asyncio.Event) -> None:
    status = await reader.readline()
    if b" 200 " not in status:
        raise ValueError(status)
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    pending = b""
    while not stop.is_set():
        size = int((await reader.readline()).split(b";")[0], 16)
        if size == 0:
            return
        pending += await reader.readexactly(size + 2)
        pending = pending[:-2]
        *events, pending = pending.split(b"\n\n")
        now = time.time()
        for event in events:
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    message = json.loads(line[6:])
                    entries = message["entries"]
                    p.seen.extend(e["seq"] for e in entries)
                    if p.start is None:
                        p.start = message["version"] - len(entries)
                    p.last = message["version"]
                    if entries:
                        stats.deliver(entries, now)


async def writer(
    cluster: Cluster, tables: list[Table], first: int, stats: Stats, shape: Shape, stop: asyncio.Event
) -> None:
    """One table's changes, one every `interval` seconds (a die, then its undo: the game never ends)."""
    table = tables[first]
    await asyncio.sleep(random.uniform(0, shape.interval))
    while not stop.is_set():
        started = time.monotonic()
        v = table.version
        event = (
            {"type": "reveal_card", "value": 3}
            if v == 0
            else ({"type": "die", "value": 2} if v % 2 else {"type": "undo"})
        )
        body = {"expected_version": v, "event": event}
        headers = {"Authorization": f"Bearer {table.token}", "Idempotency-Key": str(uuid.uuid4())}
        for attempt in range(5):  # same key on another server: a lost answer is not a second change
            host, port = cluster.address(cluster.live(first + attempt))
            try:
                status, answer = await request(
                    host, port, "POST", f"/api/tables/{table.id}/events", body, headers
                )
            except (OSError, ValueError, IndexError):
                stats.retried += 1  # no answer (a killed server, a full backlog): again, same key
                await asyncio.sleep(0.2)
                continue
            if status in (200, 201):
                table.version = answer["table"]["version"]
                if stats.counting:
                    stats.appends += 1
            else:
                key = f"{status} {answer.get('code') if isinstance(answer, dict) else ''}"
                stats.refused[key] = stats.refused.get(key, 0) + 1
                if status == 409 and isinstance(answer, dict) and "table" in answer:
                    table.version = answer["table"]["version"]
            break
        await asyncio.sleep(max(0.0, shape.interval - (time.monotonic() - started)))


async def round_(cluster: Cluster, shape: Shape, kill: bool) -> dict[str, Any]:
    count = len(cluster.servers)
    tables: list[Table] = []
    for t in range(shape.tables + 1):
        host, port = cluster.address(t % count)
        status, made = await request(host, port, "POST", "/api/tables", {"game": "mahe", "players": PLAYERS})
        assert status == 201, made
        tables.append(Table(made["id"], made["write_token"]))
    crowd = tables[-1]
    phones = [Phone(t, 0) for t in tables[:-1] for _ in range(shape.phones)]
    phones += [Phone(crowd, 0) for _ in range(shape.spectators)]
    for i, p in enumerate(phones):
        p.server = i % count
    stats, stop = Stats(), asyncio.Event()
    tasks = [asyncio.create_task(phone(cluster, p, stats, stop, shape.stream)) for p in phones]
    opened = time.monotonic()
    while any(p.start is None for p in phones) and time.monotonic() - opened < 60:
        await asyncio.sleep(0.5)  # every stream open before the first change
    open_s = time.monotonic() - opened
    writers = [
        asyncio.create_task(writer(cluster, tables, i, stats, shape, stop)) for i in range(len(tables))
    ]
    await asyncio.sleep(shape.warmup)
    stats.counting = True
    cpu, client_cpu, clock = cluster.cpu(), time.process_time(), time.monotonic()
    await asyncio.sleep(shape.window)
    cpu, client_cpu = cluster.cpu() - cpu, time.process_time() - client_cpu
    clock = time.monotonic() - clock
    stats.counting = False
    window_latencies, delivered, appends = sorted(stats.latencies), stats.delivered, stats.appends
    killed = None
    if kill and count > 1:
        killed = count - 1
        cluster.alive[killed] = False
        cluster.servers[killed].kill9()
        await asyncio.sleep(shape.after_kill)
    for w in writers:
        w.cancel()
    await asyncio.gather(*writers, return_exceptions=True)
    drained = time.monotonic()
    while any(p.last is None or p.last < p.table.version for p in phones) and time.monotonic() - drained < 30:
        await asyncio.sleep(0.2)  # the last changes reach every phone (or 30 s pass: then they missed)
    drain_s = time.monotonic() - drained
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    missed = doubled = 0
    for p in phones:
        expected = set(range((p.start or 0) + 1, p.table.version + 1))
        missed += len(expected - set(p.seen))
        doubled += len(p.seen) - len(set(p.seen))
    n = len(window_latencies)
    return {
        "servers": count,
        "tables": shape.tables,
        "phones_per_table": shape.phones,
        "spectators": shape.spectators,
        "streams": len(phones),
        "interval_s": shape.interval,
        "stream": shape.stream,
        "streams_open_s": round(open_s, 1),
        "window_s": round(clock, 1),
        "target_appends_per_s": round((shape.tables + 1) / shape.interval, 1),
        "appends_per_s": round(appends / clock, 1),
        "append_refusals": stats.refused,
        "append_retries": stats.retried,
        "delivered_per_s": round(delivered / clock, 1),
        "p50_ms": round(window_latencies[n // 2] * 1e3, 1) if n else None,
        "p99_ms": round(window_latencies[min(n - 1, int(n * 0.99))] * 1e3, 1) if n else None,
        "server_cpu_per_message_us": round(cpu / delivered * 1e6, 1) if delivered else None,
        "server_cpu_cores": round(cpu / clock, 2),
        "client_cpu_cores": round(client_cpu / clock, 2),
        "killed_server": killed,
        "phones_moved": sum(p.moved for p in phones),
        "reconnects": sum(p.reconnects for p in phones),
        "drain_s": round(drain_s, 1),
        "missed_changes": missed,
        "doubled_changes": doubled,
        "changes_total": sum(t.version for t in tables),
    }


def fresh_database() -> tuple[str, sa.Engine]:
    name = f"kibitz_scale_{secrets.token_hex(3)}"
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    upgrade(url)
    return url, admin


def one(count: int, shape: Shape, tmp: Path) -> dict[str, Any]:
    """One round of `count` servers on a database of its own."""
    url, admin = fresh_database()
    cluster = Cluster(url, count, tmp)
    try:
        cluster.start()
        return asyncio.run(round_(cluster, shape, kill=True))
    finally:
        cluster.stop()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        admin.dispose()


RATIOS = ("appends_per_s", "delivered_per_s", "p99_ms", "server_cpu_per_message_us")


def run(counts: list[int], shape: Shape, label: str, rounds: int) -> list[dict[str, Any]]:
    """`rounds` rounds; in each, every server count once (the order turning round by round, so that
    drift on the shared machine does not always hit the same count), ratios against that round's
    1-server figures."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            order = counts[r % len(counts) :] + counts[: r % len(counts)]
            by_count = {}
            for count in order:
                result = {"round": r + 1, "shape": label, **one(count, shape, Path(tmp))}
                by_count[count] = result
                print(json.dumps(result), flush=True)
            base = by_count.get(1)
            for count in counts:
                result = by_count[count]
                if base is not None and count != 1:
                    result["vs_1_server"] = {
                        key: round(result[key] / base[key], 2) if base[key] and result[key] else None
                        for key in RATIOS
                    }
                results.append(result)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--servers", default="1,2,4")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="append the rounds as JSON lines here")
    parser.add_argument("--tables", type=int, help="tables of `--phones` phones (the issue's shape: 500)")
    parser.add_argument("--phones", type=int)
    parser.add_argument("--spectators", type=int)
    parser.add_argument("--interval", type=float, help="seconds between two changes on one table")
    parser.add_argument("--stream", choices=sorted(STREAM_QUERY), default="table")
    args = parser.parse_args()
    shape, label = (QUICK, "quick") if args.quick else (FULL, "full")
    given = {k: getattr(args, k) for k in ("tables", "phones", "spectators", "interval") if getattr(args, k)}
    shape = dataclasses.replace(shape, stream=args.stream, **given)
    if given:
        label = "custom"
    results = run([int(c) for c in args.servers.split(",")], shape, label, args.rounds)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    out = args.out or ROOT / "docs" / f"scale-runs-{stamp[:10]}.jsonl"
    with out.open("a") as f:
        for result in results:
            f.write(json.dumps({"at": stamp, **result}) + "\n")
    print(f"rounds written to {out}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
