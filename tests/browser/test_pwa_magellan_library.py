"""A Magellan table that starts from a shared board sheet (MG-2) instead of a wall of empty boxes.

Another group typed its board's numbers in, published them for its edition, and two of its tables
played them to the end of scoring and confirmed them — from one address, so they count as one
client (issue 31: "confirmed at 1 table", `tables` 2). Here four players pick that sheet in the
setup, play an outcomes game to the end, and never type a printed value: no board-sheet box
receives a single keystroke, the sheet form never opens, the log has no `set_board_sheet`. At the
end the table confirms the numbers against its board, and the library counts 3 tables.

The numbers are TEST data (MG-2: Kibitz never invents printed values; players type them in).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from typing import Any

import requests
from playwright.sync_api import expect

from tests.api.magellan_finish import finish

from .helpers import ApiTable, assert_no_horizontal_scroll, confirm, open_setup, stored_token, tap
from .test_pwa_magellan import sheet_data

SIDES = {"pizarro": "B", "vasco": "B"}
NAMES = ["Eva", "Tom", "Ann", "Bob"]

# Counts every keystroke into a board-sheet box (mg-sheet-*) on this page.
COUNT_SHEET_TYPING = """
window.__sheetTyping = 0;
document.addEventListener("input", (e) => {
  const id = e.target?.dataset?.testid || "";
  if (id.startsWith("mg-sheet-") && id !== "mg-sheet-id") window.__sheetTyping += 1;
}, true);
"""


def completed(data: Any) -> Any:
    """The sheet with its empty entries typed in (1, TEST data): what a table that played a partial
    published sheet to the end had on its board sheet."""
    if isinstance(data, dict):
        return {k: completed(v) for k, v in data.items()}
    return 1 if data is None else data


def publish_and_confirm(base: str, edition: str, data: dict[str, Any], tables: int) -> str:
    """Another group: its sheet typed in, published for `edition`, and `tables` tables that played
    it to the end of scoring confirm it (issue 31: only scored tables count; all from this one
    address, so they count as one client)."""
    created = requests.post(
        f"{base}/api/sheets", json={"game": "magellan", "name": "Club board", "data": data}, timeout=5
    ).json()
    answer = requests.post(
        f"{base}/api/sheets/{created['id']}/publish",
        json={"edition": edition},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
        timeout=5,
    )
    assert answer.status_code == 201, answer.text
    publication_id = str(answer.json()["publication"]["id"])
    for _ in range(tables):
        table = ApiTable(
            base,
            "magellan",
            [{"name": n} for n in NAMES[:3]],
            {"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": completed(data)},
        )

        def post(event: dict[str, Any], table: ApiTable = table) -> dict[str, Any]:
            answer = table.session.post(
                f"{base}/api/tables/{table.id}/events",
                json={"expected_version": table.table["version"], "event": event},
                timeout=5,
            )
            assert answer.status_code == 201, (event, answer.text)
            table.table = answer.json()["table"]
            return table.table

        assert finish(table.table, post)["finished"]
        confirmed = requests.post(
            f"{base}/api/sheets/library/{publication_id}/confirm",
            json={"table_id": table.id},
            headers={"Authorization": f"Bearer {table.token}"},
            timeout=5,
        )
        assert confirmed.status_code == 200 and confirmed.json()["counted"], confirmed.text
    return publication_id


def drive_to_scoring(post: Callable[[dict[str, Any]], None], legal: Callable[[], dict[str, Any]]) -> None:
    """All 36 cards through the API: whoever speaks first bids the minimum, the others pass (MG-4);
    Vasco da Gama ships take the right part (MG-8); Magellan slides 1, 2, 3 … (MG-8)."""
    slides = itertools.cycle(range(1, 10))
    for _ in range(500):
        actions = legal()
        step = actions["step"]
        if step == "final_hand":
            return
        assert actions["blocked"] is None, actions["blocked"]  # never waits for the board sheet
        offered = {a["type"]: a for a in actions["actors"][0]["actions"]}
        if step == "reveal":
            post({"type": "reveal", "explorer": offered["reveal"]["explorers"][0]})
        elif step == "bid":
            first = "bid" in offered and not actions.get("_bids")
            post({"type": "bid", "amount": offered["bid"]["min"]} if first else {"type": "pass"})
        elif step == "vasco_part":
            post({"type": "vasco_part", "part": "right"})
        elif step == "slide":
            event: dict[str, Any] = {"type": "slide", "value": next(slides)}
            if not offered["slide"].get("new_pile", True):
                event["pile"] = offered["slide"]["piles"][0]
            post(event)
        else:
            raise AssertionError(step)
    raise AssertionError("the game did not reach the scoring")


def set_up_four_with_b_sides(page: Any, base: str) -> None:
    """The setup screen: the four NAMES, Pizarro and Vasco on side B (SIDES)."""
    open_setup(page, base, "magellan")
    for i, name in enumerate(NAMES[:3]):
        page.get_by_test_id(f"player-name-{i}").fill(name)
    tap(page, "add-player")
    page.get_by_test_id("player-name-3").fill(NAMES[3])
    tap(page, "mg-side-pizarro-B")
    tap(page, "mg-side-vasco-B")


def all_cards_through_the_api(session: requests.Session, url: str, current: dict[str, Any]) -> dict[str, Any]:
    """Another phone (the table's link) records all 36 cards up to the scoring; the table after."""

    def post(event: dict[str, Any]) -> None:
        nonlocal current
        answer = session.post(
            f"{url}/events", json={"expected_version": current["version"], "event": event}, timeout=5
        )
        assert answer.status_code == 201, (event, answer.text)
        current = answer.json()["table"]

    def legal() -> dict[str, Any]:
        card = current["state"].get("card") or {}
        return {**current["legal_actions"], "_bids": card.get("bids")}

    drive_to_scoring(post, legal)
    return current


def test_outcomes_game_from_a_shared_sheet_types_no_printed_value(live_server: str, phone_page: Any) -> None:
    page = phone_page
    page.add_init_script(COUNT_SHEET_TYPING)
    edition = f"Test edition {uuid.uuid4().hex[:6]}"
    data = sheet_data(SIDES)
    publication_id = publish_and_confirm(live_server, edition, data, tables=2)

    # --- Setup: four players, Pizarro B and Vasco B, the shared sheet picked (MG-2). ---
    set_up_four_with_b_sides(page, live_server)
    picker = page.get_by_test_id("mg-library-select")
    expect(picker.locator(f"option[value='{publication_id}']")).to_contain_text("confirmed at 1 table")
    expect(picker.locator(f"option[value='{publication_id}']")).to_contain_text(edition)
    picker.select_option(publication_id)
    expect(page.get_by_test_id("mg-library-info")).to_contain_text(f"“{edition}”, confirmed at 1 table")
    expect(page.get_by_test_id("mg-sheet-select")).to_have_value("")
    # Complete for these sides: nothing left to type, not now and not later.
    expect(page.get_by_test_id("mg-sheet-info")).to_contain_text("Complete for these sides")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-magellan-library-setup-360x740.png")
    tap(page, "create-table")
    expect(page.get_by_test_id("mg-board")).to_be_visible()

    table_id = page.evaluate("location.hash").split("/")[2]
    token = stored_token(page, table_id)
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    current = session.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert current["state"]["board_sheet"] == data  # the published numbers, unchanged
    assert current["state"]["board_sheet_missing"] == []
    assert [p["name"] for p in current["state"]["players"]] == NAMES
    assert current["state"]["options"]["depth"] == "outcomes"

    # --- All 36 cards: the phase-end incomes (MG-9) use the shared bags without asking. ---
    current = all_cards_through_the_api(session, f"{live_server}/api/tables/{table_id}", current)

    # --- The scoring on the phone (MG-10): hands, then the Pizarro draw (MG-11). ---
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "final_hand")
    hands = [[1, 5], [], [9], [2, 3]]
    for seat, cards in enumerate(hands):
        expect(page.get_by_test_id(f"mg-hand-seat-{seat}")).to_have_attribute("aria-pressed", "true")
        for value in cards:
            tap(page, f"mg-money-{value}")
        tap(page, "mg-hand-save")
    hands_sheet = page.get_by_test_id("mg-hands-sheet")
    for seat, cards in enumerate(hands):
        expect(hands_sheet.get_by_test_id(f"mg-hands-row-{seat}")).to_have_attribute(
            "data-cards", ",".join(map(str, sorted(cards)))
        )
    hands_sheet.get_by_test_id("confirm").tap()
    expect(hands_sheet).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")
    tap(page, "mg-pizarro-card-8")
    confirm(page, "Pizarro total: 8")
    tap(page, "mg-pizarro-stop")
    confirm(page, "stops the Pizarro draw at 8")

    result = session.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert result["finished"]
    expect(page.get_by_test_id("winner")).to_be_visible()
    for score in result["result"]["scores"]:
        expect(page.get_by_test_id(f"mg-bd-total-{score['seat']}")).to_have_text(f"{score['total']} points")

    # Not one printed value typed: no keystroke in a board-sheet box, the form never opened, and
    # the log never carried a board sheet of this table's own (MG-2).
    assert page.evaluate("window.__sheetTyping") == 0
    expect(page.get_by_test_id("mg-sheet-form")).to_have_count(0)
    log = session.get(f"{live_server}/api/tables/{table_id}/events", timeout=5).json()["events"]
    assert len(log) > 100 and not [e for e in log if (e["event"] or {}).get("type") == "set_board_sheet"]

    # --- The players confirm the numbers match their board: the library counts this table. ---
    library = page.get_by_test_id("mg-library-panel")
    expect(library).to_contain_text(edition)
    tap(page, "mg-library-confirm")
    expect(page.locator("[data-testid=toast]").last).to_contain_text("now confirmed at 1 table")
    expect(page.get_by_test_id("mg-library-confirm")).to_be_hidden()
    expect(page.get_by_test_id("mg-library-status")).to_contain_text("This table confirmed")
    listed = requests.get(
        f"{live_server}/api/sheets/library", params={"game": "magellan", "edition": edition}, timeout=5
    ).json()
    [entry] = listed["editions"]
    # One client (this test's one address) counts once; its three scored tables are all there.
    assert [(p["id"], p["confirmations"], p["tables"]) for p in entry["publications"]] == [
        (publication_id, 1, 3)
    ]
    assert_no_horizontal_scroll(page)


