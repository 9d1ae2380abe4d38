"""Magellan in few taps (issue 26 item 6): prices on a number pad, the end hands in one sheet.

A price is typed, not stepped: a bid of 8 is two taps (8, then "Bid 8"), counted in the page,
and the recorded entry carries 8 (MG-4); the keyboard types into the same pad; the quick "who
won" sheet takes its price from the pad too. At the end (outcomes depth) every player's money
left in hand is typed in and ONE sheet confirms them all (MG-10 counts their crowns, MG-1).
"""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import tap
from .test_pwa_magellan import EXPLORERS, NAMES, SIDES, Table, fast_forward, sheet_data

# Counts the taps that reach a button (the pad's keys, Bid, Pass …) and every sheet ever opened.
COUNTERS = """
window.__taps = [];
window.__sheets = [];
document.addEventListener("click", (e) => {
  const button = e.target instanceof Element ? e.target.closest("button") : null;
  if (button) window.__taps.push(button.dataset.testid || button.textContent);
}, true);
new MutationObserver((changes) => {
  for (const change of changes)
    for (const node of change.addedNodes)
      if (node instanceof Element && node.matches(".sheet-backdrop"))
        window.__sheets.push(node.querySelector(".sheet")?.dataset.testid || "?");
}).observe(document, { childList: true, subtree: true });
"""


def counted_phone(new_phone: Any) -> Any:
    page = new_phone()
    page.context.add_init_script(COUNTERS)
    return page


def events(table: Table) -> list[dict[str, Any]]:
    answer = requests.get(f"{table.base}/api/tables/{table.id}/events", timeout=5).json()
    return [e["event"] for e in answer["events"]]


def money_counted(table: Table) -> dict[int, list[int]]:
    """The money cards the scoring counts for each seat (MG-10)."""
    scores = table.refresh()["state"]["scoring"]["scores"]
    return {s["seat"]: s["money"]["cards"] for s in scores}


def reset_counters(page: Any) -> None:
    page.evaluate("window.__taps = []; window.__sheets = []")


def test_a_bid_of_8_is_two_taps_on_the_pad(live_server: str, new_phone: Any) -> None:
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    table.post({"type": "reveal", "explorer": "cook"})
    opener = table.state["card"]["turn"]
    page = counted_phone(new_phone)
    page.goto(table.link)
    status = page.get_by_test_id("mg-status")
    expect(status).to_have_attribute("data-step", "bid")
    # The pad starts at the minimum (MG-4: at least 1).
    expect(page.get_by_test_id("mg-bid")).to_contain_text("Bid 1")
    reset_counters(page)

    tap(page, "mg-bid-key-8")
    expect(page.get_by_test_id("mg-bid")).to_contain_text("Bid 8")
    tap(page, "mg-bid")
    expect(page.get_by_test_id(f"mg-bidder-{opener}")).to_contain_text("8")
    taps = page.evaluate("window.__taps")
    assert taps == ["mg-bid-key-8", "mg-bid"], taps
    assert len(taps) <= 2
    assert page.evaluate("window.__sheets") == []  # a bid is one tap: no confirm sheet (issue 26)
    assert events(table)[-1] == {"type": "bid", "seat": opener, "amount": 8}
    assert table.refresh()["state"]["card"]["high_bid"] == 8

    # The next bidder must go above 8 (MG-4): a typed 5 cannot be bid; the keyboard types 12.
    second = table.refresh()["state"]["card"]["turn"]
    tap(page, "mg-bid-key-5")
    expect(page.get_by_test_id("mg-bid")).to_be_disabled()
    expect(page.get_by_test_id("mg-bid")).to_contain_text("at least 9")
    page.keyboard.press("Backspace")
    expect(page.get_by_test_id("mg-bid")).to_contain_text("Bid 9")  # nothing typed: the minimum
    page.evaluate("document.activeElement.blur()")  # a keyboard alone from here
    page.keyboard.type("12")
    expect(page.get_by_test_id("mg-bid")).to_contain_text("Bid 12")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id(f"mg-bidder-{second}")).to_contain_text("12")
    assert events(table)[-1] == {"type": "bid", "seat": second, "amount": 12}


