"""How gunicorn serves Kibitz: a gevent worker (cheap idle phones, stalled clients cost a greenlet,
not a thread), gunicorn's own error answers as problem+json with our security headers, and an access
log that cannot be forged with control characters in a path."""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.workers.ggevent import GeventWorker

from api.http.security import APP_CSP

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": APP_CSP,
}
CODES = {
    400: "bad-request",
    403: "forbidden",
    414: "uri-too-long",
    417: "expectation-failed",
    431: "header-fields-too-large",
    500: "internal-error",
    501: "not-implemented",
}


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own refusals (malformed request line, too long a URI, too many headers …)."""
    body = json.dumps(
        {
            "type": f"urn:kibitz:problem:{CODES.get(status_int, 'bad-request')}",
            "title": reason,
            "status": status_int,
            "code": CODES.get(status_int, "bad-request"),
            "detail": mesg or reason,
        }
    ).encode()
    head = [f"HTTP/1.1 {status_int} {reason}", "Connection: close", "Content-Type: application/problem+json"]
    head += [f"{name}: {value}" for name, value in SECURITY_HEADERS.items()]
    head.append(f"Content-Length: {len(body)}")
    util.write_nonblock(sock, ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)


class KibitzWorker(GeventWorker):
    """gunicorn's gevent worker whose own error answers carry our headers and problem+json."""

    def init_process(self) -> None:
        util.write_error = write_problem  # the worker writes its refusals through this function
        super().init_process()


def _escape(value: str) -> str:
    """Control characters (a decoded %0a in a path …) as visible escapes: one request, one line."""
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in value)


class SafeAccessLogger(Logger):
    """gunicorn's logger, with every access-log field escaped."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in list(atoms.items()):
            if isinstance(value, str):
                atoms[key] = _escape(value)
        return atoms  # type: ignore[no-any-return]
