"""A club's Kibitz server from one command (deploy/install.sh runs this after Debian's packages).

Standard library only: it runs before the app's virtual environment exists. Idempotent: running it
again with the same arguments rewrites the same files, keeps the database, the record key and the
backups, and restarts nothing that it need not. Everything lives under one prefix:

    PREFIX/app          → the running release, PREFIX/releases/<time> (a copy of this checkout, built
                        before the link moves; the newest three kept), or with --link-source the
                        checkout itself
    PREFIX/venv         Python packages installed from requirements/runtime.txt with --require-hashes
    PREFIX/etc/         kibitz.env (the settings), Caddyfile, services.json (every command, one place)
    PREFIX/keys/        the record-signing key (KIBITZ_RECORD_KEY)
    PREFIX/backups/     database dumps and key copies (deploy/backup.py, on a schedule)
    PREFIX/systemd/     the unit files (installed into /etc/systemd/system with --mode systemd)
    PREFIX/pgdata, redis/, caddy/, run/, log/   (--mode supervisor: its own PostgreSQL, Redis, Caddy)

Two ways to run the same services.json: `--mode systemd` (a real server: Debian's own postgresql,
redis-server and caddy units, plus kibitz-app@N, kibitz-backup.timer) and `--mode supervisor`
(deploy/supervise.py starts PostgreSQL, Redis, the app servers and Caddy itself; the test, a laptop,
a machine without systemd). Both start each service through `deploy/service.py NAME`.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import shutil
import subprocess
import sys
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "node_modules", "var", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
        ".hypothesis"}  # fmt: skip
PG_BIN_ROOT = Path("/usr/lib/postgresql")


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--name",
        required=True,
        help="the server's domain name (or a LAN name or address with --tls internal); "
        "several, comma-separated, the first is the public one",
    )
    p.add_argument(
        "--tls",
        choices=["acme", "internal"],
        default="acme",
        help="acme: a public certificate for a domain (Let's Encrypt/ZeroSSL through Caddy); "
        "internal: Caddy's own CA, for a LAN name, a laptop or a test",
    )
    p.add_argument("--email", default="", help="contact address for the ACME account (optional)")
    p.add_argument("--servers", type=int, default=2, help="app servers (gunicorn processes), 2 or more")
    p.add_argument("--prefix", type=Path, default=Path("/opt/kibitz"))
    p.add_argument("--mode", choices=["systemd", "supervisor"], default="systemd")
    p.add_argument("--https-port", type=int, default=443)
    p.add_argument("--http-port", type=int, default=80)
    p.add_argument("--bind", default="", help="the address Caddy listens on (default: every address)")
    p.add_argument("--first-port", type=int, default=8001, help="app servers on 127.0.0.1:N, N+1, …")
    p.add_argument("--pg-port", type=int, default=5432)
    p.add_argument("--redis-port", type=int, default=6379)
    p.add_argument(
        "--venv", type=Path, default=None, help="use this virtual environment instead of making one"
    )
    p.add_argument(
        "--link-source", action="store_true", help="run this checkout in place (a laptop, the test)"
    )
    p.add_argument("--user", default="", help="the system user the app runs as (systemd mode: kibitz)")
    p.add_argument(
        "--backup-every", default="hourly", help="systemd OnCalendar, or seconds in supervisor mode"
    )
    p.add_argument("--keep-backups", type=int, default=48)
    p.add_argument(
        "--client-streams",
        type=int,
        default=1000,
        help="live streams per client address per app server (behind the proxy a whole hall "
        "shares one address: docs/deploy.md, 'A hall behind one address')",
    )
    p.add_argument("--create-limit", default="120 per minute;1000 per hour",
                   help="new tables per client address (KIBITZ_CREATE_LIMIT): a hall's phones share one")
    p.add_argument("--no-start", action="store_true", help="write everything, start nothing")
    args = p.parse_args(argv)
    if args.servers < 1:
        p.error("--servers must be at least 1")
    args.prefix = args.prefix.resolve()
    if not args.user:
        args.user = "kibitz" if args.mode == "systemd" else pwd.getpwuid(os.getuid()).pw_name
    return args


def pg_bin() -> Path:
    versions = sorted(
        (p for p in PG_BIN_ROOT.glob("*/bin") if (p / "initdb").exists()), key=lambda p: p.parent.name
    )
    if not versions:
        raise SystemExit("PostgreSQL's server binaries are missing: apt-get install postgresql")
    return versions[-1]


def database_url(args: argparse.Namespace) -> str:
    if args.mode == "systemd":
        # Peer authentication over the local socket: the system user kibitz is the role kibitz.
        return "postgresql+psycopg://kibitz@/kibitz?host=/var/run/postgresql"
    return f"postgresql+psycopg://kibitz@127.0.0.1:{args.pg_port}/kibitz"


def settings(args: argparse.Namespace) -> dict[str, str]:
    """kibitz.env: what every app server, backup and restore reads."""
    prefix = args.prefix
    return {
        "KIBITZ_PREFIX": str(prefix),
        "DATABASE_URL": database_url(args),
        "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{args.redis_port}/0",
        # Caddy is the one proxy in front: the client's address is the last X-Forwarded-For entry.
        "KIBITZ_TRUSTED_PROXIES": "1",
        "KIBITZ_CLIENT_STREAMS": str(args.client_streams),
        "KIBITZ_CREATE_LIMIT": args.create_limit,
        "KIBITZ_RECORD_KEY": str(prefix / "keys" / "record-key.pem"),
        "KIBITZ_RUN_DIR": str(prefix / "run"),
        "KIBITZ_STATIC_DIR": str(prefix / "app" / "var" / "static"),
        "KIBITZ_LOG_FORMAT": "json",
        "KIBITZ_BACKUP_DIR": str(prefix / "backups"),
        "KIBITZ_KEEP_BACKUPS": str(args.keep_backups),
        "KIBITZ_PG_BIN": str(pg_bin()),
        "KIBITZ_APP_PORTS": " ".join(str(args.first_port + n) for n in range(args.servers)),
        "KIBITZ_PUBLIC_URL": public_url(args),
    }


def public_url(args: argparse.Namespace) -> str:
    port = "" if args.https_port == 443 else f":{args.https_port}"
    return f"https://{args.name.split(',')[0].strip()}{port}/"


def services(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """Every long-running command, in start order: the one place both run modes read."""
    prefix, venv = args.prefix, args.prefix / "venv"
    out: dict[str, dict[str, object]] = {}
    if args.mode == "supervisor":
        pg = pg_bin()
        out["postgres"] = {
            "argv": [str(pg / "postgres"), "-D", str(prefix / "pgdata"), "-p", str(args.pg_port),
                     "-c", "listen_addresses=127.0.0.1",
                     "-c", f"unix_socket_directories={prefix / 'run' / 'pg'}"],
            "user": "postgres" if os.getuid() == 0 else "",
            "stop_signal": "SIGINT",
            "ready": ["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(args.pg_port)],
        }  # fmt: skip
        out["redis"] = {
            "argv": ["redis-server", "--bind", "127.0.0.1", "--port", str(args.redis_port), "--save", "",
                     "--appendonly", "no", "--dir", str(prefix / "redis")],
            "ready": ["redis-cli", "-h", "127.0.0.1", "-p", str(args.redis_port), "ping"],
        }  # fmt: skip
        out["migrate"] = {
            "argv": [str(venv / "bin" / "python"), str(prefix / "app" / "deploy" / "migrate.py")],
            "oneshot": True,
        }
    for n in range(args.servers):
        port = args.first_port + n
        out[f"app-{n + 1}"] = {
            "argv": [str(venv / "bin" / "gunicorn"), "-c", "gunicorn.conf.py", "wsgi:app"],
            "env": {"KIBITZ_BIND": f"127.0.0.1:{port}"},
            "ready_url": f"http://127.0.0.1:{port}/api/health/ready",
        }
    if args.mode == "supervisor":
        out["caddy"] = {
            "argv": ["caddy", "run", "--config", str(prefix / "etc" / "Caddyfile"), "--adapter", "caddyfile"],
            "env": {"XDG_DATA_HOME": str(prefix / "caddy" / "data"),
                    "XDG_CONFIG_HOME": str(prefix / "caddy" / "config"), "HOME": str(prefix / "caddy")},
        }  # fmt: skip
    return out


def caddyfile(args: argparse.Namespace) -> str:
    template = (SOURCE / "deploy" / "Caddyfile.in").read_text()
    upstreams = " ".join(f"127.0.0.1:{args.first_port + n}" for n in range(args.servers))
    globals_: list[str] = [f"http_port {args.http_port}", f"https_port {args.https_port}"]
    if args.email:
        globals_.append(f"email {args.email}")
    if args.mode == "supervisor":
        globals_ += ["admin off", "skip_install_trust"]
    names = [n.strip() for n in args.name.split(",") if n.strip()]
    site = ", ".join(n if args.https_port == 443 else f"{n}:{args.https_port}" for n in names)
    tls = "tls internal" if args.tls == "internal" else ""
    bind = f"bind {args.bind}" if args.bind else ""
    return (
        template.replace("@GLOBAL@", "\n\t".join(globals_))
        .replace("@SITE@", site)
        .replace("@TLS@", tls)
        .replace("@BIND@", bind)
        .replace("@UPSTREAMS@", upstreams)
        .replace("@STATIC@", str(args.prefix / "app" / "var" / "static"))
    )


def unit_files(args: argparse.Namespace) -> dict[str, str]:
    prefix, python = args.prefix, args.prefix / "venv" / "bin" / "python"
    service = f"{python} {prefix / 'app' / 'deploy' / 'service.py'} --prefix {prefix}"
    common = (
        f"User={args.user}\nGroup={args.user}\nWorkingDirectory={prefix / 'app'}\n"
        f"EnvironmentFile={prefix / 'etc' / 'kibitz.env'}\n"
        "NoNewPrivileges=yes\nProtectSystem=full\nPrivateTmp=yes\n"
    )
    return {
        "kibitz-migrate.service": (
            "[Unit]\nDescription=Kibitz: database migrations (before any app server)\n"
            "After=postgresql.service\nRequires=postgresql.service\n\n"
            f"[Service]\nType=oneshot\nRemainAfterExit=yes\n{common}"
            f"ExecStart={python} {prefix / 'app' / 'deploy' / 'migrate.py'}\n\n"
            "[Install]\nWantedBy=multi-user.target\n"
        ),
        "kibitz-app@.service": (
            "[Unit]\nDescription=Kibitz app server %i\n"
            "After=network.target postgresql.service redis-server.service kibitz-migrate.service\n"
            "Requires=kibitz-migrate.service\nPartOf=kibitz.target\n\n"
            f"[Service]\n{common}ExecStart={service} app-%i\n"
            "ExecReload=/bin/kill -HUP $MAINPID\nKillMode=mixed\nTimeoutStopSec=20\n"
            "Restart=always\nRestartSec=1\nLimitNOFILE=65536\n\n[Install]\nWantedBy=kibitz.target\n"
        ),
        "kibitz.target": (
            "[Unit]\nDescription=Kibitz (every app server)\n"
            f"Wants={' '.join(f'kibitz-app@{n + 1}.service' for n in range(args.servers))}\n\n"
            "[Install]\nWantedBy=multi-user.target\n"
        ),
        "kibitz-backup.service": (
            "[Unit]\nDescription=Kibitz: back up the database and the record key\n"
            f"After=postgresql.service\n\n[Service]\nType=oneshot\n{common}"
            f"ExecStart={python} {prefix / 'app' / 'deploy' / 'backup.py'} --prefix {prefix}\n"
        ),
        "kibitz-backup.timer": (
            "[Unit]\nDescription=Kibitz backups on a schedule\n\n"
            f"[Timer]\nOnCalendar={args.backup_every}\nPersistent=yes\nRandomizedDelaySec=120\n\n"
            "[Install]\nWantedBy=timers.target\n"
        ),
    }


def run(cmd: list[str], **kw: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


def install_source(args: argparse.Namespace) -> Path:
    """The release to run: this checkout itself (--link-source), or a fresh copy of it in
    PREFIX/releases/<time>, built there beside the one running (PREFIX/app points at it only once
    it is complete: switch_release)."""
    app = args.prefix / "app"
    if args.link_source:
        if app.is_symlink() and app.resolve() != SOURCE:
            app.unlink()
        if not app.exists():
            app.symlink_to(SOURCE)
        return SOURCE
    releases = args.prefix / "releases"
    releases.mkdir(exist_ok=True)
    release = releases / time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    shutil.rmtree(release, ignore_errors=True)
    shutil.copytree(SOURCE, release, ignore=shutil.ignore_patterns(*SKIP))
    previous = app.resolve() if app.is_symlink() else None
    if previous is not None and previous.exists():
        # Pyodide unchanged: the last release's npm folder, hard-linked (nothing writes to it); the
        # built phone app copied, so the build only redoes what changed.
        lock = "package-lock.json"
        same_npm = (previous / lock).read_bytes() == (release / lock).read_bytes()
        if same_npm and (previous / "node_modules").exists():
            run(["cp", "-al", str(previous / "node_modules"), str(release / "node_modules")])
        if (previous / "var" / "static").exists():
            (release / "var").mkdir(exist_ok=True)
            run(["cp", "-a", str(previous / "var" / "static"), str(release / "var" / "static")])
    return release


def switch_release(args: argparse.Namespace, release: Path) -> None:
    """PREFIX/app → the new release in one rename; servers started from now on run it. The newest
    three releases stay (the running servers' until they are restarted, and a way back)."""
    app = args.prefix / "app"
    if args.link_source:
        return
    if app.exists() and not app.is_symlink():  # a layout from before releases
        app.rename(args.prefix / "releases" / "earlier")
    link = args.prefix / ".app-new"
    link.unlink(missing_ok=True)
    link.symlink_to(release)
    os.replace(link, app)
    kept = sorted(p for p in (args.prefix / "releases").iterdir() if p.is_dir())
    for old in kept[:-3]:
        if old != release:
            shutil.rmtree(old, ignore_errors=True)


def install_venv(args: argparse.Namespace, release: Path) -> None:
    """The Python packages from the lock, every file checked against its hash; the app with --no-deps."""
    venv = args.prefix / "venv"
    if args.venv is not None:
        if venv.is_symlink():
            venv.unlink()
        if not venv.exists():
            venv.symlink_to(args.venv.resolve())
        return
    if not (venv / "bin" / "python").exists():
        run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    run(
        [
            *pip,
            "--require-hashes",
            "--no-deps",
            "-r",
            str(release / "requirements" / "runtime.txt"),
        ]
    )
    run([*pip, "--no-deps", "--no-build-isolation", str(release)])


def build_static(args: argparse.Namespace, env: dict[str, str], release: Path) -> None:
    """The phone app's build folder: Pyodide from the pinned npm lock, then the hashed files."""
    if args.link_source and (release / "var" / "static").exists():
        return
    if not (release / "node_modules" / "pyodide").exists():
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=release)
    build_env = {**os.environ, **env, "KIBITZ_STATIC_DIR": str(release / "var" / "static")}
    python = str(args.prefix / "venv" / "bin" / "python")
    run([python, "-m", "api.phone.static_build"], cwd=release, env=build_env)


