"""gunicorn settings: threads serve the 1-second polling of every phone cheaply."""

import os

bind = os.environ.get("KIBITZ_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KIBITZ_WORKERS", "2"))
threads = int(os.environ.get("KIBITZ_THREADS", "8"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 10
keepalive = 5
# Never log query strings or headers: write tokens travel in the Authorization header.
accesslog = "-"
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss'
