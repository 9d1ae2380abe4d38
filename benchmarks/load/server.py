"""Start a throwaway gunicorn on a free loopback port against a given database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from api.db.migrate import upgrade

ROOT = Path(__file__).resolve().parents[2]
NO_LIMITS = {"KIBITZ_CREATE_LIMIT": "100000 per minute", "KIBITZ_TOKEN_FAILURE_LIMIT": "100000 per minute"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(database_url: str, log: Path) -> Iterator[str]:
    upgrade(database_url)
    port = free_port()
    env = {**os.environ, **NO_LIMITS, "DATABASE_URL": database_url, "KIBITZ_BIND": f"127.0.0.1:{port}"}
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "gunicorn.conf.py",
                "wsgi:app",
                "--access-logfile",
                "/dev/null",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start; see {log}")
            time.sleep(0.1)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