def write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    path.chmod(mode)


def prepare_database_systemd(args: argparse.Namespace) -> None:
    """Debian's cluster: a role and a database named kibitz, reached by peer authentication."""
    psql = ["runuser", "-u", "postgres", "--", "psql", "-v", "ON_ERROR_STOP=1", "-qAt", "-c"]
    exists = subprocess.run([*psql, "SELECT 1 FROM pg_roles WHERE rolname = 'kibitz'"], capture_output=True,
                            text=True, check=True).stdout.strip()  # fmt: skip
    if not exists:
        run([*psql, "CREATE ROLE kibitz LOGIN"])
    query = "SELECT 1 FROM pg_database WHERE datname = 'kibitz'"
    has_db = subprocess.run([*psql, query], capture_output=True,
                            text=True, check=True).stdout.strip()  # fmt: skip
    if not has_db:
        run([*psql, "CREATE DATABASE kibitz OWNER kibitz"])


def prepare_cluster_supervisor(args: argparse.Namespace) -> None:
    """A private PostgreSQL cluster under the prefix (trust on loopback only; its own port)."""
    pgdata = args.prefix / "pgdata"
    if (pgdata / "PG_VERSION").exists():
        return
    as_user: list[str] = []
    if os.getuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        pgdata.mkdir(mode=0o700, exist_ok=True)
        shutil.chown(pgdata, "postgres", "postgres")
        (args.prefix / "run" / "pg").mkdir(parents=True, exist_ok=True)
        shutil.chown(args.prefix / "run" / "pg", "postgres", "postgres")
    run([*as_user, str(pg_bin() / "initdb"), "-D", str(pgdata), "-U", "kibitz", "--auth=trust",
         "-E", "UTF8", "--locale=C.UTF-8"], stdout=subprocess.DEVNULL)  # fmt: skip


