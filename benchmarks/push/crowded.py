"""`python -m benchmarks.push.crowded [--streams 500,2000] [--appends 200] [--rounds 3] [--on-disk]`

The crowded table: appends made back to back (each sent the moment the one before was answered)
on a table that N live streams follow, against the same appends with no stream open, each round
right after its own baseline on the same server. The goal (issue 36): p50 and p99 with 500 and
2,000 streams ≤ 1.5× none. The server is pinned to one core, the phones and the appender (one node
process, `phones.js`) to the other; SQLite on /dev/shm unless `--on-disk`, so the disk's fsync tail
does not hide what the streams cost. Figures are ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.push.__main__ import kibitz_server, run_phones

GOAL = 1.5


def ratio(a: float | None, b: float | None) -> float | None:
    return None if not a or not b else round(a / b, 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", default="500,2000")
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--on-disk", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.streams.split(",")]
    with (
        tempfile.TemporaryDirectory(dir=None if args.on_disk else "/dev/shm") as tmp,
        kibitz_server(Path(tmp), None) as (base, pgid),
    ):
        log = Path(tmp) / "phones.log"
        for streams in counts:
            rows: list[dict[str, Any]] = []
            for round_ in range(args.rounds):
                none = run_phones("kibitz", base, pgid, 0, args.appends, log, interval_ms=0)
                crowded = run_phones("kibitz", base, pgid, streams, args.appends, log, interval_ms=0)
                if "failed" in none or "failed" in crowded:
                    print(json.dumps({"round": round_ + 1, "failed": [none, crowded]}), flush=True)
                    continue
                row = {
                    "round": round_ + 1,
                    "streams": streams,
                    "append_p50_ms": crowded["append_p50_ms"],
                    "append_p50_none_ms": none["append_p50_ms"],
                    "append_p99_ms": crowded["append_p99_ms"],
                    "append_p99_none_ms": none["append_p99_ms"],
                    "p50_ratio": ratio(crowded["append_p50_ms"], none["append_p50_ms"]),
                    "p99_ratio": ratio(crowded["append_p99_ms"], none["append_p99_ms"]),
                    "missed": crowded["missed"],
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
