"""`python -m benchmarks.phones [--phones 100,1000,2000] [--tables 50] [--changes 40]`

N phones connected to one real gunicorn (the project's config) on this 2-core machine, each
following one of the tables, while the tables change: with live streams (GET …/stream) and, in the
same run, with today's 1-second conditional polling. For each N it reports the change-to-phone
latency (from the moment an append is sent until a phone has the new version) p50/p99, and the
server's CPU while the phones sit idle and while tables change. Phones are asyncio connections from
this process, so thousands fit; figures are ratios in one run — the machine is small and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from benchmarks.load.server import gunicorn

PLAYERS = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def server_cpu_seconds(port: int) -> float:
    """CPU seconds used so far by every gunicorn process serving `port` (master and workers)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            if b"gunicorn" not in cmdline or f"KIBITZ_BIND=127.0.0.1:{port}".encode() not in environ:
                continue
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (FileNotFoundError, PermissionError, ProcessLookupError):
            continue
    return total / CLOCK_TICKS


class Phone:
    """One phone's view of one table: the newest version it has seen and when it saw each."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.version = -1
        self.seen_at: dict[int, float] = {}
        self.ready = asyncio.Event()

    def saw(self, version: int) -> None:
        if version > self.version:
            for v in range(self.version + 1, version + 1):
                self.seen_at.setdefault(v, time.monotonic())
            self.version = version
        self.ready.set()


async def stream_phone(port: int, phone: Phone) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    request = f"GET /api/tables/{phone.table_id}/stream HTTP/1.1\r\nHost: bench\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                phone.saw(int(line[4:]))
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def polling_phone(port: int, phone: Phone, stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    etag = ""
    await asyncio.sleep(random.random())  # phones are not in step
    try:
        while not stop.is_set():
            head = f"If-None-Match: {etag}\r\n" if etag else ""
            writer.write(f"GET /api/tables/{phone.table_id} HTTP/1.1\r\nHost: bench\r\n{head}\r\n".encode())
            await writer.drain()
            status = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "etag":
                    etag = value.strip()
            if length:
                body = await reader.readexactly(length)
                if status.split()[1] == b"200":
                    phone.saw(int(json.loads(body)["version"]))
            else:
                phone.ready.set()
            await asyncio.sleep(1.0)
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def scenario(
    base: str, port: int, tables: list[dict[str, Any]], phones: int, mode: str, changes: int
) -> dict[str, Any]:
    crowd = [Phone(tables[i % len(tables)]["id"]) for i in range(phones)]
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(stream_phone(port, p) if mode == "stream" else polling_phone(port, p, stop))
        for p in crowd
    ]
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in crowd)), timeout=120)
    await asyncio.sleep(1.0)
    idle_start, idle_clock = server_cpu_seconds(port), time.monotonic()
    await asyncio.sleep(5.0)
    idle_cpu = (server_cpu_seconds(port) - idle_start) / (time.monotonic() - idle_clock)

    latencies: list[float] = []
    busy_start, busy_clock = server_cpu_seconds(port), time.monotonic()
    loop = asyncio.get_running_loop()
    for n in range(changes):
        table = tables[n % len(tables)]
        sent = time.monotonic()
        version = await loop.run_in_executor(None, append, base, table)
        followers = [p for p in crowd if p.table_id == table["id"]]
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and any(version not in p.seen_at for p in followers):
            await asyncio.sleep(0.005)
        latencies += [(p.seen_at.get(version, float("inf")) - sent) * 1000 for p in followers]
        await asyncio.sleep(0.1)
    busy_cpu = (server_cpu_seconds(port) - busy_start) / (time.monotonic() - busy_clock)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    held = sum(1 for p in crowd if p.ready.is_set())
    return {
        "mode": mode,
        "phones": phones,
        "held": held,
        "latency_p50_ms": round(percentile(latencies, 0.5), 1),
        "latency_p99_ms": round(percentile(latencies, 0.99), 1),
        "missed": sum(1 for x in latencies if x == float("inf")),
        "cpu_idle_cores": round(idle_cpu, 3),
        "cpu_changing_cores": round(busy_cpu, 3),
    }


def append(base: str, table: dict[str, Any]) -> int:
    version = table["version"]
    event = {"type": "reveal_card", "value": 3} if table["awaiting"] else {"type": "die", "value": 1}
    answer = requests.post(
        f"{base}/api/tables/{table['id']}/events",
        json={"expected_version": version, "event": event},
        headers={"Authorization": f"Bearer {table['token']}"},
        timeout=10,
    )
    answer.raise_for_status()
    body = answer.json()
    table["version"] = body["table"]["version"]
    phase = body["table"]["legal_actions"]["phase"]
    table["awaiting"] = phase == "reveal_card"
    if phase == "decide":  # keep the game simple: stop after one die
        requests.post(
            f"{base}/api/tables/{table['id']}/events",
            json={"expected_version": table["version"], "event": {"type": "stop"}},
            headers={"Authorization": f"Bearer {table['token']}"},
            timeout=10,
        ).raise_for_status()
        table["version"] += 1
        return int(table["version"] - 1)
    return int(table["version"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", default="100,1000,2000")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--changes", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'phones.sqlite3'}"
        with gunicorn(url, Path(tmp) / "gunicorn.log") as base:
            port = int(base.rsplit(":", 1)[1])
            tables = []
            for _ in range(args.tables):
                body = {"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
                created = requests.post(f"{base}/api/tables", json=body, timeout=10).json()
                tables.append(
                    {"id": created["id"], "token": created["write_token"], "version": 0, "awaiting": True}
                )
            for phones in [int(n) for n in args.phones.split(",")]:
                for mode in ("stream", "poll"):
                    report = asyncio.run(scenario(base, port, tables, phones, mode, args.changes))
                    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
