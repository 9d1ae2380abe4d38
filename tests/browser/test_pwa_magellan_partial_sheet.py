"""A table from a PARTIAL shared board sheet asks, when the game needs them, only for the numbers that
sheet lacks (MG-2): the library exists so a table never retypes a published number. Four crowns are
left empty; at the scoring the form shows exactly those boxes, and typing them scores the game.
The numbers are TEST data (MG-2: Kibitz never invents printed values).
"""

from __future__ import annotations

import uuid
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import assert_no_horizontal_scroll, confirm, stored_token, tap
from .test_pwa_magellan import sheet_data
from .test_pwa_magellan_library import (
    COUNT_SHEET_TYPING,
    SIDES,
    all_cards_through_the_api,
    publish_and_confirm,
    set_up_four_with_b_sides,
)

ROMAN = {1: "I", 2: "II", 3: "III"}
# Crowns left empty in the published sheet: fields where ships stand at the scoring of this game.
REMOVED = [("columbus", 2, None), ("pizarro", 1, None), ("vasco", 1, "right"), ("cook", 3, None)]
EXPLORER_EN = {"columbus": "Columbus", "pizarro": "Pizarro", "vasco": "Vasco da Gama", "cook": "Cook"}


def side(explorer: str) -> str:
    return SIDES.get(explorer, "A")


def box_id(explorer: str, field: int, part: str | None) -> str:
    return "-".join(filter(None, ["mg-sheet", explorer, ROMAN[field], part, "crowns"]))


def label(explorer: str, field: int, part: str | None) -> str:
    where = f"{EXPLORER_EN[explorer]} side {side(explorer)} field {ROMAN[field]}"
    return f"{where}{f' {part} part' if part else ''}: crowns"


def partial_sheet() -> dict[str, Any]:
    data = sheet_data(SIDES)  # complete TEST numbers: crowns = 2 × field
    for explorer, field, part in REMOVED:
        leaf = data["explorers"][explorer][side(explorer)][ROMAN[field]]
        (leaf[part] if part else leaf)["crowns"] = None
    return data


# Every number box of the open sheet form: shown (not display:none / visibility:hidden) or not.
FORM_BOXES = """() =>
  [...document.querySelectorAll("[data-testid=mg-sheet-form] input.mg-num")].map((el) => ({
    id: el.dataset.testid,
    shown: el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden",
    value: el.value,
  }))"""


def test_partial_shared_sheet_asks_only_for_its_empty_boxes(live_server: str, phone_page: Any) -> None:
    page = phone_page
    page.add_init_script(COUNT_SHEET_TYPING)
    edition = f"Partial edition {uuid.uuid4().hex[:6]}"
    data = partial_sheet()
    publication_id = publish_and_confirm(live_server, edition, data, tables=1)
    missing = {label(*slot) for slot in REMOVED}

    # --- Setup: four players, Pizarro B and Vasco B, the partial shared sheet picked. ---
    set_up_four_with_b_sides(page, live_server)
    page.get_by_test_id("mg-library-select").select_option(publication_id)
    expect(page.get_by_test_id("mg-library-info")).to_contain_text(f"“{edition}”, confirmed at 1 table")
    info = page.get_by_test_id("mg-sheet-info")
    expect(info).to_have_attribute("data-missing", str(len(REMOVED)))
    expect(info).to_contain_text(f"{len(REMOVED)} entries for these sides are still empty")
    assert_no_horizontal_scroll(page)
    tap(page, "create-table")
    expect(page.get_by_test_id("mg-board")).to_be_visible()

    table_id = page.evaluate("location.hash").split("/")[2]
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {stored_token(page, table_id)}"
    current = session.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert current["state"]["board_sheet"] == data
    assert set(current["state"]["board_sheet_missing"]) == missing
    assert current["state"]["board_sheet_needed_now"] == []  # nothing asked before it is needed

    # --- All 36 cards through the API: never blocked, the form never opened. ---
    current = all_cards_through_the_api(session, f"{live_server}/api/tables/{table_id}", current)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "final_hand")
    expect(page.get_by_test_id("mg-sheet-form")).to_have_count(0)
    ships = {(s["explorer"], s["field"], s["part"]) for p in current["state"]["players"] for s in p["ships"]}
    assert set(REMOVED) <= ships, "each removed crown is needed at the scoring"

    # --- The hands (MG-10); then the scoring needs the crowns, and only the empty ones. ---
    for seat, cards in enumerate([[1, 5], [], [9], [2, 3]]):
        expect(page.get_by_test_id(f"mg-hand-seat-{seat}")).to_have_attribute("aria-pressed", "true")
        for value in cards:
            tap(page, f"mg-money-{value}")
        tap(page, "mg-hand-save")
    hands_sheet = page.get_by_test_id("mg-hands-sheet")
    hands_sheet.get_by_test_id("confirm").tap()
    expect(hands_sheet).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "board_sheet")
    expect(page.get_by_test_id("mg-blocked")).to_have_attribute("data-missing", str(len(REMOVED)))
    tap(page, "mg-sheet-fix")
    form = page.get_by_test_id("mg-sheet-form")
    expect(form).to_be_visible()
    boxes = page.evaluate(FORM_BOXES)
    asked = sorted(box["id"] for box in boxes if box["shown"])
    assert asked == sorted(box_id(*slot) for slot in REMOVED), asked
    assert all(box["value"] == "" for box in boxes if box["shown"])
    assert all(box["value"] != "" for box in boxes if not box["shown"] and box["id"].endswith("-crowns"))
    expect(form.get_by_test_id("mg-sheet-missing")).to_have_attribute("data-missing", str(len(REMOVED)))
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-magellan-partial-sheet-360x740.png")
    for explorer, field, part in REMOVED:
        page.get_by_test_id(box_id(explorer, field, part)).fill(str(2 * field))
    expect(form.get_by_test_id("mg-sheet-missing")).to_have_attribute("data-missing", "0")
    tap(page, "mg-sheet-save")
    expect(form).to_have_count(0)
    assert page.evaluate("window.__sheetTyping") == len(REMOVED)

    # --- The Pizarro draw (MG-11), and the final scores on the phone. ---
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")
    tap(page, "mg-pizarro-card-8")
    confirm(page, "Pizarro total: 8")
    tap(page, "mg-pizarro-stop")
    confirm(page, "stops the Pizarro draw at 8")
    result = session.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert result["finished"]
    assert result["state"]["board_sheet"] == sheet_data(SIDES)  # published numbers kept, the gaps typed
    expect(page.get_by_test_id("winner")).to_be_visible()
    for score in result["result"]["scores"]:
        expect(page.get_by_test_id(f"mg-bd-total-{score['seat']}")).to_have_text(f"{score['total']} points")
    log = session.get(f"{live_server}/api/tables/{table_id}/events", timeout=5).json()["events"]
    assert len([e for e in log if (e["event"] or {}).get("type") == "set_board_sheet"]) == 1
    assert_no_horizontal_scroll(page)
