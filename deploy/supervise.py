"""Run a deployment without systemd: `supervise.py --prefix P` (and `… restart NAME`, `… upgrade`).

Starts every service of PREFIX/etc/services.json in order (PostgreSQL and Redis until they answer,
the migrations to the end, each app server until /api/health/ready says 200, then Caddy), restarts
any that exits, backs up on a schedule (deploy/backup.py), and on SIGTERM/SIGINT stops them all in
reverse order. Each service runs in a session of its own, logs to PREFIX/log/NAME.log and has its
process id in PREFIX/run/NAME.pid. PREFIX/run/supervisor.ready exists while everything is up.

`restart NAME` stops one service and waits until the supervisor has it ready again;
`upgrade` runs the migrations first, then restarts the app servers one at a time (each ready again
before the next stops), so phones keep streaming through the others.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from service import command  # noqa: E402


class Stop(Exception):
    pass


def _raise_stop(*_args: object) -> None:
    raise Stop


class Service:
    def __init__(self, prefix: Path, name: str, spec: dict[str, object]) -> None:
        self.prefix, self.name, self.spec = prefix, name, spec
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid_file(self) -> Path:
        return self.prefix / "run" / f"{self.name}.pid"

    def start(self) -> None:
        argv, env, cwd = command(self.prefix, self.name)
        user = str(self.spec.get("user") or "")
        if user:
            argv = ["runuser", "-u", user, "--", *argv]
        log = (self.prefix / "log" / f"{self.name}.log").open("ab")
        self.process = subprocess.Popen(
            argv, env=env, cwd=cwd, stdout=log, stderr=log, start_new_session=True
        )
        log.close()
        self.pid_file.write_text(f"{self.process.pid}\n")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ready(self) -> bool:
        if not self.running():
            return False
        if "ready" in self.spec:
            check = subprocess.run(self.spec["ready"], capture_output=True)  # type: ignore[call-overload]
            return check.returncode == 0
        if "ready_url" in self.spec:
            try:
                with urllib.request.urlopen(str(self.spec["ready_url"]), timeout=2) as answer:
                    return bool(answer.status == 200)
            except OSError:
                return False
        return True

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready():
                return
            if not self.running():
                raise RuntimeError(f"{self.name} exited; see {self.prefix / 'log' / (self.name + '.log')}")
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} was not ready within {timeout} s")

    def signal(self, signum: int) -> None:
        if self.running():
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signum)

    def stop(self, grace: float = 15) -> None:
        stop_signal = getattr(signal, str(self.spec.get("stop_signal", "SIGTERM")))
        self.signal(stop_signal)
        if self.process is not None:
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.signal(signal.SIGKILL)
                self.process.wait(10)
        self.pid_file.unlink(missing_ok=True)


def supervise(prefix: Path, backup_every: float) -> int:
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    specs: dict[str, dict[str, object]] = json.loads((prefix / "etc" / "services.json").read_text())
    ready_flag = prefix / "run" / "supervisor.ready"
    ready_flag.unlink(missing_ok=True)
    (prefix / "run" / "supervisor.pid").write_text(f"{os.getpid()}\n")
    running: list[Service] = []
    try:
        for name, spec in specs.items():
            service = Service(prefix, name, spec)
            if spec.get("oneshot"):
                argv, env, cwd = command(prefix, name)
                subprocess.run(argv, env=env, cwd=cwd, check=True)
                continue
            running.append(service)
            service.start()
            service.wait_ready()
            print(f"{name} ready", flush=True)
        ready_flag.write_text("ok\n")
        next_backup = time.monotonic() + backup_every
        while True:
            for service in running:
                if not service.running():
                    print(f"{service.name} exited ({service.process and service.process.returncode}); "
                          "starting it again", flush=True)  # fmt: skip
                    time.sleep(0.5)
                    service.start()
            if backup_every > 0 and time.monotonic() >= next_backup:
                next_backup = time.monotonic() + backup_every
                subprocess.run(
                    [sys.executable, str(Path(__file__).with_name("backup.py")), "--prefix", str(prefix)]
                )
            time.sleep(0.2)
    except Stop:
        return 0
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        ready_flag.unlink(missing_ok=True)
        for service in reversed(running):
            service.stop()
        (prefix / "run" / "supervisor.pid").unlink(missing_ok=True)


def _pid(prefix: Path, name: str) -> int | None:
    try:
        return int((prefix / "run" / f"{name}.pid").read_text())
    except (OSError, ValueError):
        return None


def restart(prefix: Path, name: str, timeout: float = 60) -> None:
    """Stop service `name` gracefully; the supervisor starts it again; wait until it is ready."""
    specs = json.loads((prefix / "etc" / "services.json").read_text())
    old = _pid(prefix, name)
    if old is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(old, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    probe = Service(prefix, name, specs[name])
    while time.monotonic() < deadline:
        new = _pid(prefix, name)
        if new is not None and new != old:
            probe.process = None
            url = specs[name].get("ready_url")
            if url is None:
                return
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        print(f"{name} ready again (pid {new})", flush=True)
                        return
            except OSError:
                pass
        time.sleep(0.2)
    raise SystemExit(f"{name} did not come back within {timeout} s")


def upgrade(prefix: Path) -> None:
    """Migrations first (the running servers keep working: migrations only add), then each app
    server in turn, the next only once the last is ready."""
    specs = json.loads((prefix / "etc" / "services.json").read_text())
    argv, env, cwd = command(prefix, next(iter(n for n in specs if n.startswith("app-"))))
    python = argv[0].replace("gunicorn", "python")
    subprocess.run([python, "-m", "api.db.migrate"], env=env, cwd=cwd, check=True)
    for name in specs:
        if name.startswith("app-"):
            restart(prefix, name)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--prefix", type=Path, required=True)
    parser.add_argument("--backup-every", type=float, default=3600, help="seconds; 0 for none")
    parser.add_argument("action", nargs="?", default="run", choices=["run", "restart", "upgrade"])
    parser.add_argument("name", nargs="?")
    args = parser.parse_args(argv)
    prefix = args.prefix.resolve()
    if args.action == "restart":
        restart(prefix, args.name)
        return 0
    if args.action == "upgrade":
        upgrade(prefix)
        return 0
    return supervise(prefix, args.backup_every)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
