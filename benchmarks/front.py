"""What a benchmark's phone talks to: the app server itself (plain HTTP/1.1 on loopback), or Caddy
with `tls internal` in front of it (HTTPS, HTTP/2), configured from the deployment's own Caddyfile
template (deploy/kibitz_deploy.py writes it; only the ports and the one upstream differ).

Chromium trusts Caddy's CA through a throwaway NSS database in its own HOME (no certificate error
ignored), and reaches the name `kibitz.test` through a host resolver rule: a name, not 127.0.0.1,
so the secure context is the one a real phone gets from HTTPS.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import requests

from devtools.gunicorn import GunicornProcess, free_port

ROOT = Path(__file__).resolve().parents[1]
NAME = "kibitz.test"


@dataclass
class Front:
    """The address the browser opens and what Chromium needs to reach it."""

    base: str  # what the browser opens
    direct: str  # the app server itself (for Python's own requests)
    args: list[str] = field(default_factory=list)  # extra Chromium switches
    env: dict[str, str] = field(default_factory=dict)  # Chromium's environment (HOME for NSS)


def caddyfile(prefix: Path, https_port: int, app_port: int) -> str:
    """The deployment's Caddyfile (deploy/Caddyfile.in) for one app server on loopback."""
    sys.path.insert(0, str(ROOT / "deploy"))
    try:
        import kibitz_deploy
    finally:
        sys.path.pop(0)
    args = argparse.Namespace(
        https_port=https_port, http_port=free_port(), email="", mode="supervisor",
        name=f"{NAME},127.0.0.1", tls="internal", bind="127.0.0.1", first_port=app_port, servers=1,
        prefix=prefix,
    )  # fmt: skip
    return str(kibitz_deploy.caddyfile(args))


def _trust(home: Path, root_cert: Path) -> None:
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True, exist_ok=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "kibitz-bench-ca",
                    "-i", str(root_cert)], check=True)  # fmt: skip


@contextlib.contextmanager
def caddy_front(server: GunicornProcess, folder: Path) -> Iterator[Front]:
    """Caddy (Debian's package) with `tls internal` in front of `server`, until the block ends."""
    https_port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "Caddyfile"
    config.write_text(caddyfile(folder, https_port, server.port))
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
           "HOME": str(folder)}  # fmt: skip
    log = (folder / "caddy.log").open("ab")
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
        env=env, stdout=log, stderr=log, start_new_session=True,
    )  # fmt: skip
    try:
        root_cert = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 60
        while True:
            assert caddy.poll() is None, (folder / "caddy.log").read_text()[-2000:]
            try:
                if root_cert.exists():
                    answer = requests.get(
                        f"https://127.0.0.1:{https_port}/api/health/ready", verify=root_cert, timeout=5
                    )
                    if answer.status_code == 200:
                        break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "Caddy never answered over HTTPS"
            time.sleep(0.3)
        home = folder / "chromium-home"
        _trust(home, root_cert)
        yield Front(
            base=f"https://{NAME}:{https_port}",
            direct=server.base,
            args=[f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
            env={**os.environ, "HOME": str(home)},
        )
    finally:
        caddy.terminate()
        try:
            caddy.wait(10)
        except subprocess.TimeoutExpired:
            caddy.kill()
            caddy.wait(5)
        log.close()


@contextlib.contextmanager
def front(server: GunicornProcess, folder: Path, proxy: bool) -> Iterator[Front]:
    """The server itself, or Caddy in front of it."""
    if not proxy:
        yield Front(base=server.base, direct=server.base)
        return
    with caddy_front(server, folder) as proxied:
        yield proxied
