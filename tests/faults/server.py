"""Start and kill real gunicorn servers for fault tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from tests.conftest import ROOT, TEST_LIMITS, free_port


class Gunicorn:
    """A gunicorn process group on a loopback port; `kill9` takes down master and workers at once."""

    def __init__(self, database_url: str, log_path: Path, port: int | None = None, **env: str) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Gunicorn:
        env = {
            **os.environ,
            **TEST_LIMITS,
            **self.env,
            "DATABASE_URL": self.database_url,
            "KIBITZ_BIND": f"127.0.0.1:{self.port}",
        }
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.kill9()
        raise RuntimeError(f"gunicorn did not start; see {self.log_path}")

    def kill9(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill9()
