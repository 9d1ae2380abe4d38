"""The Magellan screen against the real server, on a 360×740 phone.

A short scripted game: the table and a complete test board sheet are made through the API and most
of the 36 cards are fast-forwarded through the API (events appended with the table's write token);
the last auctions, the final hands and the Pizarro draw are tapped, and the end screen must show
the winner and every player's breakdown. Also: the setup form, the board-sheet form that unblocks
the scoring, a ledger payment, the layout (no horizontal scroll, big buttons in the lower half).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import requests
from playwright.sync_api import expect

from devtools import rules_pages

from .helpers import (
    WIDTH,
    ApiTable,
    assert_no_horizontal_scroll,
    assert_thumb_reachable,
    confirm,
    listed_decisions,
    open_setup,
    rules_index,
    switch_language,
    tap,
)

EXPLORERS = ["columbus", "pizarro", "magellan", "marco_polo", "vasco", "cook"]
NAMES = ["Eva", "Tom", "Ann"]
SIDES = {"pizarro": "B", "vasco": "B"}  # Pizarro draw at the end; Vasco left/right parts


# ---------- the rules links ----------


def test_why_links_point_at_existing_anchors() -> None:
    """The "why?" links name Decisions that exist on both rules pages (MG-1, MG-2, MG-4, MG-5, MG-12)."""
    decisions = listed_decisions("js/games/magellan/common.js", "MG")
    index = rules_index()
    assert decisions == set(index["magellan"]["decisions"])
    for lang in ("en", "de"):
        page = rules_pages.text(f"magellan.{lang}.html")
        for rule in index["magellan"]["rules"]:
            assert f'id="{rule}"' in page, (lang, rule)
        for rule in decisions:
            assert f'id="decision-{rule}"' in page, (lang, rule)


# ---------- API helpers ----------


def sheet_data(sides: dict[str, str], *, crowns_missing: tuple[str, ...] = ()) -> dict[str, Any]:
    """A complete TEST sheet (made-up numbers for the test only): bags = field, crowns = 2 × field.
    Explorers in `crowns_missing` get no crowns (null)."""
    explorers: dict[str, Any] = {}
    for explorer in EXPLORERS:
        explorers[explorer] = {}
        for side in ("A", "B"):
            fields: dict[str, Any] = {}
            for n, roman in enumerate(("I", "II", "III"), start=1):
                leaf = {"bags": n, "crowns": None if explorer in crowns_missing else 2 * n}
                split = (explorer, side) == ("vasco", "B")
                fields[roman] = {"left": dict(leaf), "right": dict(leaf)} if split else leaf
            explorers[explorer][side] = fields
    return {"explorers": explorers}


class Table(ApiTable):
    """A Magellan table of Eva, Tom and Ann driven through the API."""

    def __init__(self, base: str, *, options: dict[str, Any]) -> None:
        super().__init__(base, "magellan", [{"name": n} for n in NAMES], options)

    def auction(self, explorer: str, winner: int, price: int = 1) -> None:
        """Turn up `explorer`; everyone before `winner` passes, `winner` bids, the rest pass (MG-4)."""
        if self.state["stage"] == "reveal":
            self.post({"type": "reveal", "explorer": explorer})
        assert self.state["card"]["explorer"] == explorer
        while self.state["stage"] == "auction":
            seat = self.state["card"]["turn"]
            self.post({"type": "bid", "amount": price} if seat == winner else {"type": "pass"})
        assert self.state["history"][-1] == {
            "phase": self.state["history"][-1]["phase"],
            "explorer": explorer,
            "outcome": "sold",
            "seat": winner,
            "price": price,
        }

    def follow_up(self, slides: Iterator[int]) -> None:
        """The winner's steps in outcomes depth: Vasco part (right), Magellan slide."""
        while self.state["stage"] == "sale":
            step = self.table["legal_actions"]["step"]
            if step == "vasco_part":
                self.post({"type": "vasco_part", "part": "right"})
            elif step == "slide":
                self.post({"type": "slide", "value": next(slides)})
            else:
                raise AssertionError(step)