def main(argv: list[str]) -> int:
    args = parse(argv)
    prefix = args.prefix
    for sub in ("etc", "keys", "backups", "run", "run/pg", "log", "redis", "caddy", "systemd"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    prefix.chmod(0o755)  # the PostgreSQL user must reach pgdata and its socket folder
    (prefix / "keys").chmod(0o700)
    (prefix / "backups").chmod(0o700)
    release = install_source(args)
    install_venv(args, release)
    env = settings(args)
    write(prefix / "etc" / "kibitz.env", "".join(f"{k}={v}\n" for k, v in env.items()))
    write(prefix / "etc" / "services.json", json.dumps(services(args), indent=2) + "\n")
    write(prefix / "etc" / "Caddyfile", caddyfile(args))
    for name, text in unit_files(args).items():
        write(prefix / "systemd" / name, text)
    build_static(args, env, release)
    switch_release(args, release)
    if args.mode == "systemd":
        return install_systemd(args)
    prepare_cluster_supervisor(args)
    if args.no_start:
        return 0
    print(f"start it with: {prefix / 'venv' / 'bin' / 'python'} {prefix / 'app' / 'deploy' / 'supervise.py'} "
          f"--prefix {prefix}")  # fmt: skip
    return 0


def wait_ready(url: str, timeout: float = 120) -> None:
    import time
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{url} did not answer ready within {timeout} s")


def install_systemd(args: argparse.Namespace) -> int:
    if os.getuid() != 0:
        raise SystemExit("--mode systemd installs units and users: run it as root")
    prefix = args.prefix
    if subprocess.run(["id", args.user], capture_output=True).returncode != 0:
        run(["adduser", "--system", "--group", "--home", str(prefix), "--no-create-home", args.user])
    for sub in ("keys", "backups", "run", "log"):
        shutil.chown(prefix / sub, args.user, args.user)
    static = prefix / "app" / "var"
    if static.exists():
        run(["chown", "-R", f"{args.user}:{args.user}", str(static)])
    for name in unit_files(args):
        shutil.copy2(prefix / "systemd" / name, Path("/etc/systemd/system") / name)
    # Debian's caddy.service reads /etc/caddy/Caddyfile: it imports ours.
    write(Path("/etc/caddy/Caddyfile"), f"import {prefix / 'etc' / 'Caddyfile'}\n")
    if args.no_start:
        return 0
    run(["systemctl", "enable", "--now", "postgresql", "redis-server"])
    prepare_database_systemd(args)
    run(["systemctl", "daemon-reload"])
    run(["systemctl", "enable", "kibitz-migrate.service"])
    # Migrations first (they only add: the running servers keep working), then the app servers one
    # at a time, each ready again before the next stops: phones stream on through the others.
    run(["systemctl", "restart", "kibitz-migrate.service"])
    running = subprocess.run(["systemctl", "is-active", "--quiet", "kibitz-app@1.service"]).returncode == 0
    run(["systemctl", "enable", "--now", "kibitz.target", "kibitz-backup.timer"])
    if running:
        for n in range(args.servers):
            run(["systemctl", "restart", f"kibitz-app@{n + 1}.service"])
            wait_ready(f"http://127.0.0.1:{args.first_port + n}/api/health/ready")
    run(["systemctl", "reload-or-restart", "caddy"])
    print(f"Kibitz is at {public_url(args)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
