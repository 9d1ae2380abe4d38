"""Appends never wait for streams (issue 36): the press, which writes each change to every stream of
a table, makes way while a request is being answered and just after a write (the next append of a
run is on its way) — but never without end, so a storm of requests cannot starve the phones. How
much an append gains is measured in `benchmarks/push/crowded.py`; here, what the press does."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from unittest import mock

import pytest
from flask import Flask

from api.push import press
from api.push.press import Requests, make_way


@pytest.fixture(autouse=True)
def quiet_process() -> Iterator[None]:
    answering, wrote_at = Requests.answering, Requests.wrote_at
    Requests.answering, Requests.wrote_at = 0, float("-inf")
    yield
    Requests.answering, Requests.wrote_at = answering, wrote_at


def waiting(deadline: float) -> threading.Thread:
    thread = threading.Thread(target=make_way, args=(deadline,), daemon=True)
    thread.start()
    return thread


def test_the_press_waits_while_a_request_is_answered_and_goes_on_after() -> None:
    Requests.answering = 1
    press_ = waiting(time.monotonic() + 30)
    press_.join(0.2)
    assert press_.is_alive()  # a request in flight: nothing is written
    Requests.answering = 0
    Requests.wrote_at = time.monotonic()  # it was an append: the press waits for the quiet too
    press_.join(5)
    assert not press_.is_alive()


def test_a_storm_of_requests_cannot_starve_the_phones() -> None:
    Requests.answering = 1  # never ends
    with mock.patch.object(press, "STARVE_AT_MOST", 0.2):
        began = time.monotonic()
        press_ = waiting(began + 0.1)
        press_.join(10)
        assert not press_.is_alive()


def test_every_request_but_a_stream_is_counted(app: Flask) -> None:
    seen: list[int] = []
    app.add_url_rule("/api/probe", "probe", lambda: str(seen.append(Requests.answering) or "ok"))
    app.add_url_rule(
        "/api/tables/x/stream", "probe_stream", lambda: str(seen.append(Requests.answering) or "ok")
    )
    client = app.test_client()
    assert client.get("/api/probe").status_code == 200
    assert client.post("/api/tables", json={}).status_code in (400, 422)
    assert client.get("/api/tables/x/stream").status_code == 200
    assert seen == [1, 0] and Requests.answering == 0  # a stream is not what the press makes way for
    assert Requests.wrote_at > time.monotonic() - 60  # the POST was a write
