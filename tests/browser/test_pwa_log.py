"""The move log on the table page (issue 26 item 5): every entry in words, who recorded it (this
phone or another — the server's log does not name the phone or seat), when (the phone's local
time), undo entries with what they took back; a replay that steps through the game (first, previous,
next, last, a slider) showing the table after entry k, worked out by the phone's own referee — so
it works offline too, for a table already on the phone — or, for a table whose dice the server
draws, by the server.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import requests
from playwright.sync_api import expect

from .helpers import ApiTable, assert_no_horizontal_scroll, confirm, tap
from .test_pwa_offline import LOCAL_TIMEOUT, MAHE_PLAYERS, badge, open_local, record, wait_cached

ZONE = "Asia/Kolkata"  # UTC+05:30: a local time that is visibly not the server's UTC


def open_log(page: Any) -> Any:
    tap(page, "open-log")
    view = page.get_by_test_id("log-view")
    expect(view).to_be_visible()
    expect(view.get_by_test_id("log-list")).to_be_visible(timeout=LOCAL_TIMEOUT)
    return view


def entry(view: Any, seq: int) -> Any:
    return view.get_by_test_id(f"log-entry-{seq}")


def server_times(base: str, table_id: str) -> list[datetime]:
    """When the server stored each entry (SQLite answers UTC without its zone)."""
    log = requests.get(f"{base}/api/tables/{table_id}/events", timeout=5).json()
    times = [datetime.fromisoformat(e["at"]) for e in log["events"]]
    return [at if at.tzinfo else at.replace(tzinfo=UTC) for at in times]


def turtle_field(view: Any, colour: str) -> Any:
    """The replayed board's turtle (data-field 0: on the raft)."""
    return view.get_by_test_id("replay-state").get_by_test_id(f"turtle-{colour}")


def step_to(view: Any, testid: str, step: int) -> None:
    tap(view, testid)
    expect(view.get_by_test_id("replay-step")).to_have_attribute("data-step", str(step))


