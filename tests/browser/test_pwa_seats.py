"""Players' own links at a Magellan ledger table with digital chance, on 360×740 phones.

The server holds the money cards (MG-3), so each player sees their own hand on their own phone:
a seat link opens "My cards" (kept fresh with the table's version); the phone that made the table
lists every player's link in the share sheet; a tampered link is refused and forgotten; and when I
am the one paying, the pay pad offers exactly my cards.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from .helpers import ApiTable, assert_no_horizontal_scroll, confirm, open_setup, tap

NAMES = ["Eva", "Tom", "Ann"]
LEDGER_DIGITAL = {"depth": "ledger", "chance": "digital"}
SEED = 1  # the server turns up Marco Polo, then Pizarro: neither asks more than the payment


def ledger_table(base: str) -> ApiTable:
    return ApiTable(base, "magellan", [{"name": n} for n in NAMES], LEDGER_DIGITAL, seed=SEED)


def sell(table: ApiTable, winner: int, price: int) -> None:
    """Through the API: `winner` bids `price` for the card up, everyone else passes (MG-4)."""
    while table.state["stage"] == "auction":
        seat = table.state["card"]["turn"]
        table.post({"type": "bid", "amount": price} if seat == winner else {"type": "pass"})
    assert table.table["legal_actions"]["step"] == "pay"
    assert table.table["legal_actions"]["next"]["seat"] == winner


def pad_values(page: Any, testid: str = "mg-money-pad") -> list[int]:
    """The values the pad offers, in order."""
    keys = page.get_by_test_id(testid).locator("button")
    ids = keys.evaluate_all("keys => keys.map(k => k.dataset.testid)")
    return [int(i.rsplit("-", 1)[1]) for i in ids]


def stored(page: Any, key: str) -> dict[str, Any]:
    return dict(json.loads(page.evaluate(f"localStorage.getItem('kibitz.{key}')") or "{}"))


def test_seat_link_shows_my_cards(live_server: str, new_phone: Callable[..., Any]) -> None:
    table = ledger_table(live_server)
    page = new_phone()
    page.goto(table.seat_link(1))
    expect(page.get_by_test_id("my-seat")).to_have_text("You are Tom")
    # The seat link records no moves ("You are Tom" stands in for the "view only" badge).
    expect(page.get_by_test_id("view-only")).to_be_hidden()
    expect(page.get_by_test_id("actionbar")).to_contain_text("View only")
    expect(page.get_by_test_id("mg-bid")).to_have_count(0)
    mine = page.get_by_test_id("my-hand")
    expect(mine).to_have_attribute("data-cards", "1,2,3,4,5,6,7,8,9")  # MG-3: the starting money set
    expect(mine).to_contain_text("My cards")
    expect(page.get_by_test_id("my-hand-summary")).to_contain_text("9 cards, worth 45")
    for value in range(1, 10):
        expect(page.get_by_test_id(f"my-card-{value}")).to_have_attribute("data-count", "1")
    # The seat token stays on the phone, out of the visible URL.
    assert page.evaluate("location.hash") == f"#/t/{table.id}"
    assert stored(page, "my_seats")[table.id] == {"seat": 1, "token": table.seats[1]["token"]}
    # Nobody else's hand on this phone: the public view shows only hand sizes.
    expect(page.get_by_test_id("mg-player-0")).to_contain_text("9 cards in hand")
    assert_no_horizontal_scroll(page)
    mine.screenshot(path="/tmp/kibitz-seat-my-cards-panel.png")
    page.screenshot(path="/tmp/kibitz-seat-my-cards-360x740.png")

    # Tom wins the Marco Polo for 3 and pays with his 3 on another phone: my cards follow the table.
    sell(table, winner=1, price=3)
    table.post({"type": "pay", "cards": [3]})
    expect(mine).to_have_attribute("data-cards", "1,2,4,5,6,7,8,9")
    expect(page.get_by_test_id("my-card-3")).to_have_count(0)
    expect(page.get_by_test_id("my-hand-summary")).to_contain_text("8 cards, worth 42")


def test_share_sheet_lists_the_players_own_links(live_server: str, new_phone: Callable[..., Any]) -> None:
    page = new_phone()
    open_setup(page, live_server, "magellan")
    for i, name in enumerate(NAMES):
        page.get_by_test_id(f"player-name-{i}").fill(name)
    tap(page, "mg-depth-ledger")
    tap(page, "chance-digital")
    tap(page, "create-table")
    expect(page.get_by_test_id("mg-board")).to_be_visible()
    table_id = page.evaluate("location.hash").split("/")[2]
    links = stored(page, "seat_links")[table_id]
    assert [link["seat"] for link in links] == [0, 1, 2]

    # The same phone opens the table with the write link: the share sheet lists the players' links.
    token = stored(page, "tokens")[table_id]
    page.goto(f"{live_server}/#/t/{table_id}?k={token}")
    expect(page.get_by_test_id("mg-board")).to_be_visible()
    expect(page.get_by_test_id("my-seat")).to_have_count(0)  # the write link is nobody's seat
    tap(page, "share")
    sheet = page.get_by_test_id("share-sheet")
    expect(sheet).to_be_visible()
    expect(page.get_by_test_id("share-link")).to_have_value(f"{live_server}/#/t/{table_id}?k={token}")
    expect(page.get_by_test_id("seat-links")).to_contain_text("Players' own links")
    expect(page.get_by_test_id("seat-links")).to_contain_text(
        "Each player opens their own link to see their own cards; it cannot record moves."
    )
    for seat, name in enumerate(NAMES):
        entry = page.get_by_test_id(f"seat-link-{seat}")
        expect(entry).to_contain_text(name)
        expect(page.get_by_test_id(f"seat-copy-{seat}")).to_be_visible()
        url = page.get_by_test_id(f"seat-link-input-{seat}").input_value()
        assert url == entry.get_attribute("data-link")
        assert re.fullmatch(rf"{re.escape(live_server)}/#/t/{table_id}\?s={seat}&sk=[\w-]+", url), url
        assert url.endswith(f"sk={links[seat]['token']}")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-seat-share-sheet-360x740.png")

    # Ann's link, opened on her own phone: her cards, her name in the header.
    ann = new_phone()
    ann.goto(page.get_by_test_id("seat-link-input-2").input_value())
    expect(ann.get_by_test_id("my-seat")).to_have_text("You are Ann")
    expect(ann.get_by_test_id("my-hand")).to_have_attribute("data-cards", "1,2,3,4,5,6,7,8,9")
    tap(page, "close")

    # A table without secret cards (outcomes depth, Magellan B slides from the payment face up, MG-8)
    # has no players' links to share.
    open_setup(page, live_server, "magellan")
    for i, name in enumerate(NAMES):
        page.get_by_test_id(f"player-name-{i}").fill(name)
    tap(page, "mg-side-magellan-B")
    tap(page, "create-table")
    expect(page.get_by_test_id("mg-board")).to_be_visible()
    tap(page, "share")
    expect(page.get_by_test_id("share-link")).to_be_visible()
    expect(page.get_by_test_id("seat-links")).to_have_count(0)


def test_tampered_seat_link_is_refused(live_server: str, new_phone: Callable[..., Any]) -> None:
    table = ledger_table(live_server)
    page = new_phone()
    good = table.seats[1]["token"]
    page.goto(f"{live_server}/#/t/{table.id}?s=1&sk={good[:-4]}abcd")
    error = page.get_by_test_id("seat-error")
    expect(error).to_contain_text("This player's link is not valid")
    expect(page.get_by_test_id("my-seat")).to_have_count(0)
    expect(page.get_by_test_id("my-hand")).to_have_count(0)
    expect(page.get_by_test_id("mg-board")).to_be_visible()  # the table itself still shows
    expect(page.get_by_test_id("view-only")).to_be_visible()
    assert table.id not in stored(page, "my_seats")
    assert page.evaluate("location.hash") == f"#/t/{table.id}"
    assert_no_horizontal_scroll(page)
    # The shared write token is no seat's key either, nor is a seat the table does not have.
    page.goto(f"{live_server}/#/t/{table.id}?s=0&sk={table.token}")
    expect(page.get_by_test_id("seat-error")).to_be_visible()
    page.goto(f"{live_server}/#/t/{table.id}?s=7&sk={good}")
    expect(page.get_by_test_id("seat-error")).to_be_visible()
    assert table.id not in stored(page, "my_seats")


def test_pay_pad_offers_only_my_cards(live_server: str, new_phone: Callable[..., Any]) -> None:
    table = ledger_table(live_server)
    sell(table, winner=1, price=3)
    # Tom's phone: his own link together with the write link (he records his own payment).
    page = new_phone()
    page.goto(f"{table.seat_link(1)}&k={table.token}")
    expect(page.get_by_test_id("my-seat")).to_have_text("You are Tom")
    expect(page.get_by_test_id("view-only")).to_have_count(0)
    assert page.evaluate("location.hash") == f"#/t/{table.id}"
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pay")
    pad = page.get_by_test_id("mg-money-pad")
    expect(pad).to_have_attribute("data-ready", "true")
    assert pad_values(page) == list(range(1, 10))
    tap(page, "mg-money-3")
    expect(page.get_by_test_id("mg-money-3")).to_be_disabled()  # only one 3 in hand
    expect(page.get_by_test_id("mg-money-3")).to_have_attribute("data-count", "0")
    tap(page, "mg-pay")
    confirm(page, "Tom pays 3")
    # GEN-1: the payment ended the sale and the server turned up the next card: it stands, and the
    # toast offers no Undo the server would refuse.
    expect(page.get_by_test_id("undo-toast")).to_contain_text("Tom pays 3")
    expect(page.get_by_test_id("toast-undo")).to_have_count(0)
    expect(page.get_by_test_id("my-hand")).to_have_attribute("data-cards", "1,2,4,5,6,7,8,9")

    # The next card (turned up by the server) goes to Tom for 4, recorded on another phone.
    table.refresh()
    sell(table, winner=1, price=4)
    view = table.seat_view(1)
    assert view is not None
    hand = view["hand"]
    assert sorted(hand) == [1, 2, 4, 5, 6, 7, 8, 9]
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "pay")
    expect(pad).to_have_attribute("data-ready", "true")
    assert pad_values(page) == sorted(hand)  # exactly my cards: no 3 any more
    for value in hand:
        key = page.get_by_test_id(f"mg-money-{value}")
        expect(key).to_be_enabled()
        expect(key).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id("mg-money-3")).to_have_count(0)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-seat-pay-pad-360x740.png")

    # Eva's phone (her own link + the write link): Tom pays, not she — the usual nine keys.
    eva = new_phone()
    eva.goto(f"{table.seat_link(0)}&k={table.token}")
    expect(eva.get_by_test_id("my-seat")).to_have_text("You are Eva")
    expect(eva.get_by_test_id("my-hand")).to_have_attribute("data-cards", "1,2,3,4,5,6,7,8,9")
    expect(eva.get_by_test_id("mg-status")).to_have_attribute("data-step", "pay")
    expect(eva.get_by_test_id("mg-money-pad")).not_to_have_attribute("data-mine", "true")
    assert pad_values(eva) == list(range(1, 10))

    # Tom pays 4 with his 4: the pad counts it down, the hand follows.
    tap(page, "mg-money-4")
    expect(page.get_by_test_id("mg-money-4")).to_have_attribute("data-count", "0")
    tap(page, "mg-pay")
    confirm(page, "Tom pays 4")
    expect(page.get_by_test_id("my-hand")).to_have_attribute("data-cards", "1,2,5,6,7,8,9")


def test_my_own_phone_knows_my_bid_limit(live_server: str, new_phone: Callable[..., Any]) -> None:
    """MG-6: what a hand can pay is its owner's secret. The shared bar offers the bid without a limit;
    my own phone (my link with the write link) stops at what my hand can pay, records my bid with my
    own seat token, and says when only a pass is left."""
    table = ledger_table(live_server)  # the server turns up Marco Polo: nothing to keep in hand
    table.post({"type": "bid", "amount": 40})  # Eva, from her own phone

    tom = new_phone()
    tom.goto(f"{table.seat_link(1)}&k={table.token}")
    expect(tom.get_by_test_id("mg-bid-amount")).to_have_text("41")
    tap(tom, "mg-bid-key-4")
    tap(tom, "mg-bid-key-6")
    expect(tom.get_by_test_id("mg-bid-amount")).to_have_text("46")
    expect(tom.get_by_test_id("mg-bid")).to_be_disabled()  # more than 1 + 2 + … + 9 (MG-3)
    expect(tom.get_by_test_id("mg-bid-hint")).to_have_text("at most 45")
    tap(tom, "mg-bid-erase")
    tap(tom, "mg-bid-key-5")
    expect(tom.get_by_test_id("mg-bid-amount")).to_have_text("45")
    expect(tom.get_by_test_id("mg-bid")).to_be_enabled()

    shared = new_phone()  # the write link alone: nobody's hand, no limit
    shared.goto(table.link)
    tap(shared, "mg-bid-key-4")
    tap(shared, "mg-bid-key-7")
    expect(shared.get_by_test_id("mg-bid-amount")).to_have_text("47")
    expect(shared.get_by_test_id("mg-bid")).to_be_enabled()

    tap(tom, "mg-bid")
    confirm(tom, "45")
    expect(tom.get_by_test_id("mg-bidder-1")).to_contain_text("45")
    assert table.refresh()["state"]["card"]["high_bid"] == 45

    ann = new_phone()
    ann.goto(f"{table.seat_link(2)}&k={table.token}")
    expect(ann.get_by_test_id("prompt")).to_contain_text("Ann cannot bid more: pass.")
    expect(ann.get_by_test_id("mg-cannot-afford")).to_contain_text("Ann cannot pay 46 for Marco Polo")
    expect(ann.get_by_test_id("mg-bid")).to_have_count(0)
    expect(ann.get_by_test_id("mg-pass")).to_be_visible()
    expect(shared.get_by_test_id("mg-bid-amount")).to_have_text("46")  # the shared phone still offers it