def fast_forward(table: Table, phase_three: list[str]) -> None:
    """Phases I and II, then the phase III cards in `phase_three`, all through the API.

    Phase I: each explorer's three cards go to Eva, Tom and Ann (six ships each on field I).
    Phase II: each explorer's two cards go to two different players. Phase III: the player with
    the ship on field II wins. Magellan slides 1, 2, 3 (phase I), 4, 5 (phase II), 6 …
    """
    slides = iter([1, 2, 3, 4, 5, 6, 7, 8])
    for i in range(18):
        table.auction(EXPLORERS[i % 6], winner=i // 6)
        table.follow_up(slides)
    assert table.state["phase"] == 2
    for j in range(12):
        winner = j % 3 if j < 6 else (j + 1) % 3
        table.auction(EXPLORERS[j % 6], winner=winner)
        table.follow_up(slides)
    assert table.state["phase"] == 3
    for explorer in phase_three:
        table.auction(explorer, winner=field_owners(table.state, explorer, "II")[0])
        table.follow_up(slides)


def field_owners(state: dict[str, Any], explorer: str, field: str) -> list[int]:
    return [int(ship["seat"]) for ship in state["board"][explorer][field]]


def create_sheet(base: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
    answer = requests.post(
        f"{base}/api/sheets", json={"game": "magellan", "name": name, "data": data}, timeout=5
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


# ---------- UI helpers ----------


def type_price(page: Any, prefix: str, price: int) -> None:
    """The number pad (issue 26): one tap per digit."""
    for digit in str(price):
        tap(page, f"{prefix}-key-{digit}")
    expect(page.get_by_test_id(f"{prefix}-amount")).to_have_text(str(price))


def status(page: Any) -> Any:
    return page.get_by_test_id("mg-status")


def quick_sale(page: Any, explorer: str, winner: int, price: int, *, summary: str | None = None) -> None:
    """Ledger depth: turn up `explorer`, record "winner wins for price" in one confirm (quick entry),
    then the winner pays with the one money card of that value."""
    tap(page, f"mg-reveal-{explorer}")
    confirm(page)
    tap(page, "mg-quick")
    tap(page, f"mg-quick-winner-{winner}")
    type_price(page, "mg-quick", price)
    if summary is not None:
        expect(page.get_by_test_id("mg-quick-summary")).to_have_text(summary)
    tap(page, "confirm")
    expect(status(page)).to_have_attribute("data-step", "pay")
    tap(page, f"mg-money-{price}")
    tap(page, "mg-pay")
    confirm(page, f"{NAMES[winner]} pays {price}")


# ---------- the scripted game ----------


def test_auctions_and_end_scoring_by_tapping(live_server: str, phone_page: Any) -> None:
    page = phone_page
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    fast_forward(table, ["columbus", "marco_polo", "cook"])  # 33 of 36 cards through the API
    state = table.state
    assert state["stage"] == "reveal" and state["decks"][2]["remaining"] == 3
    # Phase III: only the two players with a ship on each explorer's field II may bid (MG-5).
    assert all(len(field_owners(state, e, "II")) == 2 for e in ("vasco", "magellan", "pizarro"))

    page.goto(table.link)
    expect(status(page)).to_have_attribute("data-step", "reveal")
    expect(page.get_by_test_id("mg-deck-3")).to_have_attribute("data-remaining", "3")
    # Explorers no longer in the phase III deck cannot be typed in.
    expect(page.get_by_test_id("mg-reveal-columbus")).to_be_disabled()
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-magellan-reveal-360x740.png")

    # --- Auction 1: Vasco da Gama. Eligible (MG-5): the two players with a ship on field II. ---
    tap(page, "mg-reveal-vasco")
    confirm(page, "Vasco da Gama is turned up")
    expect(page.get_by_test_id("mg-card-name")).to_contain_text("Vasco da Gama")
    eligible = table.refresh()["state"]["card"]["order"]
    assert sorted(eligible) == sorted(field_owners(state, "vasco", "II"))
    bidders = page.get_by_test_id("mg-bidders")
    for seat in range(3):
        expect(bidders.get_by_test_id(f"mg-bidder-{seat}")).to_have_count(1 if seat in eligible else 0)
    expect(page.get_by_test_id("note-who-may-bid")).to_contain_text("field II")
    why = page.get_by_test_id("why-note-who-may-bid").get_attribute("href")
    assert why == "rules/magellan.en.html#decision-MG-5"
    assert page.get_by_test_id("why-opener").get_attribute("href") == "rules/magellan.en.html#decision-MG-4"
    first = eligible[0]
    expect(page.get_by_test_id(f"mg-bidder-{first}")).to_have_attribute("data-status", "turn")
    # The number pad starts at the minimum (MG-4: at least 1); one tap on 3 makes it 3.
    expect(page.get_by_test_id("mg-bid-amount")).to_have_text("1")
    expect(page.get_by_test_id("mg-bid-erase")).to_be_disabled()
    tap(page, "mg-bid-key-3")
    expect(page.get_by_test_id("mg-bid")).to_contain_text("Bid 3")
    page.screenshot(path="/tmp/kibitz-magellan-bid-360x740.png")
    for testid in ("mg-bid", "mg-pass", "mg-quick", "mg-bid-key-8", "mg-bid-erase"):
        assert_thumb_reachable(page, testid)
    tap(page, "mg-bid")
    confirm(page, f"{NAMES[first]} bids 3")
    second = eligible[1]
    expect(page.get_by_test_id(f"mg-bidder-{first}")).to_have_attribute("data-status", "high")
    expect(page.get_by_test_id("mg-bid-amount")).to_have_text("4")  # the new minimum
    tap(page, "mg-pass")
    confirm(page, f"{NAMES[first]} wins Vasco da Gama for 3")
    # Vasco da Gama side B: left or right part (MG-8).
    expect(status(page)).to_have_attribute("data-step", "vasco_part")
    expect(page.get_by_test_id("mg-vasco-left")).to_contain_text("draw 3 cards")
    tap(page, "mg-vasco-right")
    confirm(page, "right part")
    expect(page.get_by_test_id("mg-field-vasco-III-right").get_by_test_id("mg-ship")).to_have_count(1)
    assert first != second

    # --- Auction 2: Magellan, recorded with "who won" in one confirm (bid + passes). ---
    tap(page, "mg-reveal-magellan")
    confirm(page, "Magellan is turned up")
    order = table.refresh()["state"]["card"]["order"]
    magellan_owner, other = order[1], order[0]  # the opener passes, the second player wins
    tap(page, "mg-quick")
    expect(page.get_by_test_id("mg-quick-sheet")).to_be_visible()
    expect(page.get_by_test_id("confirm")).to_be_disabled()  # nothing chosen yet
    tap(page, f"mg-quick-winner-{magellan_owner}")
    tap(page, "mg-quick-key-4")
    expect(page.get_by_test_id("mg-quick-summary")).to_have_text(
        f"{NAMES[magellan_owner]} wins Magellan for 4."
    )
    expect(page.get_by_test_id("mg-quick-sheet")).to_contain_text(f"{NAMES[other]} passes")
    page.screenshot(path="/tmp/kibitz-magellan-quick-360x740.png")
    tap(page, "confirm")
    expect(page.get_by_test_id("mg-quick-sheet")).to_have_count(0)
    expect(status(page)).to_have_attribute("data-step", "slide")
    history = table.refresh()["state"]["history"]
    assert history[-1] == {
        "phase": 3,
        "explorer": "magellan",
        "outcome": "sold",
        "seat": magellan_owner,
        "price": 4,
    }
    # The winner slides a money card under Magellan: onto the pile of two (MG-8) → three cards. The
    # card is secret: the shared phone asks for the slider's own phone, or for them to type it here.
    expect(page.get_by_test_id("mg-slide-elsewhere")).to_contain_text(NAMES[magellan_owner])
    expect(page.get_by_test_id("mg-slide-7")).to_have_count(0)
    tap(page, "mg-slide-here")
    tap(page, "mg-slide-7")
    confirm(page, "Pile 1 now has 3 cards")

    # --- Auction 3: Pizarro, bid and pass by tapping; the last in the order wins. ---
    tap(page, "mg-reveal-pizarro")
    confirm(page, "Pizarro is turned up")
    card = table.refresh()["state"]["card"]
    pizarro_owner = card["order"][-1]
    while card and card["turn"] is not None:
        if card["turn"] == pizarro_owner:
            tap(page, "mg-bid")
            confirm(page, f"{NAMES[pizarro_owner]} bids")
        else:
            tap(page, "mg-pass")
            confirm(page, "passes")
        card = table.refresh()["state"]["card"]
    # All 36 cards are played: the scoring (MG-10) — outcomes depth asks for the hands first.
    expect(status(page)).to_have_attribute("data-step", "final_hand")
    expect(page.get_by_test_id("mg-deck-3")).to_have_count(0)

    # Every hand is typed in, the pad moving on by itself; one sheet confirms them all (MG-10).
    hands = {0: [1, 5], 1: [], 2: [9, 9, 2]}
    for seat, cards in hands.items():
        expect(page.get_by_test_id(f"mg-hand-seat-{seat}")).to_have_attribute("aria-pressed", "true")
        for value in cards:
            tap(page, f"mg-money-{value}")
        expect(page.get_by_test_id("mg-picked")).to_have_attribute("data-cards", ",".join(map(str, cards)))
        if seat == 2:
            page.screenshot(path="/tmp/kibitz-magellan-hand-360x740.png")
            assert_thumb_reachable(page, "mg-hand-save")
        tap(page, "mg-hand-save")
    hands_sheet = page.get_by_test_id("mg-hands-sheet")
    for seat, cards in hands.items():
        row = hands_sheet.get_by_test_id(f"mg-hands-row-{seat}")
        expect(row).to_contain_text(NAMES[seat])
        expect(row).to_have_attribute("data-cards", ",".join(map(str, sorted(cards))))
    hands_sheet.get_by_test_id("confirm").tap()
    expect(hands_sheet).to_have_count(0)
    # The Pizarro helper (MG-11) for the owner of Pizarro side B field III.
    expect(status(page)).to_have_attribute("data-step", "pizarro")
    expect(page.get_by_test_id("mg-standings")).to_be_visible()
    helper = page.get_by_test_id("mg-pizarro")
    expect(helper).to_contain_text(NAMES[pizarro_owner])
    # From 0 no card can bust.
    expect(page.get_by_test_id("mg-pizarro-bust")).to_have_attribute("data-value", "0")
    expect(page.get_by_test_id("mg-pizarro-advice")).to_contain_text("Advice")
    assert_thumb_reachable(page, "mg-pizarro-stop")
    page.screenshot(path="/tmp/kibitz-magellan-pizarro-360x740.png")
    before = {s["seat"]: s["before_pizarro"] for s in table.refresh()["state"]["scoring"]["scores"]}
    tap(page, "mg-pizarro-card-8")
    confirm(page, "Pizarro total: 8")
    # The standings "before the Pizarro draw" leave the cards turned up so far out (MG-11 counts last).
    draw_total = next(s for s in table.refresh()["state"]["scoring"]["scores"] if s["seat"] == pizarro_owner)
    assert draw_total["total"] == before[pizarro_owner] + 8
    standing = page.get_by_test_id(f"mg-standing-{pizarro_owner}")
    expect(standing).to_have_text(f"{before[pizarro_owner]} points")
    expect(page.get_by_test_id("mg-pizarro-total")).to_have_attribute("data-total", "8")
    expect(page.get_by_test_id("mg-pizarro-bust")).to_have_attribute("data-value", "0")  # 8 + 9 = 17
    tap(page, "mg-pizarro-card-9")
    confirm(page, "Pizarro total: 17")
    expect(page.get_by_test_id("mg-pizarro-total")).to_have_attribute("data-total", "17")
    bust = float(page.get_by_test_id("mg-pizarro-bust").get_attribute("data-value") or "nan")
    assert 0.5 < bust < 1  # every card from 4 up would go over 20
    expect(page.get_by_test_id("mg-pizarro-card-4")).to_contain_text("0")  # 17 + 4 > 20 scores 0
    tap(page, "mg-pizarro-stop")
    confirm(page, "stops the Pizarro draw at 17")

    # --- The end screen: winner and breakdown, equal to the API's result. ---
    result = table.refresh()["result"]
    assert table.table["finished"]
    winners = [r["name"] for r in result["ranking"] if r["seat"] in result["winners"]]
    expect(page.get_by_test_id("winner")).to_contain_text(winners[0])
    expect(page.get_by_test_id("result-explanation")).to_contain_text(
        f"{result['ranking'][0]['score']} points"
    )
    for score in result["scores"]:
        seat = score["seat"]
        box = page.get_by_test_id(f"mg-breakdown-{seat}")
        expect(box).to_contain_text(score["name"])
        expect(page.get_by_test_id(f"mg-bd-total-{seat}")).to_have_text(f"{score['total']} points")
        expect(page.get_by_test_id(f"mg-bd-fields-{seat}")).to_contain_text(str(score["fields_total"]))
        expect(page.get_by_test_id(f"mg-bd-money-{seat}")).to_contain_text(str(score["money"]["crowns"]))
        for i, pile in enumerate(score["magellan"]["piles"]):
            row = page.get_by_test_id(f"mg-bd-pile-{seat}-{i}")
            # Card values and crowns apart (MG-1): "money cards 1, 4, 7 → crowns 3 + 2 + 1 = 6, × 3".
            expect(row).to_contain_text(f"money cards {', '.join(map(str, pile['slid']))} → crowns")
            expect(row).to_contain_text(f"{pile['crowns']}, × {pile['multiplier']}")
            expect(row).to_contain_text(str(pile["points"]))
    magellan_score = result["scores"][magellan_owner]["magellan"]["piles"][0]
    assert magellan_score["multiplier"] == 3 and magellan_score["slid"][-1] == 7
    expect(page.get_by_test_id(f"mg-bd-pizarro-{pizarro_owner}")).to_contain_text("8 + 9 = 17")
    expect(page.get_by_test_id("mg-bd-money-0")).to_contain_text("money cards 1, 5 → crowns 3 + 2 = 5")
    expect(page.get_by_test_id("mg-bd-money-2")).to_contain_text("money cards 2, 9, 9 → crowns 3 + 1 + 1 = 5")
    expect(page.get_by_test_id("export-json")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-magellan-end-360x740.png", full_page=True)

    # German, with the "why?" link to the tie Decision (MG-12).
    switch_language(page, "de")
    expect(page.get_by_test_id("winner")).to_contain_text(
        "gewinnt" if len(winners) == 1 else "Geteilter Sieg"
    )
    assert page.get_by_test_id("why-result").get_attribute("href") == "rules/magellan.de.html#decision-MG-12"
    expect(page.get_by_test_id(f"mg-bd-total-{result['ranking'][0]['seat']}")).to_contain_text("Punkte")


# ---------- setup form ----------


def test_setup_form_creates_the_table(live_server: str, phone_page: Any) -> None:
    page = phone_page
    sides = {"pizarro": "B"}
    sheet = create_sheet(live_server, "Club board", sheet_data(sides))
    open_setup(page, live_server, "magellan")
    assert_no_horizontal_scroll(page)
    assert_thumb_reachable(page, "create-table")
    page.screenshot(path="/tmp/kibitz-magellan-setup-360x740.png")

    for i, name in enumerate(["Eva", "Tom", "Ann"]):
        page.get_by_test_id(f"player-name-{i}").fill(name)
    tap(page, "add-player")
    page.get_by_test_id("player-name-3").fill("Bob")
    expect(page.get_by_test_id("mg-side-hint-pizarro")).to_have_text("No action.")
    tap(page, "mg-side-pizarro-B")
    expect(page.get_by_test_id("mg-side-pizarro-B")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("mg-side-hint-pizarro")).to_contain_text("Pizarro draw")
    tap(page, "mg-depth-ledger")
    page.get_by_test_id("mg-auctioneer").select_option("2")
    # No sheet yet: 32 numbers needed (Pizarro B field III scores the draw, no crowns).
    expect(page.get_by_test_id("mg-sheet-info")).to_contain_text("32 numbers")
    # A sheet made on another phone, added by its id; it is complete for these sides (MG-2).
    page.get_by_test_id("mg-sheet-id").fill(sheet["id"])
    tap(page, "mg-sheet-add")
    expect(page.get_by_test_id("mg-sheet-select")).to_have_value(sheet["id"])
    expect(page.get_by_test_id("mg-sheet-info")).to_contain_text("Complete for these sides")
    assert page.get_by_test_id("why-sheet").get_attribute("href") == "rules/magellan.en.html#decision-MG-2"
    assert_no_horizontal_scroll(page)
    tap(page, "create-table")

    expect(page.get_by_test_id("mg-board")).to_be_visible()
    table_id = page.evaluate("location.hash").split("/")[2]
    table = requests.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    state = table["state"]
    assert [p["name"] for p in state["players"]] == ["Eva", "Tom", "Ann", "Bob"]
    assert state["options"] == {
        "sides": {
            "columbus": "A",
            "pizarro": "B",
            "magellan": "A",
            "marco_polo": "A",
            "vasco": "A",
            "cook": "A",
        },
        "depth": "ledger",
        "chance": "physical",
        "auctioneer": 2,
    }
    assert state["board_sheet_missing"] == []
    links = json.loads(page.evaluate("localStorage.getItem('kibitz.magellan.table_sheets')"))
    assert links[table_id] == sheet["id"]
    # Ann, the auctioneer, turns up the first card (MG-3, MG-4).
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-seat", "2")
    expect(page.get_by_test_id("prompt")).to_contain_text("Ann turns up")
    for explorer in EXPLORERS:
        assert_thumb_reachable(page, f"mg-reveal-{explorer}")
    assert_no_horizontal_scroll(page)


# ---------- board-sheet form ----------


def test_board_sheet_form_unblocks_the_scoring(live_server: str, phone_page: Any) -> None:
    page = phone_page
    table = Table(live_server, options={"sides": SIDES, "depth": "outcomes", "chance": "physical"})
    fast_forward(table, EXPLORERS)
    for seat in range(3):
        table.post({"type": "final_hand", "seat": seat, "cards": [seat + 1]})
    blocked = table.table["legal_actions"]["blocked"]
    assert blocked["code"] == "board-sheet-incomplete"
    needed_now = len(blocked["missing"])

    page.goto(table.link)
    expect(page.get_by_test_id("mg-blocked")).to_have_attribute("data-missing", str(needed_now))
    assert page.get_by_test_id("why-blocked").get_attribute("href") == "rules/magellan.en.html#decision-MG-2"
    assert_thumb_reachable(page, "mg-sheet-fix")
    tap(page, "mg-sheet-fix")
    form = page.get_by_test_id("mg-sheet-form")
    expect(form).to_be_visible()
    # The form asks for what the scoring waits for, not the whole board (MG-2, MG-10): only the
    # crowns of fields with ships whose number is missing; the rest is one tap away.
    missing = form.get_by_test_id("mg-sheet-missing")
    expect(form.locator("input.mg-num:visible")).to_have_count(needed_now)
    expect(form.locator("input.mg-num.is-needed:visible")).to_have_count(needed_now)
    expect(missing).to_have_attribute("data-missing", str(needed_now))
    expect(missing).to_contain_text(f"{needed_now} of {needed_now} entries")
    assert needed_now < 35
    page.screenshot(path="/tmp/kibitz-magellan-sheet-form-focused-360x740.png")
    tap(page, "mg-sheet-show-all")
    expect(form.get_by_test_id("mg-sheet-show-all")).to_be_hidden()
    # Only what these sides need (MG-2): 21 bags (Vasco B has two parts per field) and 14 crowns
    # (no crowns for Magellan, Vasco B's left parts and Pizarro B field III: a rule scores those).
    inputs = form.locator("input.mg-num")
    expect(inputs).to_have_count(35)
    expect(form.locator("input.mg-num.is-needed")).to_have_count(needed_now)
    expect(form.get_by_test_id("mg-sheet-magellan-I-crowns")).to_have_count(0)
    expect(form.get_by_test_id("mg-sheet-vasco-II-left-crowns")).to_have_count(0)
    expect(form.get_by_test_id("mg-sheet-vasco-II-right-crowns")).to_have_count(1)
    expect(form.get_by_test_id("mg-sheet-pizarro-III-crowns")).to_have_count(0)
    expect(inputs.locator("visible=true")).to_have_count(35)
    expect(missing).to_have_attribute("data-missing", "35")
    box = form.get_by_test_id("mg-sheet-cook-II-crowns").bounding_box()
    assert box and box["height"] >= 48
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-magellan-sheet-form-360x740.png")
    # Typed-in numbers; something that is not a number blocks saving.
    form.get_by_test_id("mg-sheet-cook-II-crowns").fill("x")
    expect(missing).to_contain_text("not a number")
    expect(form.get_by_test_id("mg-sheet-save")).to_be_disabled()
    for i in range(35):
        box = inputs.nth(i)
        testid = box.get_attribute("data-testid") or ""
        box.fill("3" if testid.endswith("-bags") else "5")
    expect(missing).to_have_attribute("data-missing", "0")
    expect(missing).to_contain_text("Complete")
    form.get_by_test_id("mg-sheet-name").fill("Test board")
    tap(page, "mg-sheet-save")
    expect(form).to_have_count(0)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pizarro")

    # The sheet is stored (POST) with its edit token on this phone, and linked to the table.
    sheets = json.loads(page.evaluate("localStorage.getItem('kibitz.magellan.sheets')"))
    assert sheets[0]["name"] == "Test board" and sheets[0]["token"]
    sheet_id = sheets[0]["id"]
    assert (
        json.loads(page.evaluate("localStorage.getItem('kibitz.magellan.table_sheets')"))[table.id]
        == sheet_id
    )
    stored = requests.get(f"{live_server}/api/sheets/{sheet_id}", timeout=5).json()
    assert stored["version"] == 1
    assert stored["data"]["explorers"]["vasco"]["B"]["II"]["right"] == {"bags": 3, "crowns": 5}
    assert stored["data"]["explorers"]["vasco"]["B"]["II"]["left"] == {"bags": 3, "crowns": None}
    assert table.refresh()["state"]["board_sheet_missing"] == []

    # Changing a number later updates the same sheet (PUT with the edit token) and the table.
    tap(page, "mg-sheet-open")
    form = page.get_by_test_id("mg-sheet-form")
    expect(form.get_by_test_id("mg-sheet-cook-III-crowns")).to_have_value("5")
    form.get_by_test_id("mg-sheet-cook-III-crowns").fill("7")
    tap(page, "mg-sheet-save")
    expect(form).to_have_count(0)
    stored = requests.get(f"{live_server}/api/sheets/{sheet_id}", timeout=5).json()
    assert stored["version"] == 2 and stored["data"]["explorers"]["cook"]["A"]["III"]["crowns"] == 7
    expect(page.get_by_test_id("mg-field-cook-III")).to_contain_text("7")

    # Pizarro: stop at once; the end screen appears.
    tap(page, "mg-pizarro-stop")
    confirm(page, "at 0")
    expect(page.get_by_test_id("winner")).to_be_visible()


# ---------- ledger depth: payment and Magellan B ----------


def test_ledger_payment_and_magellan_b_slide(live_server: str, phone_page: Any) -> None:
    page = phone_page
    sides = {"magellan": "B"}
    table = Table(
        live_server,
        options={"sides": sides, "depth": "ledger", "chance": "physical", "board_sheet": sheet_data(sides)},
    )
    table.hand_seat_links_to(page)  # pass and play: this phone holds every seat link
    page.goto(table.link)
    expect(page.get_by_test_id("prompt")).to_contain_text("Eva turns up")
    tap(page, "mg-reveal-magellan")
    confirm(page, "Magellan is turned up")
    expect(page.get_by_test_id("mg-opener")).to_contain_text("Eva opens as the auctioneer")
    tap(page, "mg-bid-key-5")
    tap(page, "mg-bid")
    confirm(page, "Eva bids 5")
    tap(page, "mg-pass")
    confirm(page, "Tom passes")
    tap(page, "mg-pass")
    confirm(page, "Eva wins Magellan for 5")
    # MG-6: pay at least 5 from the hand 1–9; the button stays off until the cards add up.
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pay")
    tap(page, "mg-money-2")
    expect(page.get_by_test_id("mg-pay")).to_be_disabled()
    tap(page, "mg-money-3")
    expect(page.get_by_test_id("mg-pay")).to_contain_text("Pay 5")
    assert_thumb_reachable(page, "mg-pay")
    page.screenshot(path="/tmp/kibitz-magellan-pay-360x740.png")
    tap(page, "mg-pay")
    confirm(page, "Eva pays 2 + 3 = 5")
    # Magellan B: one card of the payment goes under Magellan, face up (MG-8).
    expect(page.get_by_test_id("mg-slide-1")).to_be_disabled()
    expect(page.get_by_test_id("mg-slide-2")).to_be_enabled()
    tap(page, "mg-slide-3")
    confirm(page, "Eva slides a money card worth 3 under Magellan")
    expect(page.get_by_test_id("mg-player-0")).to_contain_text("7 cards in hand")
    expect(page.get_by_test_id("mg-player-0")).to_contain_text("Magellan [3]")
    # Undo takes the slide back.
    tap(page, "undo")
    confirm(page)
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "slide")


# ---------- digital chance ----------


def test_digital_table_turns_up_cards_itself(live_server: str, phone_page: Any) -> None:
    page = phone_page
    table = Table(live_server, options={"sides": {}, "depth": "outcomes", "chance": "digital"})
    first = table.state["card"]["explorer"]  # the server turned up the first card
    page.goto(table.link)
    expect(page.get_by_test_id("mg-card")).to_have_attribute("data-explorer", first)
    tap(page, "mg-bid")
    confirm(page, "Eva bids 1")
    tap(page, "mg-pass")
    confirm(page, "Tom passes")
    # The last pass sells the card and the server turns up the next one: the preview must not
    # show it, so the confirm sheet says only what the pass does.
    tap(page, "mg-pass")
    text = confirm(page, "Ann passes")
    nxt = table.refresh()["state"]["card"]
    assert table.state["history"][-1]["seat"] == 0
    if first == "magellan":
        expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "slide")
    else:
        expect(page.get_by_test_id("mg-card")).to_have_attribute("data-explorer", nxt["explorer"])
        assert "turned up" not in text


# ---------- view only, layout ----------


def test_view_only_link_and_layout(live_server: str, phone_page: Any) -> None:
    page = phone_page
    table = Table(
        live_server,
        options={"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)},
    )
    fast_forward(table, [])
    table.post({"type": "reveal", "explorer": "vasco"})
    page.goto(f"{live_server}/#/t/{table.id}")
    expect(page.get_by_test_id("view-only")).to_be_visible()
    expect(page.get_by_test_id("mg-board")).to_be_visible()
    expect(page.get_by_test_id("mg-bid")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_have_count(0)
    expect(page.get_by_test_id("mg-sheet-open")).to_have_count(0)
    assert_no_horizontal_scroll(page)
    # Every row of the board fits: ships of all seats on Vasco da Gama's split fields.
    cell = page.get_by_test_id("mg-field-vasco-II")
    expect(cell).to_have_attribute("data-count", "2")
    box = cell.bounding_box()
    assert box and box["x"] + box["width"] <= WIDTH
    page.get_by_test_id("mg-board").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/kibitz-magellan-board-360x740.png")
    text = page.get_by_test_id("mg-board").inner_text()
    assert re.search(r"Vasco da Gama", text)


# ---------- ledger depth: veto, Vasco draw, Cook pull, phase-end income and Marco Polo swaps ----------


class Ledger(Table):
    """A ledger table whose hands and draw stack the test keeps track of (hands are secret in the view)."""

    def __init__(self, base: str, *, options: dict[str, Any]) -> None:
        super().__init__(base, options=options)
        self.hands: dict[int, list[int]] = {s: list(range(1, 10)) for s in range(3)}
        self.stack: dict[int, int] = {v: 7 - 3 for v in range(1, 10)}

    def stack_value(self) -> int:
        value = max(v for v, n in self.stack.items() if n > 0)
        self.stack[value] -= 1
        return value

    def settle(self) -> None:
        while self.state["stage"] == "sale":
            actor = self.table["legal_actions"]["actors"][0]
            seat, action = actor["seat"], actor["actions"][0]
            if action["type"] == "pay":
                card = min(v for v in self.hands[seat] if v >= action["at_least"])
                self.hands[seat].remove(card)
                self.post({"type": "pay", "cards": [card]})
            elif action["type"] == "draw":
                cards = [self.stack_value() for _ in range(action["count"])]
                self.hands[seat] += cards
                self.post({"type": "draw", "cards": cards})
            elif action["type"] == "slide":
                card = min(self.hands[seat])
                self.hands[seat].remove(card)
                self.post({"type": "slide", "value": card})
            elif action["type"] == "cook_pull":
                card = max(self.hands[action["from_seat"]])
                self.hands[action["from_seat"]].remove(card)
                self.post({"type": "cook_pull", "value": card})
            else:
                raise AssertionError(action)

    def sell(self, explorer: str, winner: int) -> None:
        self.auction(explorer, winner)
        self.settle()

    def reshuffled_stack(self) -> dict[int, int]:
        """MG-9: after the phase the discard pile goes back into the draw stack: everything not in a
        hand or under Magellan."""
        piles = [
            v for p in self.state["players"] for pile in p["magellan_piles"] for v in (pile["slid"] or [])
        ]
        held = [v for hand in self.hands.values() for v in hand] + piles
        return {v: 7 - held.count(v) for v in range(1, 10)}


def test_ledger_veto_draws_cook_pull_income_and_swaps(live_server: str, phone_page: Any) -> None:
    page = phone_page
    sides = {"cook": "B"}  # Columbus A, Vasco A (draw at once), Marco Polo A (swaps), Cook B (pull)
    table = Ledger(
        live_server,
        options={"sides": sides, "depth": "ledger", "chance": "physical", "board_sheet": sheet_data(sides)},
    )
    table.hand_seat_links_to(page)  # pass and play: this phone holds every seat link
    page.goto(table.link)

    # Columbus to Eva for 1: she holds the veto now (MG-8).
    tap(page, "mg-reveal-columbus")
    confirm(page)
    tap(page, "mg-bid")
    confirm(page, "Eva bids 1")
    tap(page, "mg-pass")
    confirm(page)
    tap(page, "mg-pass")
    confirm(page, "Eva wins Columbus for 1")
    tap(page, "mg-money-1")
    tap(page, "mg-pay")
    confirm(page, "Eva pays 1 = 1")
    table.hands[0].remove(1)

    # Cook turned up: Eva vetoes it before the first bid; it goes under the deck.
    tap(page, "mg-reveal-cook")
    confirm(page)
    expect(page.get_by_test_id("mg-veto-0")).to_contain_text("Veto: Eva")
    expect(page.get_by_test_id("actionbar")).to_contain_text(
        "Columbus veto before the first bid: Cook goes under the deck"
    )
    assert_thumb_reachable(page, "mg-veto-0")
    tap(page, "mg-veto-0")
    confirm(page, "Eva vetoes Cook")
    expect(page.get_by_test_id("mg-composition")).to_contain_text("under the deck: Cook")
    expect(page.get_by_test_id("mg-veto-0")).to_have_count(0)

    # Vasco da Gama A: Tom wins (one confirm for pass + bid + pass), pays, draws 1 card at once.
    quick_sale(page, "vasco", 1, 2, summary="Tom wins Vasco da Gama for 2.")
    table.hands[1].remove(2)
    expect(page.get_by_test_id("prompt")).to_contain_text("Tom draws 1 money card")
    tap(page, "mg-money-9")
    expect(page.get_by_test_id("mg-draw-save")).to_contain_text("Record 1 card for Tom")
    tap(page, "mg-draw-save")
    confirm(page, "Tom drew 9")
    table.hands[1].append(9)
    table.stack[9] -= 1

    # Cook B: Ann wins; Eva (her left neighbour) pulls a card from Ann's hand.
    quick_sale(page, "cook", 2, 1)
    table.hands[2].remove(1)
    expect(page.get_by_test_id("prompt")).to_contain_text("Eva pulls a card from Ann's hand")
    tap(page, "mg-cook-9")
    confirm(page, "Eva pulls a money card worth 9 from Ann's hand")
    table.hands[2].remove(9)
    table.refresh()

    # The rest of phase I through the API (everyone ends with six ships on field I).
    table.sell("magellan", 0)
    table.sell("magellan", 1)
    table.sell("magellan", 2)
    table.sell("marco_polo", 1)
    table.sell("marco_polo", 2)
    table.sell("marco_polo", 2)
    table.sell("pizarro", 0)
    table.sell("pizarro", 1)
    table.sell("pizarro", 2)
    table.sell("columbus", 0)
    table.sell("columbus", 1)
    table.sell("vasco", 0)
    table.sell("vasco", 2)
    table.sell("cook", 0)
    table.sell("cook", 1)  # the vetoed Cook comes up by itself once the deck is empty
    assert [p["ships_left"] for p in table.state["players"]] == [0, 0, 0]

    # MG-9: 2 cards + 1 bag per ship on field I (the test sheet) = 8 each, typed in per player.
    assert table.state["stage"] == "phase_end" and table.state["phase_end"]["due"] == [8, 8, 8]
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "income")
    expect(page.get_by_test_id("mg-income-1-0")).to_have_text("+8")
    stack = table.reshuffled_stack()
    income: list[int] = []
    for value in range(1, 10):
        income += [value] * min(stack[value], 8 - len(income))
    for value in income:
        stack[value] -= 1
    tap(page, "mg-draw-seat-0")
    for value in income:
        tap(page, f"mg-money-{value}")
    page.screenshot(path="/tmp/kibitz-magellan-income-360x740.png")
    tap(page, "mg-draw-save")
    confirm(page, f"Eva drew {', '.join(map(str, income))}")
    table.hands[0] += income
    for seat in (1, 2):
        cards: list[int] = []
        for value in range(9, 0, -1):
            cards += [value] * min(stack[value], 8 - len(cards))
        for value in cards:
            stack[value] -= 1
        table.refresh()
        table.post({"type": "draw", "seat": seat, "cards": cards})
        table.hands[seat] += cards

    # Marco Polo A swaps: Tom 3 (one ship on field I), Ann 6 (two ships).
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "swap")
    expect(page.get_by_test_id("mg-swaps-left")).to_contain_text("Tom 3, Ann 6")
    tap(page, "mg-swap-seat-1")
    out = min(table.hands[1])
    drawn = next(v for v in range(9, 0, -1) if stack[v] > 0)
    tap(page, f"mg-swap-out-{out}")
    expect(page.get_by_test_id("prompt")).to_contain_text(f"Tom gave away a money card worth {out}")
    tap(page, f"mg-swap-in-{drawn}")
    confirm(page, f"Tom swaps a money card worth {out} for one worth {drawn}")
    expect(page.get_by_test_id("mg-swaps-left")).to_contain_text("Tom 2, Ann 6")
    tap(page, "mg-swap-seat-1")
    tap(page, "mg-end-swaps")
    confirm(page, "Tom swaps no more")
    tap(page, "mg-end-swaps")  # only Ann is left
    confirm(page, "Ann swaps no more")
    # Phase II: the auctioneer turns up the first card; only field I owners may bid (MG-5).
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "reveal")
    expect(page.get_by_test_id("mg-card")).to_contain_text("Phase II")
    assert_no_horizontal_scroll(page)
