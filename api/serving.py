"""How gunicorn serves Kibitz: a gevent worker (cheap idle phones, stalled clients cost a greenlet,
not a thread) that caps each client's open connections and gives every request body a deadline,
gunicorn's own error answers as problem+json with our security headers, and an access log that
cannot be forged with control characters in a path."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import socket
import time
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

import gevent
from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.workers.ggevent import GeventWorker

from api.config import MAX_BODY_BYTES
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
    408: "request-timeout",
    414: "uri-too-long",
    417: "expectation-failed",
    429: "too-many-connections",
    431: "header-fields-too-large",
    500: "internal-error",
    501: "not-implemented",
}


def problem_bytes(status_int: int, reason: str, mesg: str, headers: dict[str, str] | None = None) -> bytes:
    """A whole HTTP/1.1 problem+json answer that closes the connection."""
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
    head += [f"{name}: {value}" for name, value in {**SECURITY_HEADERS, **(headers or {})}.items()]
    head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own refusals (malformed request line, too long a URI, too many headers …)."""
    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


@dataclass(frozen=True)
class ServingLimits:
    """Per-client limits the worker keeps before a request reaches the app (README, "Limits").

    `connections`: open connections per client address, 0 for none. Behind trusted reverse proxies
    (KIBITZ_TRUSTED_PROXIES) every connection comes from a proxy, so the cap is off unless
    KIBITZ_CLIENT_CONNECTIONS is set: the proxy limits its clients' connections (nginx `limit_conn`).
    `body_seconds`: the time a request body has to arrive in full, or 408 and the connection closes.
    `max_body`: the largest body read ahead (larger ones get 413 from the app without being read).
    """

    connections: int
    body_seconds: float
    max_body: int

    @classmethod
    def from_env(cls) -> ServingLimits:
        proxied = int(os.environ.get("KIBITZ_TRUSTED_PROXIES") or "0") > 0
        connections = int(os.environ.get("KIBITZ_CLIENT_CONNECTIONS") or ("0" if proxied else "200"))
        return cls(connections, float(os.environ.get("KIBITZ_BODY_TIMEOUT") or "10"), MAX_BODY_BYTES)


TOO_MANY_CONNECTIONS = problem_bytes(
    429,
    "Too Many Requests",
    "Too many open connections from your address; close some and try again.",
    {"Retry-After": "5"},
)
BODY_TOO_SLOW = problem_bytes(
    408, "Request Timeout", "The request body did not arrive in time; the connection is closed."
)


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
    """gunicorn's gevent worker whose own error answers carry our headers and problem+json, whose
    writes cost one system call, with a cap on each client's open connections and a deadline for
    each request body."""

    def init_process(self) -> None:
        util.write_error = write_problem  # the worker writes its refusals through this function
        util.write = write_once  # … and every response through this one
        self.limits = ServingLimits.from_env()
        self.open_connections: Counter[str] = Counter()
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        who = addr[0] if isinstance(addr, tuple) else None  # a Unix socket has no client address
        if who is None or self.limits.connections <= 0:
            super().handle(listener, client, addr)
            return
        if self.open_connections[who] >= self.limits.connections:
            _refuse(client, TOO_MANY_CONNECTIONS)
            return
        self.open_connections[who] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.open_connections[who] -= 1
            if not self.open_connections[who]:
                del self.open_connections[who]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        if not _body_in_time(req, sock, self.limits):
            with contextlib.suppress(OSError):
                sock.sendall(BODY_TOO_SLOW)
            self.log.info("408: a request body did not arrive within %ss", self.limits.body_seconds)
            raise StopIteration  # gunicorn closes the connection
        return super().handle_request(listener_name, req, sock, addr)


def _refuse(client: socket.socket, answer: bytes) -> None:
    """Answer at once and close, with no greenlet left waiting on the client: read what the request
    already sent (so closing does not reset the connection before the answer is read), answer, close."""
    try:
        client.settimeout(0.2)
        with contextlib.suppress(OSError):
            client.recv(65536)
        client.sendall(answer)
        client.shutdown(socket.SHUT_WR)
        client.setblocking(False)
        with contextlib.suppress(OSError):
            client.recv(65536)
    except OSError:
        pass
    finally:
        util.close(client)


def _body_in_time(req: Any, sock: Any, limits: ServingLimits) -> bool:
    """Read a request's body ahead, within `limits.body_seconds` in all; False when it is too slow.

    gunicorn's gevent worker has no deadline for a body: a client trickling one byte every few
    seconds held its greenlet (and a connection slot) for as long as it liked. A body over
    `max_body` is not read ahead: the app refuses it with 413 and the connection closes.
    """
    length, chunked = None, False
    for name, value in req.headers:
        if name == "CONTENT-LENGTH":
            length = int(value) if value.isdigit() else None
        elif name == "TRANSFER-ENCODING" and "chunked" in value.lower():
            chunked = True
    if not chunked and not length:
        return True  # no body: a request body always has a length or chunks
    if length is not None and length > limits.max_body:
        req.force_close()  # not worth draining after the 413
        return True
    if getattr(req, "_expected_100_continue", False):
        # The client waits for this before it sends the body (gunicorn would say it only later).
        sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        req._expected_100_continue = False
    try:
        with gevent.Timeout(limits.body_seconds):
            data = req.body.read(limits.max_body + 1)
    except gevent.Timeout:
        return False
    if len(data) > limits.max_body:
        req.force_close()  # the rest of an oversize chunked body is never read
    req.body = io.BytesIO(data)
    return True


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
    configured format shows; with KIBITZ_LOG_FORMAT=json (the deployment) each request is one JSON
    object (structured logs: time, client, method, path, status, bytes, seconds)."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if os.environ.get("KIBITZ_LOG_FORMAT") != "json":
            super().access(resp, req, environ, request_time)
            return
        if not (self.cfg.accesslog or self.cfg.logconfig or self.cfg.syslog):
            return
        atoms = _cheap_atoms(resp, environ, request_time)
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "client": atoms["h"],
            "method": atoms["m"],
            "path": atoms["U"],
            "status": int(atoms["s"]) if str(atoms["s"]).isdigit() else atoms["s"],
            "bytes": atoms["B"],
            "seconds": round(request_time.total_seconds(), 6),
        }
        self.access_log.info(json.dumps(line, ensure_ascii=True))

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