def test_a_table_shares_its_numbers_for_its_edition(live_server: str, phone_page: Any) -> None:
    """The numbers a table typed in (TEST data) are shared from the table screen: stored as the
    phone's own sheet, published for the edition, and confirmed by this very table (MG-2) — which
    counts once the table is scored (issue 31), so the phone says so."""
    page = phone_page
    data = sheet_data(SIDES)
    table = ApiTable(
        live_server,
        "magellan",
        [{"name": n} for n in NAMES],
        {"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": data},
    )
    edition = f"Shared edition {uuid.uuid4().hex[:6]}"
    page.goto(table.link)
    panel = page.get_by_test_id("mg-library-panel")
    expect(panel).to_contain_text("typed in from its own board")
    expect(page.get_by_test_id("mg-library-confirm")).to_be_hidden()  # nothing shared to confirm
    page.get_by_test_id("mg-library-share").locator("summary").tap()
    tap(page, "mg-library-publish")  # no edition named yet: nothing is sent
    expect(page.locator("[data-testid=toast]").last).to_contain_text("Name the edition first")
    page.get_by_test_id("mg-library-edition").fill(edition)
    tap(page, "mg-library-publish")
    expect(page.locator("[data-testid=toast]").last).to_contain_text(
        f"Shared for “{edition}”; this table confirms it once its game is scored"
    )
    expect(page.get_by_test_id("mg-library-status")).to_contain_text("This table confirmed")
    listed = requests.get(
        f"{live_server}/api/sheets/library", params={"game": "magellan", "edition": edition}, timeout=5
    ).json()
    [entry] = listed["editions"]
    [publication] = entry["publications"]
    assert publication["data"] == data and (publication["confirmations"], publication["tables"]) == (0, 0)
    assert_no_horizontal_scroll(page)
