"""The phone is the referee: tables play on with the network cut (`context.set_offline`).

A table opened online goes on offline — 20+ Mahé moves, a Mhing round with its live premiums, a
Magellan auction — survives a reload while offline, and after reconnecting the server's log equals
the phone's and a second phone shows the same table. Two phones offline on one table: a waiting
entry is never appended across the other phone's entries — the players are shown both and choose
(keep mine after theirs, take theirs back, drop mine), and nothing recorded is lost (issue 21).
"""

from __future__ import annotations

import re
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import ApiTable, confirm, open_setup, tap
from .test_pwa_mhing import FLOWERS, create_table_by_ui, enter_hand, scores

MAHE_PLAYERS = [
    {"name": "Eva", "colours": ["red", "yellow"]},
    {"name": "Tom", "colours": ["green", "darkblue"]},
]
LOCAL_TIMEOUT = 30_000  # Pyodide's first start on a busy 2-core machine


def open_local(page: Any, url: str) -> None:
    """Open a table and wait until the phone's own referee holds it and everything is cached."""
    page.goto(url)
    expect(badge(page)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    wait_cached(page)


def wait_cached(page: Any) -> None:
    """The service worker has installed: the app, Pyodide and the rules are in its caches."""
    page.wait_for_function(
        """async () => {
          await navigator.serviceWorker.ready;
          const cache = await caches.open("kibitz-precache");
          const kept = (await cache.keys()).map((r) => new URL(r.url).pathname);
          const referee = ["/referee/rules.", "/referee/stdlib.", "/vendor/pyodide."];
          return referee.every((p) => kept.some((k) => k.startsWith(p)));
        }""",
        timeout=LOCAL_TIMEOUT,
    )


def badge(page: Any) -> Any:
    return page.get_by_test_id("sync-badge")


def phone_log(page: Any, table_id: str) -> dict[str, Any]:
    """What the phone keeps in IndexedDB: the server's log as it knows it and its unsent queue."""
    record: dict[str, Any] = page.evaluate(
        "async (id) => (await import('/js/sync/localdb.js')).getTable(id)", table_id
    )
    return record


def server_events(base: str, table_id: str) -> list[dict[str, Any]]:
    log = requests.get(f"{base}/api/tables/{table_id}/events", timeout=5).json()
    return [entry["event"] for entry in log["events"]]


def record(page: Any, testid: str) -> None:
    tap(page, testid)
    confirm(page)


def mahe_move(page: Any) -> str:
    """One entry of a Mahé turn, by what the screen offers: card, turtle, die 3, stop (MA-3..MA-9)."""
    for testid in ("card-5", "choose-turtle-red", "choose-turtle-green", "stop", "die-3"):
        button = page.get_by_test_id(testid)
        if button.count() and button.is_visible() and button.is_enabled():
            record(page, testid)
            return testid
    raise AssertionError("no Mahé entry offered")


def test_mahe_twenty_moves_offline_reload_and_reconnect(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", MAHE_PLAYERS, {"chance": "physical"})
    page = new_phone()
    open_local(page, table.link)
    expect(badge(page)).to_have_text("Online")

    page.context.set_offline(True)
    expect(badge(page)).to_have_text("Offline")
    played = [mahe_move(page) for _ in range(12)]
    expect(badge(page)).to_have_text("12 moves waiting to sync")
    tap(page, "undo")  # undo works offline too: it is an entry like any other
    confirm(page)
    expect(badge(page)).to_have_text("13 moves waiting to sync")

    page.reload()  # offline: the service worker serves the app, IndexedDB the table
    expect(badge(page)).to_have_text("13 moves waiting to sync", timeout=LOCAL_TIMEOUT)
    expect(badge(page)).to_have_attribute("data-referee", "local")
    played += [mahe_move(page) for _ in range(5)]
    assert requests.get(f"{live_server}/api/tables/{table.id}", timeout=5).json()["version"] == 0
    # The browser closed and opened again, still offline: the phone keeps the table. (Playwright
    # lifts the offline emulation for an instant while a page closes: a send from that instant is
    # stored, its answer lost — the replayed answer later keeps it once. So the server is checked
    # before the close.)
    context = page.context
    page.close()
    page = context.new_page()
    page.goto(table.link)
    expect(badge(page)).to_have_text("18 moves waiting to sync", timeout=LOCAL_TIMEOUT)
    played += [mahe_move(page) for _ in range(4)]
    expect(badge(page)).to_have_text("22 moves waiting to sync")

    page.context.set_offline(False)
    expect(badge(page)).to_have_text("Online", timeout=20_000)
    kept = phone_log(page, table.id)
    assert kept["queue"] == []
    assert server_events(live_server, table.id) == kept["serverEvents"]
    assert len(kept["serverEvents"]) == 22
    # The undo names the entry it took back: the 12th, the last one in effect when it was tapped.
    assert [e for e in kept["serverEvents"] if e["type"] == "undo"] == [{"type": "undo", "undoes": 12}]
    assert {"type": "stop"} in kept["serverEvents"], played

    other = new_phone()
    other.goto(table.link)
    for testid in ("turn-info", "last-move", "scoreboard"):
        expect(other.get_by_test_id(testid)).to_have_text(page.get_by_test_id(testid).text_content() or "")


def test_mhing_round_offline(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    table_id = create_table_by_ui(page, live_server)
    open_local(page, f"{live_server}/#/t/{table_id}")
    page.context.set_offline(True)
    expect(badge(page)).to_have_text("Offline")
    tap(page, "went-out")
    tap(page, "winner-0")
    tap(page, "discarder-2")
    enter_hand(page)  # the waits and premiums come from the phone's referee (MH-6, MH-8)
    tap(page, "pick-k2")
    tap(page, "add-flower")
    expect(page.get_by_test_id("flowers")).to_have_attribute("data-cards", FLOWERS)
    expect(page.get_by_test_id("entry-summary")).to_have_text("9 premiums · 64 points")
    tap(page, "record-hand")
    confirm(page, "Eva went out")
    scores(page, 692, 436, 372)  # MH-9 variant 2, settled on the phone
    expect(badge(page)).to_have_text("1 move waiting to sync")

    page.context.set_offline(False)
    expect(badge(page)).to_have_text("Online", timeout=20_000)
    assert server_events(live_server, table_id) == phone_log(page, table_id)["serverEvents"]
    other = new_phone()
    other.goto(f"{live_server}/#/t/{table_id}")
    scores(other, 692, 436, 372)


def test_magellan_auction_offline(live_server: str, new_phone: Any) -> None:
    table = ApiTable(
        live_server,
        "magellan",
        [{"name": n} for n in ("Eva", "Tom", "Ann")],
        {"depth": "outcomes", "chance": "physical"},
    )
    page = new_phone()
    open_local(page, table.link)
    page.context.set_offline(True)
    explorer = page.locator("[data-testid^='mg-reveal-']:enabled").first
    name = explorer.get_attribute("data-testid")
    explorer.tap()
    confirm(page, "is turned up")
    tap(page, "mg-bid")
    confirm(page, "bids 1")
    tap(page, "mg-pass")
    confirm(page)
    tap(page, "mg-pass")
    confirm(page, "for 1")  # MG-4: the last bid standing wins
    expect(badge(page)).to_have_text("4 moves waiting to sync")

    page.context.set_offline(False)
    expect(badge(page)).to_have_text("Online", timeout=20_000)
    events = server_events(live_server, table.id)
    assert events == phone_log(page, table.id)["serverEvents"]
    assert events[0] == {"type": "reveal", "explorer": name.removeprefix("mg-reveal-")}
    assert [e["type"] for e in events[1:]] == ["bid", "pass", "pass"]
    assert table.refresh()["state"]["history"][-1]["outcome"] == "sold"


def two_phones_offline(live_server: str, new_phone: Any, game: str) -> tuple[ApiTable, Any, Any]:
    table = (
        ApiTable(live_server, "mahe", MAHE_PLAYERS, {"chance": "physical"})
        if game == "mahe"
        else ApiTable(live_server, "mhing", [{"name": n} for n in ("Eva", "Tom", "Ann")], {})
    )
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
        page.context.set_offline(True)
    return table, first, second


def test_two_phones_offline_keep_mine_after_theirs(live_server: str, new_phone: Any) -> None:
    """Both phones record a drawn Mhing round offline. It still fits after the other phone's, but
    fitting is not meaning the same: the second phone is shown both and its players decide; they
    keep theirs after the other one, and both rounds stand, in the order they reached the server."""
    table, first, second = two_phones_offline(live_server, new_phone, "mhing")
    for page in (first, second):
        tap(page, "drawn")
        confirm(page)
        expect(badge(page)).to_have_text("1 move waiting to sync")
    first.context.set_offline(False)
    expect(badge(first)).to_have_text("Online", timeout=20_000)
    second.context.set_offline(False)
    sheet = second.get_by_test_id("conflict-sheet")
    expect(sheet).to_be_visible(timeout=20_000)
    assert [e["type"] for e in server_events(live_server, table.id)] == ["round_drawn"]  # nothing unasked
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("another phone")
    sheet.get_by_test_id("conflict-after").tap()
    expect(badge(second)).to_have_text("Online", timeout=20_000)
    events = server_events(live_server, table.id)
    assert [e["type"] for e in events] == ["round_drawn", "round_drawn"]
    assert phone_log(second, table.id)["serverEvents"] == events
    expect(first.get_by_test_id("round-info")).to_have_text(second.get_by_test_id("round-info").inner_text())


def both_turn_up_a_card(live_server: str, new_phone: Any) -> tuple[ApiTable, Any, Any, Any]:
    """Both phones turn up the first egg card offline, 4 and 5; the first reconnects first, so the
    second phone's 5 meets a card already turned up: its conflict sheet opens."""
    table, first, second = two_phones_offline(live_server, new_phone, "mahe")
    record(first, "card-4")
    record(second, "card-5")
    first.context.set_offline(False)
    expect(badge(first)).to_have_text("Online", timeout=20_000)
    second.context.set_offline(False)
    sheet = second.get_by_test_id("conflict-sheet")
    expect(sheet).to_be_visible(timeout=20_000)
    return table, first, second, sheet


def test_two_phones_offline_conflict_keep_mine(live_server: str, new_phone: Any) -> None:
    """Both phones turn up the first egg card offline (MA-7): the second one no longer fits. Its
    players see what the other phone recorded and keep their own: the other card is taken back by a
    recorded undo, nothing is lost from the log."""
    table, first, second, sheet = both_turn_up_a_card(live_server, new_phone)
    expect(badge(second)).to_have_attribute("data-state", "conflict")
    expect(second.get_by_test_id("conflict-theirs")).to_contain_text("4 eggs")
    expect(second.get_by_test_id("conflict-mine")).to_contain_text("5 eggs")
    expect(sheet.get_by_test_id("conflict-after")).to_be_disabled()  # two cards cannot both be up
    expect(sheet.get_by_test_id("conflict-after-why")).to_be_visible()
    sheet.get_by_test_id("conflict-back").tap()  # take theirs back, keep mine
    expect(badge(second)).to_have_text("Online", timeout=20_000)
    events = server_events(live_server, table.id)
    assert events == [
        {"type": "reveal_card", "value": 4},
        {"type": "undo", "undoes": 1},
        {"type": "reveal_card", "value": 5},
    ]
    assert table.refresh()["state"]["face_up"] == 5
    expect(first.get_by_test_id("face-up")).to_contain_text("5", timeout=5000)


def test_two_phones_offline_conflict_keep_theirs(live_server: str, new_phone: Any) -> None:
    table, _first, second, sheet = both_turn_up_a_card(live_server, new_phone)
    sheet.get_by_test_id("conflict-drop").tap()  # keep theirs: the players chose to drop the 5
    expect(badge(second)).to_have_text("Online", timeout=20_000)
    assert server_events(live_server, table.id) == [{"type": "reveal_card", "value": 4}]
    assert phone_log(second, table.id)["queue"] == []
    expect(second.get_by_test_id("face-up")).to_contain_text("4")


def test_table_started_offline_is_created_when_back(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    open_setup(page, live_server, "mahe")
    page.evaluate("async () => (await import('/js/referee/client.js')).startReferee()")
    wait_cached(page)
    page.context.set_offline(True)
    page.get_by_test_id("player-name-0").fill("Eva")
    page.get_by_test_id("player-name-1").fill("Tom")
    tap(page, "create-table")
    expect(badge(page)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    local_id = page.evaluate("location.hash").split("/t/")[1]
    assert local_id.startswith("local-")
    record(page, "card-3")
    expect(badge(page)).to_have_text("1 move waiting to sync")
    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"#/t/(?!local-)"), timeout=20_000)
    expect(badge(page)).to_have_text("Online", timeout=20_000)
    table_id = page.evaluate("location.hash").split("/t/")[1]
    assert server_events(live_server, table_id) == [{"type": "reveal_card", "value": 3}]
