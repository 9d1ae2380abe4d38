"""A game in as few taps as the table itself: one tap per thing that happens on the board.

A whole 2-player Mahé game is played by tapping on a 360×740 phone and its taps are counted: one
per die value, stop, turtle choice or card, and no confirm sheet on the way. Also: the undo toast
after an entry, the notice another phone gets when an entry is undone, the end screen's rematch.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .helpers import ApiTable, tap

PLAYERS = [{"name": "Eva", "colours": ["red", "yellow"]}, {"name": "Tom", "colours": ["green", "darkblue"]}]
LOCAL_TIMEOUT = 30_000
# Entries a whole game takes at most (the beach is reached long before).
MAX_TAPS = 400


def open_table(page: Any, link: str) -> None:
    page.goto(link)
    expect(page.get_by_test_id("sync-badge")).to_have_attribute(
        "data-referee", "local", timeout=LOCAL_TIMEOUT
    )


def settled(page: Any) -> None:
    """The entry is recorded and drawn (no tap is lost to a busy screen)."""
    expect(page.locator(".table-body[aria-busy]")).to_have_count(0)


# What the screen offers now, in one look: each named button that is shown and can be tapped, and
# whether it is marked as a bust. (A look per button — count, visible, enabled — was three round
# trips to the browser for each of 15 buttons before every tap: most of a whole game's time.)
OFFERED = """(ids) => Object.fromEntries(ids.flatMap((id) => {
  const button = document.querySelector(`[data-testid="${id}"]`);
  if (!button) return [];
  const box = button.getBoundingClientRect();
  const shown = box.width > 0 && box.height > 0 && getComputedStyle(button).visibility !== "hidden";
  const enabled = !button.matches(":disabled") && button.getAttribute("aria-disabled") !== "true";
  return shown && enabled ? [[id, button.classList.contains("btn-danger-soft")]] : [];
}))"""


def next_tap(page: Any, more_dice: bool = False) -> str:
    """What the player taps next: a card, the first turtle, stop after a die, else the highest die
    that does not bust (MA-3, MA-7, MA-9). With `more_dice` the decider asks for the next die
    whenever one can be had without busting: one tap on what it shows, no "Another die" first."""
    turtles = [f"choose-turtle-{c}" for p in PLAYERS for c in p["colours"]]
    others = ["card-4", *turtles, "stop"]
    offered: dict[str, bool] = page.evaluate(OFFERED, [*(f"die-{v}" for v in range(6, 0, -1)), *others])
    dice = [f"die-{v}" for v in range(6, 0, -1) if f"die-{v}" in offered]
    safe = [d for d in dice if not offered[d]]
    if more_dice and safe and "stop" in offered:
        return safe[0]
    for testid in others:
        if testid in offered:
            return testid
    if safe or dice:
        return (safe or dice)[0]
    raise AssertionError("nothing to tap")


@pytest.mark.parametrize("more_dice", [False, True], ids=["stop-after-one-die", "second-and-third-dice"])
def test_a_whole_mahe_game_is_one_tap_per_entry(live_server: str, new_phone: Any, more_dice: bool) -> None:
    """Every die is one tap, the second and third too (issue 26: no separate "Another die")."""
    table = ApiTable(live_server, "mahe", PLAYERS, {"chance": "physical"})
    page = new_phone()
    open_table(page, table.link)
    pile = page.get_by_test_id("pile-count")
    expect(pile).to_have_attribute("data-count", "20")
    taps = 0
    first_card = True
    while not page.get_by_test_id("result").count():
        assert taps < MAX_TAPS, "the game did not end"
        testid = next_tap(page, more_dice)
        tap(page, testid)
        taps += 1
        settled(page)
        assert not page.get_by_test_id("sheet").count(), f"{testid} asked for a confirmation"
        if first_card and testid.startswith("card-"):
            expect(pile).to_have_attribute("data-count", "19")  # the turned-up card left the pile
            first_card = False
    expect(page.get_by_test_id("sync-badge")).to_have_text("Online", timeout=20_000)
    log = requests.get(f"{live_server}/api/tables/{table.id}/events", timeout=5).json()["events"]
    assert len(log) == taps, "one tap, one entry"
    assert table.refresh()["finished"]
    # No stale hint under Game over (MA-3's "a third die is never offered at 7").
    codes = [note["code"] for note in table.table["legal_actions"]["notes"]]
    assert codes == ["game-over"]
    expect(page.get_by_test_id("actionbar")).not_to_contain_text("third die")
    extra = sum(1 for e in log if e["event"]["type"] == "die") - sum(
        1 for e in log if e["event"]["type"] == "stop"
    )
    if more_dice:
        assert extra > 0, "no second or third die was taken"
    how = "more dice" if more_dice else "one die"
    print(f"\n[taps] whole 2-player Mahé game ({how}): {taps} entries, {taps} taps")


def test_undo_toast_and_the_other_phones_are_told(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", PLAYERS, {"chance": "physical"})
    eva, tom = new_phone(), new_phone()
    open_table(eva, table.link)
    open_table(tom, table.link)
    tap(eva, "card-4")
    told = eva.get_by_test_id("undo-toast")
    expect(told).to_contain_text("4 eggs")
    expect(tom.get_by_test_id("face-up")).to_contain_text("4", timeout=5000)
    tap(eva, "choose-turtle-red")
    expect(told).to_contain_text("Red moves first")
    expect(tom.get_by_test_id("turn-info")).to_contain_text("red", timeout=5000)
    told.get_by_test_id("toast-undo").tap()
    expect(eva.get_by_test_id("toast").last).to_contain_text("Undone: ")
    expect(eva.get_by_test_id("toast").last).to_contain_text("Red moves first")
    expect(eva.get_by_test_id("choose-turtle-red")).to_be_visible()
    notice = tom.get_by_test_id("toast").filter(has_text="Undone on another phone")
    expect(notice).to_contain_text("Red moves first", timeout=5000)
    events = [
        e["event"]["type"]
        for e in requests.get(f"{table.base}/api/tables/{table.id}/events", timeout=5).json()["events"]
    ]
    assert events == ["reveal_card", "choose_turtle", "undo"]


def test_rematch_same_players_same_seats(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mhing", [{"name": n} for n in ("Eva", "Tom", "Ann")], {"first_seat": 1})
    table.post({"type": "round_drawn"})
    table.post({"type": "end_game"})
    page = new_phone()
    page.goto(table.link)
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.get_by_test_id("home")).to_have_attribute("href", "#/")
    tap(page, "rematch")
    page.wait_for_url(re.compile(r"#/t/(?!" + table.id + ")"))
    new_id = page.url.split("#/t/")[1]
    again = requests.get(f"{live_server}/api/tables/{new_id}", timeout=5).json()
    assert again["players"] == table.table["players"] and again["options"] == table.table["options"]
    assert again["version"] == 0 and not again["finished"]
    expect(page.get_by_test_id("result")).to_have_count(0)
