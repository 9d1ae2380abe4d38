"""Concurrent clients: a realistic table mix, and a trivial request as the baseline."""

from __future__ import annotations

import random
import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

PLAYERS = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "yellow"), ("C", "green"), ("D", "black"))
]
HANDS = [
    {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"},
    {"groups": ["b3 jk=b4 b5"], "hidden": "c5 c5 c5 we we we dr dr jk k2 k2", "flowers": "f1"},
    {"hidden": "b2 b3 b4 c2 c3 c4 k2 k3 k4 b7 b8 b9 c8 c8"},
]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def summary(self, duration: float) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {
            "requests": len(ordered),
            "throughput": len(ordered) / duration,
            "p50_ms": statistics.median(ordered) * 1e3,
            "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3,
            "statuses": dict(sorted(self.statuses.items())),
        }


def timed(tally: Tally, session: requests.Session, method: str, url: str, **kwargs: Any) -> requests.Response:
    start = time.perf_counter()
    response = session.request(method, url, timeout=10, **kwargs)
    tally.add(time.perf_counter() - start, response.status_code)
    return response


def pick_event(table: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    action = rng.choice(table["legal_actions"]["actions"])
    if action["type"] in ("reveal_card", "die"):
        return {"type": action["type"], "value": rng.randint(1, 6)}
    if action["type"] == "choose_turtle":
        return {"type": "choose_turtle", "turtle": rng.choice(action["turtles"])}
    if action["type"] == "play_card":
        return {"type": "play_card", "value": rng.choice(action["cards"])}
    return {"type": action["type"]}


def new_table(session: requests.Session, base: str) -> tuple[str, str, dict[str, Any]]:
    created = session.post(f"{base}/api/tables", json={"game": "mahe", "players": PLAYERS}, timeout=10).json()
    return created["id"], created["write_token"], created["table"]


def mix_client(base: str, until: float, tally: Tally, seed: int) -> None:
    """One phone at a table: mostly polling, sometimes recording, now and then scoring a hand."""
    rng = random.Random(seed)
    session = requests.Session()
    table_id, token, table = new_table(session, base)
    etag = None
    while time.perf_counter() < until:
        roll = rng.random()
        if roll < 0.70:
            headers = {"If-None-Match": etag} if etag and rng.random() < 0.5 else {}
            response = timed(tally, session, "GET", f"{base}/api/tables/{table_id}", headers=headers)
            if response.status_code == 200:
                table, etag = response.json(), response.headers.get("ETag")
        elif roll < 0.90:
            if table["finished"]:
                table_id, token, table = new_table(session, base)
                continue
            body = {"expected_version": table["version"], "event": pick_event(table, rng)}
            headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}
            response = timed(
                tally, session, "POST", f"{base}/api/tables/{table_id}/events", json=body, headers=headers
            )
            if response.status_code in (201, 409):
                table = response.json()["table"]
        else:
            timed(tally, session, "POST", f"{base}/api/mhing/score", json=rng.choice(HANDS))


def trivial_client(base: str, until: float, tally: Tally, seed: int) -> None:
    session = requests.Session()
    while time.perf_counter() < until:
        timed(tally, session, "GET", f"{base}/api/health")


def run(client: Any, base: str, clients: int, seconds: float) -> dict[str, Any]:
    tally = Tally()
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=client, args=(base, until, tally, i)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally.summary(time.perf_counter() - start)


def table_with_log(session: requests.Session, base: str, entries: int) -> str:
    """A table whose log has `entries` entries (a die and its undo, again and again)."""
    table_id, token, _ = new_table(session, base)
    headers = {"Authorization": f"Bearer {token}"}
    first = {"expected_version": 0, "event": {"type": "reveal_card", "value": 3}}
    session.post(f"{base}/api/tables/{table_id}/events", json=first, headers=headers, timeout=10)
    for version in range(1, entries):
        event = {"type": "die", "value": 2} if version % 2 else {"type": "undo"}
        body = {"expected_version": version, "event": event}
        session.post(f"{base}/api/tables/{table_id}/events", json=body, headers=headers, timeout=10)
    return table_id


def read_cost(base: str, rounds: int = 300) -> dict[str, float]:
    """GET on a table with 5,000 log entries against one with 20, over HTTP, sampled alternately
    so that drift on the machine hits both alike (medians)."""
    session = requests.Session()
    short = table_with_log(session, base, 20)
    long = table_with_log(session, base, 5000)
    samples: dict[str, list[float]] = {short: [], long: []}
    for _ in range(rounds):
        for table_id in (short, long):
            start = time.perf_counter()
            session.get(f"{base}/api/tables/{table_id}", timeout=10)
            samples[table_id].append(time.perf_counter() - start)
    p50_short, p50_long = statistics.median(samples[short]), statistics.median(samples[long])
    return {"p50_20_ms": p50_short * 1e3, "p50_5000_ms": p50_long * 1e3, "ratio": p50_long / p50_short}
