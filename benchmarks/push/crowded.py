"""`python -m benchmarks.push.crowded [--streams 500,2000] [--appends 200] [--rounds 3] [--on-disk]`

The crowded table: appends made back to back (each sent the moment the one before was answered)
on a table that N live streams follow (`?patches=true`, as the phone asks), against the same appends
with no stream open, each round right after its own baseline on the same server. The goal (issue
36): p50 and p99 with 500 and 2,000 streams ≤ 1.5× none. The server is pinned to one core; the
phones (one node process) and the appender (another, so its round trips never wait behind the
phones' event loop) to the other, all at the same raised priority; SQLite on /dev/shm unless
`--on-disk`, so the disk's fsync tail does not hide what the streams cost. Every phone must end at
the last version. Figures are ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import requests

from devtools.gunicorn import ROOT

HERE = Path(__file__).resolve().parent
PHONES_CORE = 1  # as benchmarks.push: the server on core 0, the clients on core 1
PRIORITY = -10


def raise_priority(pgid: int) -> None:
    """The clients at the server's raised priority (nice −10, when allowed)."""
    with suppress(PermissionError, ProcessLookupError):
        os.setpriority(os.PRIO_PGRP, pgid, PRIORITY)


GOAL = 1.5
PLAYERS = [{"name": f"P{i}", "colours": [c]} for i, c in enumerate(["red", "green", "yellow", "purple"])]


def ratio(a: float | None, b: float | None) -> float | None:
    return None if not a or not b else round(a / b, 2)


def node(*args: str, log: Path) -> subprocess.Popen[str]:
    with log.open("ab") as errors:
        process = subprocess.Popen(
            ["taskset", "-c", str(PHONES_CORE), "node", str(HERE / "phones.js"), *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            start_new_session=True,
        )
    raise_priority(process.pid)
    return process


def appends_on(base: str, streams: int, appends: int, log: Path) -> dict[str, Any]:
    """A new table, `streams` phones following it, `appends` appends back to back."""
    created = requests.post(
        f"{base}/api/tables",
        json={"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}},
        timeout=30,
    ).json()
    phones = None
    if streams:
        phones = node("follow", base, str(streams), created["id"], log=log)
        assert phones.stdout is not None
        ready = json.loads(phones.stdout.readline() or "{}")
        if ready.get("held") != streams:
            phones.kill()
            return {"failed": f"phones held {ready}"}
    appender = node("append", base, created["id"], created["write_token"], str(appends), log=log)
    out, _ = appender.communicate(timeout=600)
    result = json.loads(out.strip().splitlines()[-1])
    if phones is not None:
        time.sleep(2)  # the last changes reach every phone
        out, _ = phones.communicate("", timeout=60)
        seen = json.loads(out.strip().splitlines()[-1])
        result["bytes_per_message"] = round(seen["bytes"] / max(seen["messages"], 1))
        result["lowest_version"] = seen["lowest_version"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", default="500,2000")
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--on-disk", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.streams.split(",")]
    from benchmarks.push.__main__ import kibitz_server

    with (
        tempfile.TemporaryDirectory(dir=None if args.on_disk else "/dev/shm") as tmp,
        kibitz_server(Path(tmp), None) as (base, _pgid),
    ):
        run(base, counts, args.appends, args.rounds, Path(tmp) / "phones.log")


def run(base: str, counts: list[int], appends: int, rounds: int, log: Path) -> None:
    """Each N in `counts`: `rounds` rounds of a baseline then the crowded table; prints JSON lines."""
    for streams in counts:
        rows: list[dict[str, Any]] = []
        for round_ in range(rounds):
            none = appends_on(base, 0, appends, log)
            crowded = appends_on(base, streams, appends, log)
            if "failed" in none or "failed" in crowded:
                print(json.dumps({"round": round_ + 1, "failed": [none, crowded]}), flush=True)
                continue
            row = {
                "crowded_round": round_ + 1,
                "streams": streams,
                "append_p50_ms": round(crowded["append_p50_ms"], 2),
                "append_p50_none_ms": round(none["append_p50_ms"], 2),
                "append_p99_ms": round(crowded["append_p99_ms"], 2),
                "append_p99_none_ms": round(none["append_p99_ms"], 2),
                "p50_ratio": ratio(crowded["append_p50_ms"], none["append_p50_ms"]),
                "p99_ratio": ratio(crowded["append_p99_ms"], none["append_p99_ms"]),
                "every_phone_at_the_last_version": crowded["lowest_version"] == appends,
                "bytes_per_message": crowded["bytes_per_message"],
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
        print(json.dumps(summary(streams, rows)), flush=True)


def summary(streams: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the rounds, and in how many rounds the goal held."""

    def median(key: str) -> float | None:
        values = sorted(row[key] for row in rows if row[key] is not None)
        return values[len(values) // 2] if values else None

    held = sum(1 for r in rows if (r["p50_ratio"] or 9) <= GOAL and (r["p99_ratio"] or 9) <= GOAL)
    return {
        "summary": "median of rounds",
        "streams": streams,
        **{key: median(key) for key in ("p50_ratio", "p99_ratio", "append_p50_ms", "append_p50_none_ms")},
        **{key: median(key) for key in ("append_p99_ms", "append_p99_none_ms")},
        "within_1_5x": f"{held}/{len(rows)}",
    }


if __name__ == "__main__":
    main()
