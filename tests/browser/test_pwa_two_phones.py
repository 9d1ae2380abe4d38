"""Two phones on one table, whatever the network does (issue 21): an entry means what its player saw.

One test per failure the issue lists, each with two browser contexts (Chromium 360×740, touch):
1. the same physical roll or round typed on both phones is never stored twice unasked;
2. an undo tapped offline takes back its own entry, never the other phone's;
3. a tap at the instant the other phone's entry arrives on the stream (made deterministic by holding
   the stream on one phone) leaves both phones showing the server's game;
4. a conflict never dead-ends: a choice that cannot be made says why, the sheet reopens from the badge;
5. a lost creation answer leaves no twin table (the creation's Idempotency-Key).
Every scenario ends with each physical event stored once, both phones showing the server's state
within 2 s, and the player told in words wherever two phones' entries met.
"""

from __future__ import annotations

import re
import time
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import ApiTable, confirm, open_setup, tap
from .test_pwa_mhing import enter_hand, scores
from .test_pwa_offline import (
    LOCAL_TIMEOUT,
    MAHE_PLAYERS,
    badge,
    open_local,
    phone_log,
    record,
    server_events,
    wait_cached,
)

STREAM = re.compile(r"/stream(\?|$)")
AGREE_WITHIN = 2.0  # seconds: both phones show the server's state this soon after the last step

# Holds the live stream's messages on a phone until the test lets them through (failure 3).
HOLD_STREAM = """
(() => {
  const Original = window.EventSource;
  const held = [];
  window.__streamHeld = false;
  window.__heldCount = () => held.length;
  window.__releaseStream = () => { window.__streamHeld = false; held.splice(0).forEach((go) => go()); };
  window.EventSource = class extends Original {
    addEventListener(type, listener, options) {
      const wrapped = (message) => {
        if (window.__streamHeld) held.push(() => listener.call(this, message));
        else listener.call(this, message);
      };
      super.addEventListener(type, wrapped, options);
    }
  };
})();
"""


def wait_held(page: Any) -> None:
    """The held stream has a message (the app's CSP allows no evaluated strings: poll from here)."""
    for _ in range(100):
        if page.evaluate("window.__heldCount()"):
            return
        page.wait_for_timeout(50)
    raise AssertionError("no stream message arrived")


def mahe_at_ann_rolls(base: str) -> ApiTable:
    """Mahé, physical dice, at "Eva rolls for red" (the egg card turned up, red chosen)."""
    table = ApiTable(base, "mahe", MAHE_PLAYERS, {"chance": "physical"})
    table.post({"type": "reveal_card", "value": 4})
    table.post({"type": "choose_turtle", "turtle": "red"})
    return table


def screen(page: Any) -> str:
    return str(page.locator(".table-body").inner_text())


def agree(base: str, table_id: str, *pages: Any, within: float = AGREE_WITHIN) -> list[dict[str, Any]]:
    """Every phone has sent everything, keeps the server's log, and all screens show the same table."""
    deadline = time.monotonic() + within
    while True:
        events = server_events(base, table_id)
        logs = [phone_log(page, table_id) for page in pages]
        screens = [screen(page) for page in pages]
        settled = all(log["queue"] == [] and not log.get("conflict") for log in logs)
        same_log = all(log["serverEvents"] == events for log in logs)
        if settled and same_log and len(set(screens)) == 1:
            return events
        if time.monotonic() > deadline:
            raise AssertionError((events, logs, screens))
        pages[0].wait_for_timeout(100)


def conflict_sheet(page: Any) -> Any:
    sheet = page.get_by_test_id("conflict-sheet")
    expect(sheet).to_be_visible(timeout=20_000)
    expect(sheet.get_by_test_id("conflict-drop")).to_be_visible()  # described and ready
    return sheet


# ---------- 1. the same physical event typed on both phones ----------


def test_both_online_the_same_die_is_stored_once(live_server: str, new_phone: Any) -> None:
    """A and B both type the die they just saw, within a moment: B's tap was made on the table before
    A's die (B's stream had not brought it yet); the server refuses it at that position and B's
    players see both dice in words and keep one."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    second.add_init_script(HOLD_STREAM)
    for page in (first, second):
        open_local(page, table.link)
    second.evaluate("window.__streamHeld = true")
    record(first, "die-3")
    wait_held(second)  # A's die is on B's stream, not yet seen
    tap(second, "die-3")
    sheet = conflict_sheet(second)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("another phone")
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Die: 3")
    expect(sheet.get_by_test_id("conflict-mine")).to_contain_text("Die: 3")
    dice = [e for e in server_events(live_server, table.id) if e["type"] == "die"]
    assert dice == [{"type": "die", "value": 3}]
    sheet.get_by_test_id("conflict-drop").tap()  # the same roll: keep theirs
    second.evaluate("window.__releaseStream()")
    events = agree(live_server, table.id, first, second)
    assert events[2:] == [{"type": "die", "value": 3}]


def test_offline_die_meets_the_other_phones_die(live_server: str, new_phone: Any) -> None:
    """A offline types die 2, B online types die 5 for the same roll. A back: A's 2 is not made a
    second die of the move; A sees "Die: 5" recorded on another phone and decides."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    first.context.set_offline(True)
    record(first, "die-2")
    record(second, "die-5")
    first.context.set_offline(False)
    sheet = conflict_sheet(first)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Die: 5")
    expect(sheet.get_by_test_id("conflict-mine")).to_contain_text("Die: 2")
    assert server_events(live_server, table.id)[2:] == [{"type": "die", "value": 5}]  # nothing unasked
    expect(badge(first)).to_have_attribute("data-state", "conflict")
    sheet.get_by_test_id("conflict-drop").tap()
    events = agree(live_server, table.id, first, second)
    assert events[2:] == [{"type": "die", "value": 5}]


