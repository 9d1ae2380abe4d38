"""Prometheus metrics at `/metrics`, with the standard client library (prometheus_client).

One gunicorn worker per app server (gunicorn.conf.py), so each server's numbers live in its own
process and Prometheus scrapes each server; no multiprocess directory is needed. `/metrics` is not
part of the API document and is not passed through the reverse proxy (deploy/Caddyfile.in answers
404 there): Prometheus scrapes the app servers on their loopback ports.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

REQUEST_SECONDS = Histogram(
    "kibitz_request_seconds",
    "Time to answer a request (to the start of the body for live streams), by route",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
APPENDS = Counter("kibitz_appends_total", "Entries appended to tables' logs (accepted appends)")
OPEN_STREAMS = Gauge("kibitz_open_streams", "Live streams open in this process")
REFUSALS = Counter("kibitz_refusals_total", "Problem answers (4xx/5xx), by problem code", ["status", "code"])
RECORD_CHECKS = Counter(
    "kibitz_record_checks_total", "Record verifications (POST /api/verify), by answer status", ["status"]
)

APPEND_ROUTE = "/api/tables/<string:table_id>/events"
VERIFY_ROUTE = "/api/verify"


def count_refusal(status: int, code: str) -> None:
    REFUSALS.labels(str(status), code).inc()


def install_metrics(app: Flask) -> None:
    """Time every request by its route template (never the raw path: ids would explode the labels)."""

    @app.before_request
    def _start_clock() -> None:
        g.kibitz_started = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        started = g.pop("kibitz_started", None)
        rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
        if started is not None:
            REQUEST_SECONDS.labels(request.method, rule).observe(time.perf_counter() - started)
        if rule == APPEND_ROUTE and request.method == "POST" and response.status_code in (200, 201):
            APPENDS.inc()
        elif rule == VERIFY_ROUTE and request.method == "POST":
            RECORD_CHECKS.labels(str(response.status_code)).inc()
        return response

    def metrics() -> Response:
        from api.http.stream import CHANGES_KEY  # the stream module imports much more

        feed: Any = app.extensions.get(CHANGES_KEY)
        if feed is not None:
            OPEN_STREAMS.set(feed.listening())
        return Response(generate_latest(), content_type=CONTENT_TYPE_LATEST)

    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])
