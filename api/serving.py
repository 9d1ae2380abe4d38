"""How gunicorn serves Kibitz: a gevent worker (cheap idle phones, stalled clients cost a greenlet,
not a thread), gunicorn's own error answers as problem+json with our security headers, and an access
log that cannot be forged with control characters in a path."""

from __future__ import annotations

import json
import re
from functools import cache
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


def write_once(sock: Any, data: bytes, chunked: bool = False) -> None:
    """gunicorn's `util.write` in one send call where the data fits the socket's buffer (nearly
    always). gevent's sendall asks the kernel for the buffer's size before each send: with a
    thousand live streams written at every change, that second system call was a tenth of the
    worker's time."""
    if isinstance(data, str):
        data = data.encode()
    if chunked:
        data = b"%X\r\n%s\r\n" % (len(data), data)
    sent = sock.send(data)
    if sent < len(data):
        sock.sendall(memoryview(data)[sent:])


class KibitzWorker(GeventWorker):
    """gunicorn's gevent worker whose own error answers carry our headers and problem+json, and
    whose writes cost one system call."""

    def init_process(self) -> None:
        util.write_error = write_problem  # the worker writes its refusals through this function
        util.write = write_once  # … and every response through this one
        super().init_process()


def _escape(value: str) -> str:
    """Control characters (a decoded %0a in a path …) as visible escapes: one request, one line."""
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in value)


# The atoms a format can name that cost next to nothing to work out; gunicorn's own atoms() also
# copies every request header, response header and environ entry for each line, which cost the
# worker an eighth of its time under load for a line that shows six of them.
_CHEAP_ATOMS = {"h", "m", "U", "q", "H", "s", "b", "B", "T", "D", "M", "L"}


@cache
def _atoms_named(access_log_format: str) -> frozenset[str]:
    return frozenset(re.findall(r"%\(([^)]*)\)", access_log_format))


class SafeAccessLogger(Logger):
    """gunicorn's logger, with every access-log field escaped, working out only the fields the
    configured format shows."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        named = _atoms_named(self.cfg.access_log_format)
        if named <= _CHEAP_ATOMS:
            atoms = _cheap_atoms(resp, environ, request_time)
        else:
            atoms = super().atoms(resp, req, environ, request_time)
        return {key: _escape(value) if isinstance(value, str) else value for key, value in atoms.items()}


def _cheap_atoms(resp: Any, environ: Any, request_time: Any) -> dict[str, Any]:
    """The same values gunicorn's atoms() gives for these keys."""
    status = resp.status
    if isinstance(status, str):
        status = status.split(None, 1)[0]
    sent = getattr(resp, "sent", None)
    seconds, micros = request_time.seconds, request_time.microseconds
    return {
        "h": environ.get("REMOTE_ADDR", "-"),
        "m": environ.get("REQUEST_METHOD"),
        "U": environ.get("PATH_INFO"),
        "q": environ.get("QUERY_STRING"),
        "H": environ.get("SERVER_PROTOCOL"),
        "s": status,
        "b": sent is not None and str(sent) or "-",
        "B": sent,
        "T": seconds,
        "D": seconds * 1000000 + micros,
        "M": seconds * 1000 + int(micros / 1000),
        "L": f"{seconds}.{micros:06d}",
    }