def test_the_same_mhing_round_on_both_phones_is_stored_once(live_server: str, new_phone: Any) -> None:
    """The same Mhing round typed on both phones offline: the second one back is asked, keeps the
    other phone's, and Eva scores her hand once (692, not twice as much)."""
    table = ApiTable(live_server, "mhing", [{"name": n} for n in ("Eva", "Tom", "Ann")], {"settlement": 2})
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
        page.context.set_offline(True)
        tap(page, "went-out")
        tap(page, "winner-0")
        tap(page, "discarder-2")
        enter_hand(page)
        tap(page, "pick-k2")
        tap(page, "add-flower")
        tap(page, "record-hand")
        confirm(page, "Eva went out")
    first.context.set_offline(False)
    expect(badge(first)).to_have_text("Online", timeout=20_000)
    second.context.set_offline(False)
    sheet = conflict_sheet(second)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Eva went out")
    expect(sheet.get_by_test_id("conflict-mine")).to_contain_text("Eva went out")
    sheet.get_by_test_id("conflict-drop").tap()
    events = agree(live_server, table.id, first, second)
    assert len(events) == 1
    scores(second, 692, 436, 372)


# ---------- 2. an undo tapped offline ----------


def test_an_offline_undo_never_takes_back_the_other_phones_entry(live_server: str, new_phone: Any) -> None:
    """A offline taps Undo meaning its own die 2; meanwhile B records Stop. A back: B's Stop is not
    taken back; A sees both and takes B's Stop back, then its die: the undos name their entries."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    record(first, "die-2")
    expect(badge(first)).to_have_text("Online", timeout=20_000)
    expect(second.get_by_test_id("stop")).to_be_enabled()
    first.context.set_offline(True)
    tap(first, "undo")
    confirm(first)
    record(second, "stop")
    first.context.set_offline(False)
    sheet = conflict_sheet(first)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Stop")
    expect(sheet.get_by_test_id("conflict-mine")).to_contain_text("Undone")
    expect(sheet.get_by_test_id("conflict-after")).to_be_disabled()  # die 2 is no longer the last
    assert server_events(live_server, table.id)[2:] == [{"type": "die", "value": 2}, {"type": "stop"}]
    sheet.get_by_test_id("conflict-back").tap()
    events = agree(live_server, table.id, first, second)
    assert events[2:] == [
        {"type": "die", "value": 2},
        {"type": "stop"},
        {"type": "undo", "undoes": 4},
        {"type": "undo", "undoes": 3},
    ]
    assert table.refresh()["state"]["turn"]["dice"] == []
    expect(second.get_by_test_id("toast").filter(has_text="Undone on another phone").first).to_be_visible()


# ---------- 3. a tap at the instant the other phone's entry arrives ----------


def test_a_tap_as_the_other_phones_entry_arrives(live_server: str, new_phone: Any) -> None:
    """B taps die 3 in the very task in which A's die 3 reaches B's stream: B's screen never shows
    a game other than the server's; B is told, and after its choice both phones agree."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    second.add_init_script(HOLD_STREAM)
    for page in (first, second):
        open_local(page, table.link)
    second.evaluate("window.__streamHeld = true")
    record(first, "die-3")
    wait_held(second)
    second.evaluate(
        """() => {
          document.querySelector('[data-testid="die-3"]').click();
          window.__releaseStream();
        }"""
    )
    sheet = conflict_sheet(second)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Die: 3")
    # Until the players decide, B shows the server's game: one die.
    assert phone_log(second, table.id)["serverEvents"] == server_events(live_server, table.id)
    sheet.get_by_test_id("conflict-drop").tap()
    events = agree(live_server, table.id, first, second)
    assert [e for e in events if e["type"] == "die"] == [{"type": "die", "value": 3}]
    # B stops: the move is the server's move (3 fields), on both phones.
    record(second, "stop")
    expect(second.get_by_test_id("last-move")).to_contain_text("field 3")
    agree(live_server, table.id, first, second)


