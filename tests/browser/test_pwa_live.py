"""The phone follows a table through its live stream (Server-Sent Events) instead of asking once a
second, and falls back to conditional polling where a stream cannot be held open."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect

from .helpers import ApiTable

FOUR = [
    {"name": n, "colours": [c]}
    for n, c in (("Eva", "red"), ("Tom", "green"), ("Ann", "yellow"), ("Bo", "purple"))
]


STREAM = re.compile(r"/stream(\?|$)")  # the live stream, whatever its query


def _table_reads(requests_seen: list[str], table_id: str) -> int:
    return sum(1 for url in requests_seen if url.endswith(f"/api/tables/{table_id}"))


def test_the_phone_streams_instead_of_polling(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", FOUR, {"chance": "physical"})
    page = new_phone()
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    page.goto(table.link)
    expect(page.get_by_test_id("board")).to_be_visible()
    page.wait_for_timeout(500)
    # In the app's language (an EventSource cannot send Accept-Language, so the stream asks ?lang=),
    # each change as a patch on the table it has.
    assert any(url.endswith(f"/api/tables/{table.id}/stream?patches=true&lang=en") for url in seen), seen
    before = _table_reads(seen, table.id)
    page.wait_for_timeout(3000)
    assert _table_reads(seen, table.id) == before, "no once-a-second polling while the stream is open"

    posted = time.monotonic()
    table.post({"type": "reveal_card", "value": 4})
    expect(page.get_by_test_id("face-up")).to_contain_text("4", timeout=2000)
    assert time.monotonic() - posted <= 2.0

    # Another language chosen in the app: the stream starts again in it, and still follows the table.
    page.evaluate("""async () => (await import("/js/i18n.js")).setLanguage("de")""")
    # Patches, or the log alone once the phone's referee holds the table (test_pwa_lean_stream.py),
    # which names the version it has when it has had a whole table from this stream.
    in_german = re.compile(rf"/api/tables/{table.id}/stream\?(patches=true|view=log(&since=\d+)?)&lang=de$")
    for _ in range(50):  # the new stream's request, at most 5 s away
        if any(in_german.search(url) for url in seen):
            break
        page.wait_for_timeout(100)
    assert any(in_german.search(url) for url in seen), [url for url in seen if "/stream" in url]
    table.post({"type": "die", "value": 5})
    expect(page.get_by_test_id("dice")).to_contain_text("5", timeout=3000)


def test_without_a_stream_the_phone_polls(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", FOUR, {"chance": "physical"})
    page = new_phone(service_workers="block")
    page.route(STREAM, lambda route: route.abort())  # e.g. a proxy that cannot hold streams
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    page.goto(table.link)
    expect(page.get_by_test_id("board")).to_be_visible()
    table.post({"type": "reveal_card", "value": 6})
    expect(page.get_by_test_id("face-up")).to_contain_text("6", timeout=10_000)
    # The stream gives up after three failed tries (a few seconds); then the phone polls.
    for _ in range(30):
        if _table_reads(seen, table.id) >= 2:
            break
        page.wait_for_timeout(500)
    assert _table_reads(seen, table.id) >= 2, "conditional polling took over"
    table.post({"type": "die", "value": 2})
    expect(page.get_by_test_id("dice")).to_contain_text("2", timeout=5000)


def test_a_refused_stream_falls_back_to_polling_at_once(live_server: str, new_phone: Any) -> None:
    """A server over its per-client stream cap answers 429 (issue 22): the browser gives such a
    stream up for good, so the phone polls instead of going quiet."""
    table = ApiTable(live_server, "mahe", FOUR, {"chance": "physical"})
    page = new_phone(service_workers="block")
    problem = '{"code": "too-many-streams", "status": 429, "detail": "Too many live streams"}'
    page.route(
        STREAM,
        lambda route: route.fulfill(
            status=429, body=problem, headers={"Content-Type": "application/problem+json", "Retry-After": "5"}
        ),
    )
    page.goto(table.link)
    expect(page.get_by_test_id("board")).to_be_visible()
    table.post({"type": "reveal_card", "value": 6})
    expect(page.get_by_test_id("face-up")).to_contain_text("6", timeout=5000)
