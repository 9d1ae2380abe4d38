"""CPU time spent by a process group (the gunicorn master and its workers), read from /proc.

The load benchmark divides it by the requests served: what a request costs the server itself,
whatever the client (which shares the machine) manages to send.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def group_cpu_seconds(group: int) -> float:
    """User + system CPU of the live processes in process group `group` (Linux /proc)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        # After the command: state, ppid, pgrp, … utime is field 14, stime 15 (1-based, man 5 proc).
        if int(fields[2]) == group:
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total
