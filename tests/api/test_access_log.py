"""The access log works out only the fields its format shows (api.serving.SafeAccessLogger), with
the same values gunicorn's own logger gives them, escaped."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from gunicorn.config import Config
from gunicorn.glogging import Logger

from api.serving import _CHEAP_ATOMS, SafeAccessLogger

ENVIRON = {
    "REMOTE_ADDR": "127.0.0.1",
    "REQUEST_METHOD": "GET",
    "PATH_INFO": "/api/tables/abc\nFORGED",
    "QUERY_STRING": "lang=de",
    "SERVER_PROTOCOL": "HTTP/1.1",
    "RAW_URI": "/api/tables/abc%0aFORGED?lang=de",
    "HTTP_USER_AGENT": "phone",
}
RESPONSE = SimpleNamespace(status="200 OK", sent=1234, headers=[("Content-Type", "application/json")])
REQUEST = SimpleNamespace(headers=[("USER-AGENT", "phone")])
TOOK = datetime.timedelta(seconds=1, microseconds=2345)


def _logger(access_log_format: str) -> SafeAccessLogger:
    config = Config()
    config.set("access_log_format", access_log_format)
    return SafeAccessLogger(config)


def test_the_cheap_fields_are_gunicorns_own_values_escaped() -> None:
    ours = _logger('%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss').atoms(RESPONSE, REQUEST, ENVIRON, TOOK)
    theirs = Logger(Config()).atoms(RESPONSE, REQUEST, ENVIRON, TOOK)
    assert set(ours) == _CHEAP_ATOMS
    for key in _CHEAP_ATOMS - {"U"}:
        assert ours[key] == theirs[key], key
    assert ours["U"] == "/api/tables/abc\\nFORGED"  # one request, one line


def test_a_format_naming_other_fields_gets_them_all() -> None:
    atoms = _logger('%(h)s %({user-agent}i)s %(r)s').atoms(RESPONSE, REQUEST, ENVIRON, TOOK)
    assert atoms["{user-agent}i"] == "phone"
    assert atoms["r"] == "GET /api/tables/abc%0aFORGED?lang=de HTTP/1.1"
