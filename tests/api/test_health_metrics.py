"""Probes and metrics: readiness follows the database and its schema; /metrics counts what the
proxy and the operators watch (issue 32, Observability)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import sqlalchemy as sa
from flask.testing import FlaskClient

from api.app import create_app
from api.db.migrate import upgrade
from tests.api.table_client import four_players


def test_ready_only_at_the_migrations_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    client = create_app(url, TESTING=True).test_client()
    assert client.get("/api/health/live").get_json() == {"status": "ok"}
    not_yet = client.get("/api/health/ready")
    assert not_yet.status_code == 503 and not_yet.get_json()["code"] == "not-ready"
    assert not_yet.headers["Retry-After"] == "5"
    upgrade(url)
    ready = client.get("/api/health/ready")
    assert ready.status_code == 200 and ready.get_json()["status"] == "ok"
    # A schema moved back (an old database restored under new code): not ready again.
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0001'"))
    assert client.get("/api/health/ready").status_code == 503
    assert client.get("/api/health/live").status_code == 200


def _sample(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith(f"{name}{{{wanted}}} ") or (not labels and line.startswith(f"{name} ")):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_requests_appends_and_refusals(client: FlaskClient) -> None:
    before = client.get("/metrics").get_data(as_text=True)
    created = client.post("/api/tables", json=four_players()).get_json()
    headers = {"Authorization": f"Bearer {created['write_token']}"}
    body = {"expected_version": 0, "event": {"type": "reveal_card", "value": 3}}
    assert client.post(f"/api/tables/{created['id']}/events", json=body, headers=headers).status_code == 201
    stale = client.post(f"/api/tables/{created['id']}/events", json=body, headers=headers)
    assert stale.status_code == 409
    client.get("/api/tables/nope")
    answer = client.get("/metrics")
    assert answer.content_type.startswith("text/plain; version=")
    after = answer.get_data(as_text=True)
    assert _sample(after, "kibitz_appends_total") == _sample(before, "kibitz_appends_total") + 1
    for code, status in (("stale-version", "409"), ("table-not-found", "404")):
        grew = _sample(after, "kibitz_refusals_total", code=code, status=status)
        assert grew == _sample(before, "kibitz_refusals_total", code=code, status=status) + 1
    route = "/api/tables/<string:table_id>/events"
    assert _sample(after, "kibitz_request_seconds_count", method="POST", route=route) >= 2
    assert "/api/tables/nope" not in after  # routes by template: ids never become labels


def test_json_access_log_is_one_object_per_request(monkeypatch: object) -> None:
    from api.serving import SafeAccessLogger

    monkeypatch.setenv("KIBITZ_LOG_FORMAT", "json")  # type: ignore[attr-defined]
    lines: list[str] = []
    logger = SafeAccessLogger.__new__(SafeAccessLogger)
    logger.cfg = SimpleNamespace(accesslog="-", logconfig=None, syslog=False)  # type: ignore[assignment]
    logger.access_log = SimpleNamespace(info=lines.append)  # type: ignore[assignment]
    environ = {"REMOTE_ADDR": "203.0.113.7", "REQUEST_METHOD": "GET", "PATH_INFO": '/a"\n{"forged": 1}'}
    logger.access(SimpleNamespace(status="200 OK", sent=12), None, environ, timedelta(milliseconds=3))
    assert len(lines) == 1 and "\n" not in lines[0]
    line = json.loads(lines[0])
    assert line["client"] == "203.0.113.7" and line["status"] == 200 and line["path"] == '/a"\n{"forged": 1}'
    assert "forged" not in {k for k in line}