def test_mahe_log_in_words_who_when_undo_and_replay_offline(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", MAHE_PLAYERS, {"chance": "physical"})
    # Another phone (the API with the table's key) records the first two entries (MA-7, MA-9).
    table.post({"type": "reveal_card", "value": 5})
    table.post({"type": "choose_turtle", "turtle": "red"})
    page = new_phone(timezone_id=ZONE)
    open_local(page, table.link)
    # This phone: red moves 3 (MA-3, MA-4); yellow 2, taken back; yellow 2 + 1 on two dice: 3 × 2 = 6.
    for testid in ("die-3", "stop", "die-2", "stop"):
        record(page, testid)
    tap(page, "undo")
    confirm(page)
    for testid in ("die-1", "stop"):
        record(page, testid)
    expect(badge(page)).to_have_text("Online", timeout=20_000)  # everything is on the server

    view = open_log(page)
    items = view.get_by_test_id("log-list").locator("li")
    expect(items).to_have_count(9)
    # In words, as the toasts say them.
    expect(entry(view, 1).get_by_test_id("log-text")).to_contain_text("5")
    expect(entry(view, 2).get_by_test_id("log-text")).to_contain_text("Red")
    expect(entry(view, 3).get_by_test_id("log-text")).to_contain_text("Die: 3")
    expect(entry(view, 4).get_by_test_id("log-text")).to_contain_text("field 3")
    # Who: the first two came from another phone, the rest from this one.
    for seq in (1, 2):
        expect(entry(view, seq).get_by_test_id("log-who")).to_have_text("Another phone")
    for seq in range(3, 10):
        expect(entry(view, seq).get_by_test_id("log-who")).to_have_text("This phone")
    # The undo says what it took back; the entry it took back says by which entry (GEN-2).
    undo = entry(view, 7)
    expect(undo).to_have_attribute("data-kind", "undo")
    six = entry(view, 6).get_by_test_id("log-text").inner_text()
    expect(undo.get_by_test_id("log-text")).to_have_text(f"Undo of entry 6: {six}")
    expect(entry(view, 6).get_by_test_id("log-undone-by")).to_have_text("taken back by entry 7")
    expect(entry(view, 5).get_by_test_id("log-undone-by")).to_have_count(0)
    # When: the server's time of each entry in the phone's own zone.
    times = server_times(live_server, table.id)
    for seq in (1, 2):
        local = times[seq - 1].astimezone(ZoneInfo(ZONE))
        expect(entry(view, seq).get_by_test_id("log-when")).to_contain_text(local.strftime("%I:%M"))
    for seq in range(3, 10):  # this phone's own: tapped here, seconds before the server stored them
        shown = entry(view, seq).get_by_test_id("log-when").get_attribute("datetime")
        assert shown and abs((datetime.fromisoformat(shown) - times[seq - 1]).total_seconds()) < 60

    # The replay opens at the table now, then steps through it.
    expect(view.get_by_test_id("replay-step")).to_contain_text("After entry 9 of 9")
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "6")
    step_to(view, "replay-first", 0)
    expect(view.get_by_test_id("replay-step")).to_contain_text("Before the first entry")
    expect(view.get_by_test_id("replay-prev")).to_be_disabled()
    for colour in ("red", "yellow", "green", "darkblue"):
        expect(turtle_field(view, colour)).to_have_attribute("data-field", "0")  # all on the raft (MA-2)
    for step in range(1, 5):
        step_to(view, "replay-next", step)
    expect(view.get_by_test_id("replay-step-text")).to_contain_text("field 3")
    expect(turtle_field(view, "red")).to_have_attribute("data-field", "3")
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "0")
    expect(entry(view, 4).locator("button")).to_have_attribute("aria-current", "step")
    step_to(view, "replay-next", 5)
    step_to(view, "replay-next", 6)
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "2")
    step_to(view, "replay-next", 7)  # the undo: yellow is back on the raft
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "0")
    step_to(view, "replay-prev", 6)
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "2")
    view.get_by_test_id("replay-slider").fill("4")
    expect(view.get_by_test_id("replay-step")).to_have_attribute("data-step", "4")
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "0")
    entry(view, 9).locator("button").tap()  # an entry shows the table after it
    expect(view.get_by_test_id("replay-step")).to_have_attribute("data-step", "9")
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "6")
    expect(view.get_by_test_id("replay-next")).to_be_disabled()  # the table now: nothing after it
    expect(view.get_by_test_id("replay-last")).to_be_disabled()
    step_to(view, "replay-first", 0)
    step_to(view, "replay-last", 9)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-log-360x740.png")
    # The step controls sit under the thumb, big enough.
    for testid in ("replay-first", "replay-prev", "replay-next", "replay-last"):
        box = view.get_by_test_id(testid).bounding_box()
        assert box and box["y"] >= 740 / 2 and box["y"] + box["height"] <= 740 and box["height"] >= 48, testid
    tap(view, "log-close")
    expect(page.get_by_test_id("log-view")).to_have_count(0)
    expect(page.get_by_test_id("open-log")).to_be_focused()  # back where the player was

    # Offline, after a reload: the phone's store and referee still give the log and the replay;
    # an entry recorded offline is shown as this phone's, waiting to sync.
    page.context.set_offline(True)
    page.reload()
    expect(badge(page)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    record(page, "choose-turtle-green")  # Tom's turn (MA-9)
    expect(badge(page)).to_have_text("1 move waiting to sync")
    view = open_log(page)
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(10)
    expect(entry(view, 10).get_by_test_id("log-who")).to_have_text("This phone")
    expect(entry(view, 10).get_by_test_id("log-waiting")).to_be_visible()
    expect(entry(view, 1).get_by_test_id("log-who")).to_have_text("Another phone")
    first_at = times[0].astimezone(ZoneInfo(ZONE)).strftime("%I:%M")
    expect(entry(view, 1).get_by_test_id("log-when")).to_contain_text(first_at)
    expect(entry(view, 7).get_by_test_id("log-text")).to_contain_text("Undo of entry 6")
    step_to(view, "replay-first", 0)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", "0")
    for step in range(1, 5):
        step_to(view, "replay-next", step)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", "3")
    step_to(view, "replay-last", 10)
    expect(turtle_field(view, "yellow")).to_have_attribute("data-field", "6")


def scores_shown(view: Any) -> list[str]:
    state = view.get_by_test_id("replay-state")
    return [state.get_by_test_id(f"score-{seat}").inner_text() for seat in range(3)]


def test_mhing_log_in_german_with_undo_and_replayed_scores(live_server: str, new_phone: Any) -> None:
    players = [{"name": "Eva"}, {"name": "Tom"}, {"name": "Ann"}]
    table = ApiTable(live_server, "mhing", players, {})
    events = [
        {"type": "round_points", "winner": 2, "points": 64, "discarder": None},  # another phone (MH-8)
    ]
    table.post(events[0])
    page = new_phone(locale="de-DE", timezone_id=ZONE)
    open_local(page, table.link)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # This phone: Tom 32 from the stack, taken back; Eva 16 from the stack.
    for winner, points in ((1, 32), (0, 16)):
        tap(page, "points-only")
        tap(page, f"winner-{winner}")
        tap(page, "from-stack")
        tap(page, f"points-{points}")
        confirm(page)
        if winner == 1:
            tap(page, "undo")
            confirm(page)
    expect(badge(page)).to_have_attribute("data-state", "online", timeout=20_000)
    # What the server says the scores were after each entry: the replay must show the same.
    mirror = ApiTable(live_server, "mhing", players, {})
    expected = [[str(p["score"]) for p in mirror.state["players"]]]
    events += [
        {"type": "round_points", "winner": 1, "points": 32, "discarder": None},
        {"type": "undo"},
        {"type": "round_points", "winner": 0, "points": 16, "discarder": None},
    ]
    for event in events:
        expected.append([str(p["score"]) for p in mirror.post(event)["state"]["players"]])
    assert expected[2] != expected[3] == expected[1], expected  # the undo restores the scores (GEN-2)

    view = open_log(page)
    expect(view.get_by_role("heading", name="Zugprotokoll")).to_be_visible()
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(4)
    expect(entry(view, 1).get_by_test_id("log-text")).to_contain_text("Ann hat Schluss gemacht")
    expect(entry(view, 1).get_by_test_id("log-text")).to_contain_text("64 Punkte eingetippt")
    expect(entry(view, 1).get_by_test_id("log-who")).to_have_text("Ein anderes Handy")
    for seq in (2, 3, 4):
        expect(entry(view, seq).get_by_test_id("log-who")).to_have_text("Dieses Handy")
    two = entry(view, 2).get_by_test_id("log-text").inner_text()
    assert "Tom" in two and "32" in two
    expect(entry(view, 3).get_by_test_id("log-text")).to_have_text(f"Rücknahme von Eintrag 2: {two}")
    expect(entry(view, 2).get_by_test_id("log-undone-by")).to_have_text("zurückgenommen durch Eintrag 3")
    at = server_times(live_server, table.id)[0].astimezone(ZoneInfo(ZONE))
    expect(entry(view, 1).get_by_test_id("log-when")).to_contain_text(at.strftime("%H:%M"))  # 24 h in German

    expect(view.get_by_test_id("replay-step")).to_contain_text("Nach Eintrag 4 von 4")
    assert scores_shown(view) == expected[4]
    step_to(view, "replay-first", 0)
    expect(view.get_by_test_id("replay-step")).to_contain_text("Vor dem ersten Eintrag")
    assert scores_shown(view) == expected[0]
    for step in (1, 2, 3):
        step_to(view, "replay-next", step)
        assert scores_shown(view) == expected[step], step
    expect(view.get_by_test_id("replay-next")).to_have_attribute("aria-label", "Nächster Eintrag")
    # Another phone records while the log is open: it follows (the live stream's entries say when
    # they were stored), and the replay stays at the step the player looks at.
    table.refresh()
    table.post({"type": "round_points", "winner": 2, "points": 2, "discarder": None})
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(5)
    expect(entry(view, 5).get_by_test_id("log-who")).to_have_text("Ein anderes Handy")
    fifth = server_times(live_server, table.id)[4].astimezone(ZoneInfo(ZONE))
    expect(entry(view, 5).get_by_test_id("log-when")).to_contain_text(fifth.strftime("%H:%M:%S"))
    expect(view.get_by_test_id("replay-step")).to_have_attribute("data-step", "3")
    assert scores_shown(view) == expected[3]

    # Offline after the first visit: the log and its replay come from the phone.
    tap(view, "log-close")
    page.context.set_offline(True)
    page.reload()
    expect(badge(page)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    view = open_log(page)
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(5)
    expect(entry(view, 3).get_by_test_id("log-text")).to_contain_text("Rücknahme von Eintrag 2")
    expect(entry(view, 5).get_by_test_id("log-when")).to_contain_text(fifth.strftime("%H:%M:%S"))
    step_to(view, "replay-first", 0)
    step_to(view, "replay-next", 1)
    assert scores_shown(view) == expected[1]
    step_to(view, "replay-prev", 0)
    step_to(view, "replay-last", 5)
    step_to(view, "replay-prev", 4)
    assert scores_shown(view) == expected[4]


def test_a_table_the_server_referees_replays_from_the_server(live_server: str, new_phone: Any) -> None:
    """Digital dice come from the server's secret seed (MA-12): the phone cannot replay that table
    itself, so its log and replay come from the server's (GET …/replay) — and, once read, offline
    too (the service worker keeps the last answer)."""
    table = ApiTable(live_server, "mahe", MAHE_PLAYERS, {"chance": "digital"})
    table.post({"type": "choose_turtle", "turtle": "red"})  # MA-9
    table.post({"type": "die"})  # the server rolls (MA-3)
    moved = table.post({"type": "stop"})["state"]["last_move"]
    assert moved["turtle"] == "red" and moved["to"] > 0
    table.post({"type": "die"})
    page = new_phone()
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    wait_cached(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # its reads go through it

    view = open_log(page)
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(4)
    expect(entry(view, 1).get_by_test_id("log-text")).to_contain_text("Red")
    expect(entry(view, 2).get_by_test_id("log-text")).to_contain_text("so far")  # the roll in words
    expect(view.get_by_test_id("log-unavailable")).to_have_count(0)
    step_to(view, "replay-first", 0)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", "0")  # on the raft (MA-2)
    step_to(view, "replay-next", 1)
    step_to(view, "replay-next", 2)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", "0")  # rolled, not yet moved
    step_to(view, "replay-next", 3)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", str(moved["to"]))
    expect(view.get_by_test_id("replay-step-text")).to_contain_text(str(moved["to"]))
    tap(view, "log-close")

    # Offline now: the server's answers the phone last read are still there.
    page.context.set_offline(True)
    view = open_log(page)
    expect(view.get_by_test_id("log-list").locator("li")).to_have_count(4)
    step_to(view, "replay-prev", 3)
    expect(turtle_field(view, "red")).to_have_attribute("data-field", str(moved["to"]))
    tap(view, "log-close")
    expect(page.get_by_test_id("log-view")).to_have_count(0)


def test_a_server_refereed_table_never_read_says_the_log_needs_the_network(
    live_server: str, new_phone: Any
) -> None:
    table = ApiTable(live_server, "mahe", MAHE_PLAYERS, {"chance": "digital"})
    table.post({"type": "choose_turtle", "turtle": "red"})
    page = new_phone()
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    wait_cached(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    tap(page, "open-log")
    view = page.get_by_test_id("log-view")
    expect(view.get_by_test_id("log-unavailable")).to_contain_text("online again")
    expect(view.get_by_test_id("log-list")).to_have_count(0)
    expect(view.get_by_test_id("replay-next")).to_be_hidden()
