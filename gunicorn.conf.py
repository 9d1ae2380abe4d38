"""gunicorn settings: one gevent worker by default.

Chosen by measurement (README, "Serving"): a gevent worker holds thousands of idle live streams and
any number of slow or stalled clients as cheap greenlets, where gthread's fixed thread slots were
exhausted by 16 slow clients. One process keeps `make serve` simple on SQLite (one writer anyway) and
keeps the in-memory rate-limit counters shared by construction. More workers (KIBITZ_WORKERS) need
shared counters: RATELIMIT_STORAGE_URI=redis://…, or the server refuses to start.
"""

import os

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


def on_starting(server: object) -> None:
    """The phone app's build folder (var/static/) is brought up to date before any worker boots: a
    first build compresses Pyodide (~1 min), longer than a worker may take to start."""
    from api.http.static_build import ensure_built

    ensure_built()
