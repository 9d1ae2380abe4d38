"""Run the app under a real gunicorn (the project's config file) on a free loopback port.

One launcher for the live-server tests, the fault tests and the load benchmark. The process runs
in its own session so `kill9` takes down master and workers at once, as a crash would.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class GunicornProcess:
    def __init__(
        self,
        database_url: str,
        log_path: Path,
        *,
        port: int | None = None,
        env: dict[str, str] | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = env or {}
        self.extra_args = extra_args
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> GunicornProcess:
        env = {
            **os.environ,
            **self.env,
            "DATABASE_URL": self.database_url,
            "KIBITZ_BIND": f"127.0.0.1:{self.port}",
        }
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app", *self.extra_args],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if requests.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.kill9()
        raise RuntimeError(f"gunicorn did not start; see {self.log_path}")

    def kill9(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def terminate(self) -> None:
        """Ask for a graceful stop (SIGTERM to master and workers) without waiting."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)

    def wait(self, timeout: float) -> bool:
        """True once the server has exited, False if it still runs after `timeout` seconds."""
        if self.process is None:
            return True
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.terminate()
            if not self.wait(20):
                self.kill9()

    def __enter__(self) -> GunicornProcess:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
