"""The lean stream in the phone (issue 36): once its own referee holds an open-record table, the phone
opens the table's stream again as `?view=log&since=<its version>` and takes only the log entries
from it; after changes from another phone it shows exactly what a phone without a referee (whole
tables and patches from the server) shows, without reading the log or the table again."""

from __future__ import annotations

import re
from typing import Any

from .helpers import ApiTable

FOUR = [
    {"name": n, "colours": [c]}
    for n, c in (("Eva", "red"), ("Tom", "green"), ("Ann", "yellow"), ("Bo", "purple"))
]
SHOWN = ["board", "scoreboard", "turn-info", "dice", "face-up"]  # what both phones draw of the table


def _next_move(table: dict[str, Any], value: int) -> dict[str, Any]:
    phase = table["legal_actions"]["phase"]
    if phase == "reveal_card":
        return {"type": "reveal_card", "value": 3}
    return {"type": "stop"} if phase == "decide" else {"type": "die", "value": value}


def _shown(page: Any) -> list[str]:
    return [
        (page.get_by_test_id(name).first.text_content() or "") if page.get_by_test_id(name).count() else ""
        for name in SHOWN
    ]


def test_a_phone_on_the_lean_stream_shows_what_the_server_shows(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", FOUR, {"chance": "physical"})
    lean = new_phone()
    urls: list[str] = []
    lean.on("request", lambda request: urls.append(request.url))
    said: list[str] = []
    lean.on("console", lambda message: said.append(message.text))
    lean.goto(table.link)
    lean.get_by_test_id("board").wait_for()
    switched = re.compile(rf"/api/tables/{table.id}/stream\?view=log&since=(\d+)&lang=en$")
    for _ in range(600):  # the referee arrives (Pyodide): at most 60 s on a loaded machine
        if any(switched.search(url) for url in urls):
            break
        lean.wait_for_timeout(100)
    assert any(switched.search(url) for url in urls), ([u for u in urls if "/api/" in u], said)
    assert any(url.endswith("/stream?patches=true&lang=en") for url in urls)  # before the referee

    # A phone without a referee: the server's whole tables and patches.
    plain = new_phone()
    plain.add_init_script("Object.defineProperty(window, 'WebAssembly', { value: undefined })")
    plain_urls: list[str] = []
    plain.on("request", lambda request: plain_urls.append(request.url))
    plain.goto(table.link)
    plain.get_by_test_id("board").wait_for()

    reads_before = [url for url in urls if re.search(rf"/api/tables/{table.id}(/events)?(\?.*)?$", url)]
    for value in (1, 2, 6, 3, 1, 5, 4):  # dice, stops, a card revealed: another phone's changes
        table.post(_next_move(table.table, value))
        want = None
        for _ in range(100):
            lean_shows, plain_shows = _shown(lean), _shown(plain)
            if lean_shows == plain_shows and plain_shows == want:
                break
            want = plain_shows  # the same twice in a row: both have settled
            lean.wait_for_timeout(100)
        assert _shown(lean) == _shown(plain), table.table["version"]
    reads_after = [url for url in urls if re.search(rf"/api/tables/{table.id}(/events)?(\?.*)?$", url)]
    assert reads_after == reads_before, "the entries came on the stream: no read of the table or its log"
    assert not any("view=log" in url for url in plain_urls)