def test_the_quick_price_comes_from_the_pad(live_server: str, new_phone: Any) -> None:
    """ "Who won, for how much": winner, 8 on the pad, Record — the bid carries 8 (MG-4), and the whole
    auction (the passes before and after the bid) is ONE entry (issue 33: all of it or none)."""
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    table.post({"type": "reveal", "explorer": "cook"})
    order = table.state["card"]["order"]
    winner = order[1]
    page = counted_phone(new_phone)
    page.goto(table.link)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "bid")
    tap(page, "mg-quick")
    tap(page, f"mg-quick-winner-{winner}")
    expect(page.get_by_test_id("mg-quick-amount")).to_have_text("1")
    reset_counters(page)
    tap(page, "mg-quick-key-8")
    expect(page.get_by_test_id("mg-quick-summary")).to_have_text(f"{NAMES[winner]} wins Cook for 8.")
    tap(page, "confirm")
    expect(page.get_by_test_id("mg-quick-sheet")).to_have_count(0)
    assert page.evaluate("window.__taps") == ["mg-quick-key-8", "confirm"]
    expect(page.get_by_test_id("mg-status")).not_to_have_attribute("data-step", "bid")
    steps = [{"type": "pass", "seat": order[0]}, {"type": "bid", "seat": winner, "amount": 8},
             *({"type": "pass", "seat": s} for s in order[2:])]  # fmt: skip
    assert events(table)[-2:] == [{"type": "reveal", "explorer": "cook"}, {"type": "auction", "steps": steps}]
    assert table.refresh()["state"]["history"][-1]["price"] == 8


def test_every_end_hand_in_one_sheet(live_server: str, new_phone: Any) -> None:
    """MG-10: the money left in every hand, typed in one after another, confirmed in ONE sheet."""
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    fast_forward(table, EXPLORERS)  # all 36 cards: the scoring asks for the hands first
    assert table.table["legal_actions"]["step"] == "final_hand"
    page = counted_phone(new_phone)
    page.goto(table.link)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "final_hand")
    reset_counters(page)

    hands = {0: [1, 5], 1: [], 2: [9, 9, 2]}
    for seat, cards in hands.items():
        # The pad moves on to the next player by itself: no tap on a name.
        expect(page.get_by_test_id(f"mg-hand-seat-{seat}")).to_have_attribute("aria-pressed", "true")
        for value in cards:
            tap(page, f"mg-money-{value}")
        tap(page, "mg-hand-save")
        if seat < 2:
            assert page.evaluate("window.__sheets") == []  # nothing asked before the last hand
            expect(page.get_by_test_id(f"mg-hand-seat-{seat}").locator(".mg-check-kept")).to_have_count(1)
    sheet = page.get_by_test_id("mg-hands-sheet")
    expect(sheet).to_be_visible()
    for seat, cards in hands.items():
        row = sheet.get_by_test_id(f"mg-hands-row-{seat}")
        expect(row).to_have_attribute("data-cards", ",".join(map(str, sorted(cards))))
    # MG-1: a card's crowns are not its value (1 → 3, 5 → 2).
    expect(sheet.get_by_test_id("mg-hands-row-0")).to_contain_text("Eva has 1, 5 left in hand (5 crowns)")
    expect(sheet.get_by_test_id("mg-hands-row-1")).to_contain_text("Tom has no money cards left")
    assert sheet.get_by_test_id("why-hands").get_attribute("href") == "rules/magellan.en.html#MG-10"
    expect(sheet.get_by_test_id("confirm")).to_have_text("Record 3 hands")
    sheet.get_by_test_id("confirm").tap()
    expect(sheet).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")
    assert page.evaluate("window.__sheets") == ["mg-hands-sheet"]  # one sheet for three hands
    # One entry for all three (issue 33): all the hands or none.
    recorded = [e for e in events(table) if e["type"].startswith("final_hand")]
    assert recorded == [{"type": "final_hands", "hands": {str(s): sorted(c) for s, c in hands.items()}}]
    assert money_counted(table) == {s: sorted(c) for s, c in hands.items()}  # MG-10


