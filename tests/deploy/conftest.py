"""The deployment of deploy/ brought up on this machine, once for the module's tests.

deploy/kibitz_deploy.py writes a deployment into a temporary prefix (supervisor mode, `tls internal`
for the name `kibitz.test` and 127.0.0.1, loopback ports picked free, this checkout and this
virtual environment in place) and deploy/supervise.py runs it: a private PostgreSQL cluster, Redis,
the migrations, two gunicorn app servers and Caddy. The machine's own PostgreSQL and Redis are
never touched. Without Caddy, PostgreSQL's server binaries or redis-server the tests skip, and fail
when CI is set.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from devtools.gunicorn import free_port
from tests.conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
NAME = "kibitz.test"


@dataclass
class Deployment:
    prefix: Path
    https_port: int
    app_ports: list[int]
    supervisor: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        """The address Python's clients use (the certificate names 127.0.0.1 too)."""
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def public(self) -> str:
        """The address the browser opens (a name: no secure context for free, as 127.0.0.1 has)."""
        return f"https://{NAME}:{self.https_port}"

    @property
    def root_cert(self) -> Path:
        return self.prefix / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def env(self) -> dict[str, str]:
        from deploy.service import read_env

        return read_env(self.prefix)

    def pid(self, name: str) -> int:
        return int((self.prefix / "run" / f"{name}.pid").read_text())

    def tool(self, script: str, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [sys.executable, str(ROOT / "deploy" / script), "--prefix", str(self.prefix), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def log(self, name: str) -> str:
        path = self.prefix / "log" / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _check_tools() -> None:
    if shutil.which("caddy") is None:
        unavailable("Debian's caddy is not installed")
    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed")
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        unavailable("PostgreSQL's server binaries (initdb) are not installed")
    if not (ROOT / "var" / "static").is_dir():
        unavailable("the phone app is not built (make static)")


def _deploy_args(prefix: Path, https_port: int, app_ports: list[int]) -> list[str]:
    return [
        "--name", f"{NAME},127.0.0.1", "--tls", "internal", "--mode", "supervisor",
        "--prefix", str(prefix), "--https-port", str(https_port), "--http-port", str(free_port()),
        "--bind", "127.0.0.1", "--first-port", str(app_ports[0]), "--servers", str(len(app_ports)),
        "--pg-port", str(free_port()), "--redis-port", str(free_port()),
        "--venv", sys.prefix, "--link-source",
        # Tables for the whole module from one address; the hall's ceiling of streams per address.
        "--create-limit", "2000 per minute", "--client-streams", "200",
    ]  # fmt: skip


@pytest.fixture(scope="package")
def deployment() -> Iterator[Deployment]:
    _check_tools()
    prefix = Path(tempfile.mkdtemp(prefix="kibitz-deploy-"))
    prefix.chmod(0o755)  # the postgres user reaches its cluster inside
    https_port = free_port()
    first = next(p for p in iter(free_port, 0) if _free(p + 1))  # the app servers take N and N+1
    app_ports = [first, first + 1]
    args = _deploy_args(prefix, https_port, app_ports)
    made = subprocess.run([sys.executable, str(ROOT / "deploy" / "kibitz_deploy.py"), *args],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    # Idempotent: the same command again changes nothing and keeps the cluster it made.
    again = subprocess.run([sys.executable, str(ROOT / "deploy" / "kibitz_deploy.py"), *args],
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert "initdb" not in again.stdout
    log = (prefix / "log" / "supervisor.out").open("ab")
    supervisor = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "deploy" / "supervise.py"),
            "--prefix",
            str(prefix),
            "--backup-every",
            "0",
        ],
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    deployment = Deployment(prefix, https_port, app_ports, supervisor)
    ready = prefix / "run" / "supervisor.ready"
    deadline = time.monotonic() + 240
    while not ready.exists():
        if supervisor.poll() is not None or time.monotonic() > deadline:
            _stop(supervisor, prefix)
            logs = "\n".join(
                f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in (prefix / "log").iterdir()
            )
            shutil.rmtree(prefix, ignore_errors=True)
            pytest.fail(f"the deployment did not come up:\n{logs}")
        time.sleep(0.3)
    saved = os.environ.get("REQUESTS_CA_BUNDLE")
    try:
        _wait_https(deployment)  # inside: a deployment that never answers is stopped all the same
        os.environ["REQUESTS_CA_BUNDLE"] = str(deployment.root_cert)  # requests trusts Caddy's own CA
        yield deployment
    finally:
        if saved is None:
            os.environ.pop("REQUESTS_CA_BUNDLE", None)
        else:
            os.environ["REQUESTS_CA_BUNDLE"] = saved
        _stop(supervisor, prefix)
        shutil.rmtree(prefix, ignore_errors=True)


def _free(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _wait_https(deployment: Deployment) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            answer = requests.get(
                f"{deployment.base}/api/health/ready", verify=deployment.root_cert, timeout=5
            )
            if answer.status_code == 200:
                return
        except (requests.RequestException, OSError):  # OSError: Caddy has not written its CA yet
            if time.monotonic() > deadline:
                raise
        time.sleep(0.3)


def _stop(supervisor: subprocess.Popen[bytes], prefix: Path) -> None:
    """SIGTERM to the supervisor (it stops its services); what is left after 90 s is killed, each
    service's session by the process id the supervisor recorded."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(supervisor.pid, signal.SIGTERM)
    try:
        supervisor.wait(90)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.kill(supervisor.pid, signal.SIGKILL)
        supervisor.wait(10)
    for pid_file in (prefix / "run").glob("*.pid"):
        with contextlib.suppress(ProcessLookupError, ValueError, PermissionError):
            os.killpg(int(pid_file.read_text()), signal.SIGKILL)
