"""gunicorn settings: one gevent worker by default.

Chosen by measurement (README, "Serving"): a gevent worker holds thousands of idle live streams and
any number of slow or stalled clients as cheap greenlets, where gthread's fixed thread slots were
exhausted by 16 slow clients. One process keeps `make serve` simple on SQLite (one writer anyway) and
keeps the in-memory rate-limit counters shared by construction. More workers (KIBITZ_WORKERS) need
shared counters: RATELIMIT_STORAGE_URI=redis://…, or the server refuses to start.

The worker (api.serving.KibitzWorker) caps each client address's open connections
(KIBITZ_CLIENT_CONNECTIONS, 200) and gives each request body KIBITZ_BODY_TIMEOUT seconds (10) to
arrive: gunicorn's gevent worker has neither, and one client held all 5,000 worker_connections.
README, "Limits", lists every limit.
"""

import os
import re
from pathlib import Path

bind = os.environ.get("KIBITZ_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KIBITZ_WORKERS", "1"))
worker_class = "api.serving.KibitzWorker"
worker_connections = int(os.environ.get("KIBITZ_CONNECTIONS", "5000"))
timeout = 30
graceful_timeout = 10
keepalive = 5
# Never log query strings or headers: write tokens travel in the Authorization header. Every field
# is escaped (api.serving.SafeAccessLogger), so a path cannot write lines of its own.
logger_class = "api.serving.SafeAccessLogger"
accesslog = "-"
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss'

_storage = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
if workers > 1 and _storage.startswith("memory"):
    raise SystemExit(
        f"KIBITZ_WORKERS={workers} needs shared rate-limit counters: set RATELIMIT_STORAGE_URI=redis://… "
        "(with in-memory counters every worker would allow the full limit on its own)."
    )

# gunicorn (25.1+) opens a control socket for `gunicornc`, by default at one path per user
# ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): a second server on the host took the
# first one's over and removed it when either stopped. Each server gets its own, named after its bind
# address, in the run folder (KIBITZ_RUN_DIR, default var/run); KIBITZ_CONTROL_SOCKET=off disables it.
_run_dir = Path(os.environ.get("KIBITZ_RUN_DIR") or Path(__file__).resolve().parent / "var" / "run")
control_socket = str(_run_dir / f"gunicorn-{re.sub(r'[^A-Za-z0-9.]+', '-', bind).strip('-')}.ctl")
control_socket_disable = os.environ.get("KIBITZ_CONTROL_SOCKET", "on").lower() in ("off", "0", "no", "false")
if len(control_socket.encode()) > 100 and not control_socket_disable:  # a Unix socket path's limit
    raise SystemExit(f"The control socket path {control_socket} is too long: set a shorter KIBITZ_RUN_DIR.")

def on_starting(server: object) -> None:
    """The phone app's build folder (var/static/) is brought up to date before any worker boots: a
    first build compresses Pyodide (~1 min), longer than a worker may take to start."""
    from api.phone.static_build import ensure_built

    ensure_built()