def test_the_hands_sheet_can_be_reopened_and_a_hand_changed(live_server: str, new_phone: Any) -> None:
    """Cancel goes back to the pad with every typed hand kept; the sheet opens again on demand."""
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    fast_forward(table, EXPLORERS)
    table.post({"type": "final_hand", "seat": 1, "cards": [4]})  # Tom's hand, from another phone
    page = counted_phone(new_phone)
    page.goto(table.link)
    expect(page.get_by_test_id("mg-hand-seat-0")).to_have_attribute("aria-pressed", "true")
    tap(page, "mg-money-3")
    tap(page, "mg-hand-save")
    expect(page.get_by_test_id("mg-hand-seat-2")).to_have_attribute("aria-pressed", "true")  # Tom is done
    tap(page, "mg-money-7")
    tap(page, "mg-hand-save")
    sheet = page.get_by_test_id("mg-hands-sheet")
    expect(sheet.get_by_test_id("mg-hands-row-1")).to_have_count(0)
    sheet.get_by_test_id("cancel").tap()
    expect(sheet).to_have_count(0)
    # Eva's hand changes: one more card; the list keeps Ann's.
    tap(page, "mg-hand-seat-0")
    expect(page.get_by_test_id("mg-picked")).to_have_attribute("data-cards", "3")
    tap(page, "mg-money-8")
    tap(page, "mg-hands-confirm")
    expect(sheet.get_by_test_id("mg-hands-row-0")).to_have_attribute("data-cards", "3,8")
    expect(sheet.get_by_test_id("mg-hands-row-2")).to_have_attribute("data-cards", "7")
    sheet.get_by_test_id("confirm").tap()
    expect(sheet).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")
    assert money_counted(table) == {0: [3, 8], 1: [4], 2: [7]}


def test_a_refused_hand_records_no_hand(live_server: str, new_phone: Any) -> None:
    """Issue 33 item 6: the third hand would make more than seven 3s (MG-1). The phone's referee
    checks every hand before any is recorded: nothing is stored, the sheet says which hand to fix;
    fixed, all three go in as one entry."""
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    fast_forward(table, EXPLORERS)
    page = counted_phone(new_phone)
    page.goto(table.link)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "final_hand")
    before = events(table)
    hands = {0: [3, 3, 3], 1: [3, 3, 3], 2: [3, 3]}
    for seat, cards in hands.items():
        expect(page.get_by_test_id(f"mg-hand-seat-{seat}")).to_have_attribute("aria-pressed", "true")
        for value in cards:
            tap(page, f"mg-money-{value}")
        tap(page, "mg-hand-save")
    sheet = page.get_by_test_id("mg-hands-sheet")
    sheet.get_by_test_id("confirm").tap()
    refused = sheet.get_by_test_id("mg-hands-refused")
    expect(refused).to_be_visible()
    expect(refused).to_contain_text("Nothing was recorded")
    expect(refused).to_contain_text("3")
    assert events(table) == before  # not one hand of the three
    assert all(not p["final_hand_entered"] for p in table.refresh()["state"]["players"])
    sheet.get_by_test_id("cancel").tap()
    tap(page, "mg-hand-seat-2")
    for _ in range(2):  # Ann's two 3s were a 7: off with them
        tap(page, "mg-picked-0")
    tap(page, "mg-money-7")
    tap(page, "mg-hands-confirm")
    expect(sheet.get_by_test_id("mg-hands-row-2")).to_have_attribute("data-cards", "7")
    sheet.get_by_test_id("confirm").tap()
    expect(sheet).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")
    added = events(table)[len(before) :]
    assert added == [{"type": "final_hands", "hands": {"0": [3, 3, 3], "1": [3, 3, 3], "2": [7]}}]