def test_a_tap_just_after_the_other_phones_entry_arrived(live_server: str, new_phone: Any) -> None:
    """The other order: A's die reaches B's stream first, B's tap (made on the screen before it) is
    not recorded, and B is told so in words."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    second.add_init_script(HOLD_STREAM)
    for page in (first, second):
        open_local(page, table.link)
    second.evaluate("window.__streamHeld = true")
    record(first, "die-3")
    wait_held(second)
    second.evaluate(
        """() => {
          const button = document.querySelector('[data-testid="die-3"]');
          window.__releaseStream();
          button.click();
        }"""
    )
    expect(second.get_by_test_id("toast").filter(has_text="nothing was recorded").first).to_be_visible()
    events = agree(live_server, table.id, first, second)
    assert [e for e in events if e["type"] == "die"] == [{"type": "die", "value": 3}]


# ---------- 4. a conflict never dead-ends ----------


def test_a_conflict_never_dead_ends(live_server: str, new_phone: Any) -> None:
    """A offline taps Stop; B taps Undo (its die). A back: "take theirs back" cannot be (an undo
    cannot be undone) and says why; closed, the sheet comes back from the badge and from a tap;
    nothing says "Refused"."""
    table = mahe_at_ann_rolls(live_server)
    table.post({"type": "die", "value": 2})
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    first.context.set_offline(True)
    record(first, "stop")
    tap(second, "undo")
    confirm(second)
    first.context.set_offline(False)
    sheet = conflict_sheet(first)
    expect(sheet.get_by_test_id("conflict-theirs")).to_contain_text("Undone")
    expect(sheet.get_by_test_id("conflict-back")).to_be_disabled()
    expect(sheet.get_by_test_id("conflict-back-why")).to_contain_text("cannot be taken back")
    sheet.get_by_test_id("close").tap()  # decide later: look at the table first
    expect(first.get_by_test_id("conflict-sheet")).to_have_count(0)
    expect(badge(first)).to_have_text("Conflict: decide")
    first.get_by_test_id("conflict-open").tap()  # the badge is a button
    sheet = conflict_sheet(first)
    sheet.get_by_test_id("close").tap()
    first.get_by_test_id("die-4").tap()  # a tap while undecided: the sheet again, not "Refused"
    sheet = conflict_sheet(first)
    expect(first.get_by_test_id("toast").filter(has_text="decide first").first).to_be_visible()
    assert not first.get_by_text("Refused").count()
    sheet.get_by_test_id("conflict-drop").tap()
    events = agree(live_server, table.id, first, second)
    assert events[2:] == [{"type": "die", "value": 2}, {"type": "undo", "undoes": 3}]


# ---------- 5. a lost creation answer ----------


def test_a_lost_creation_answer_leaves_no_twin(live_server: str, new_phone: Any) -> None:
    """The server creates the table but the answer is lost; the phone retries with the same
    Idempotency-Key and gets the same table (and tokens) back: one table, the phone on it."""
    page = new_phone()
    answered: list[dict[str, Any]] = []

    def lose_the_first_answer(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch()
        answered.append({"key": route.request.headers.get("idempotency-key"), **response.json()})
        if len(answered) == 1:
            route.abort("connectionreset")  # stored on the server, the answer never arrives
        else:
            route.fulfill(response=response)

    page.route(re.compile(r"/api/tables$"), lose_the_first_answer)
    open_setup(page, live_server, "mahe")
    page.get_by_test_id("player-name-0").fill("Eva")
    page.get_by_test_id("player-name-1").fill("Tom")
    tap(page, "create-table")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=20_000)
    assert len(answered) == 2, answered
    assert answered[0]["key"] and answered[0]["key"] == answered[1]["key"]
    assert answered[0]["id"] == answered[1]["id"] and answered[1]["replayed"] is True
    assert answered[0]["write_token"] == answered[1]["write_token"]
    assert page.evaluate("location.hash").split("/t/")[1] == answered[0]["id"]


def test_a_table_started_offline_is_created_once(live_server: str, new_phone: Any) -> None:
    """Started offline; when back, the creation's answer is lost once: the retry answers the same
    table, and the entry recorded offline is stored once on it."""
    page = new_phone()
    open_setup(page, live_server, "mahe")
    page.evaluate("async () => (await import('/js/referee/client.js')).startReferee()")
    wait_cached(page)
    page.context.set_offline(True)
    page.get_by_test_id("player-name-0").fill("Eva")
    page.get_by_test_id("player-name-1").fill("Tom")
    tap(page, "create-table")
    expect(badge(page)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    record(page, "card-3")
    answered: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        response = route.fetch()
        answered.append(response.json()["id"])
        if len(answered) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route(re.compile(r"/api/tables$"), lose_the_first_answer)
    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"#/t/(?!local-)"), timeout=20_000)
    expect(badge(page)).to_have_text("Online", timeout=20_000)
    table_id = page.evaluate("location.hash").split("/t/")[1]
    assert answered and set(answered) == {table_id}
    assert server_events(live_server, table_id) == [{"type": "reveal_card", "value": 3}]
    assert requests.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()["version"] == 1
