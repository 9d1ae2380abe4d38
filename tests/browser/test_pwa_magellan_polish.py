"""Magellan polish at 360×740 (issue: "a game in as few taps as the table itself"): the secret
Magellan A slide typed on the slider's own phone (MG-8), one-tap standard setup, the pile count in
the right number, the disclosure arrow on collapsible lists, and the catalogs' plurals and articles.
The end-screen wording (card values apart from crowns, MG-1) and the standings before the Pizarro
draw (MG-11) are checked in test_pwa_magellan.test_auctions_and_end_scoring_by_tapping."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import PWA, confirm, open_setup, tap
from .test_pwa_magellan import NAMES, Table
from .test_pwa_offline import LOCAL_TIMEOUT, open_local, server_events

OUTCOMES_A = {"sides": {}, "depth": "outcomes", "chance": "physical"}  # every explorer on side A


def wait_for(check: Any, timeout: float = 15.0) -> None:
    """Until the server shows what the phone recorded (a local-first phone sends it just after)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the server never got it"
        time.sleep(0.2)


def test_secret_slide_is_typed_on_the_sliders_own_phone(live_server: str, new_phone: Any) -> None:
    """MG-8 Magellan A: the card slid from the hand is secret. In outcomes depth the shared phone
    does not offer the money pad; it names the slider and offers their own link; the slider's phone
    (their seat link, no table key) types the card in and the server records it."""
    table = Table(live_server, options=OUTCOMES_A)
    table.auction("magellan", winner=1)
    assert table.table["legal_actions"]["step"] == "slide"

    shared = new_phone()
    shared.goto(table.link)
    expect(shared.get_by_test_id("mg-status")).to_have_attribute("data-step", "slide")
    elsewhere = shared.get_by_test_id("mg-slide-elsewhere")
    expect(elsewhere).to_contain_text(f"{NAMES[1]} types it in on their own phone")
    expect(shared.get_by_test_id("mg-slide-5")).to_have_count(0)
    expect(shared.get_by_test_id("mg-slide-send-link")).to_have_count(0)  # this phone holds no player links
    # The phone the table was made on holds every player's link: it sends Tom his own.
    table.hand_seat_links_to(shared)
    shared.goto(table.link)
    tap(shared, "mg-slide-send-link")
    link = shared.get_by_test_id("share-sheet").get_by_test_id("seat-link-input")
    expect(link).to_have_value(re.compile(r"s=1&sk="))
    assert link.input_value().endswith(table.seats[1]["path"])

    # Tom's own phone: his seat link alone (no table key).
    tom = new_phone()
    tom.goto(f"{live_server}{table.seats[1]['path']}")
    expect(tom.get_by_test_id("my-seat")).to_contain_text(NAMES[1])
    expect(tom.get_by_test_id("mg-slide-elsewhere")).to_have_count(0)
    tap(tom, "mg-slide-5")
    # A new pile of one card: one card, not "1 cards".
    confirm(tom, f"{NAMES[1]} slides a money card worth 5 under Magellan. Pile 1 now has 1 card.")
    wait_for(lambda: server_events(live_server, table.id)[-1].get("type") == "slide")
    expect(shared.get_by_test_id("mg-status")).to_have_attribute("data-step", "reveal", timeout=15_000)
    # Tom's link records only his own entries: no undo or reveal for the table from it.
    expect(tom.get_by_test_id("undo")).to_have_count(0)
    expect(tom.get_by_test_id("mg-reveal-columbus")).to_have_count(0)


def test_standard_setup_is_one_tap(live_server: str, phone_page: Any) -> None:
    """One tap after the setup opens: three players, every explorer on side A, outcomes, real
    cards, the first player auctions (MG-3, MG-4)."""
    page = phone_page
    open_setup(page, live_server, "magellan")
    expect(page.get_by_test_id("mg-standard-setup")).to_contain_text("All explorers side A")
    tap(page, "mg-standard-setup")
    expect(page).to_have_url(re.compile(r"#/t/"))
    table_id = re.search(r"#/t/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    created = requests.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert [p["name"] for p in created["players"]] == ["Player 1", "Player 2", "Player 3"]
    options = created["state"]["options"]
    assert options["depth"] == "outcomes" and options["chance"] == "physical" and options["auctioneer"] == 0
    assert set(options["sides"].values()) == {"A"}
    expect(page.get_by_test_id("mg-status")).to_have_attribute("data-step", "reveal")


def test_collapsible_lists_show_an_arrow(live_server: str, phone_page: Any) -> None:
    """The cards-so-far list opens with a visible arrow that turns when it is open."""
    table = Table(live_server, options=OUTCOMES_A)
    table.auction("columbus", winner=0)
    page = phone_page
    page.goto(table.link)
    summary = page.locator("details summary").first
    expect(summary).to_be_visible()
    arrow = "el => getComputedStyle(el, '::before').content"
    turn = "el => getComputedStyle(el, '::before').transform"
    assert summary.evaluate(arrow) == '"▸"'
    assert summary.evaluate(turn) == "none"
    summary.tap()
    expect(page.locator("details[open] summary").first).to_be_visible()
    assert summary.evaluate(turn) != "none"  # turned to point down
    assert summary.bounding_box()["height"] >= 44  # type: ignore[index]


def catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((PWA / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


def test_counted_words_have_both_forms() -> None:
    """A counted noun ("{count} cards") needs .one and .other in every catalog ("1 cards" never)."""
    for lang, noun in (("en", r"\{count\} (?:more )?[a-z]+s\b"), ("de", r"\{count\} [A-ZÄÖÜ][a-zäöü]+n\b")):
        texts = catalog(lang)
        for key, text in texts.items():
            if re.search(noun, text):
                stem = key.rsplit(".", 1)[0]
                assert key.endswith(".other") and f"{stem}.one" in texts, (lang, key, text)


def test_no_article_before_a_number() -> None:
    """English articles do not fit every number ("a 8"): no "a {…}" or "an {…}" before a placeholder
    that holds a card value."""
    for key, text in catalog("en").items():
        assert not re.search(r"\b(a|an) \{(value|discard|draw|card)\}", text), (key, text)


def test_what_a_card_does_comes_from_the_referees_powers_table(live_server: str, new_phone: Any) -> None:
    """MG-8 as data: the card panel words the row of GET /api/games' powers table for the card's side
    and field (Vasco A field I: one card; Columbus B field I: a veto), and a phone keeps the table, so
    it still says it when opened again with the network cut."""
    table = Table(live_server, options={**OUTCOMES_A, "sides": {"columbus": "B"}})
    table.post({"type": "reveal", "explorer": "vasco"})
    phone = new_phone()
    open_local(phone, table.link)
    card = phone.get_by_test_id("mg-card-name").locator("xpath=..")
    expect(card).to_contain_text("Draw 1 money card at once.")
    kept = phone.evaluate("JSON.parse(localStorage.getItem('kibitz.magellan.powers'))")
    served = {g["name"]: g for g in requests.get(f"{live_server}/api/games", timeout=5).json()}
    assert kept == served["magellan"]["powers"]

    for bidder in table.state["card"]["order"]:
        table.post({"type": "pass", "seat": bidder})  # nobody bids: boxed; the next card
    table.post({"type": "reveal", "explorer": "columbus"})
    expect(card).to_contain_text("Field I: the owner may veto one later card")
    context = phone.context
    context.set_offline(True)
    phone.close()
    again = context.new_page()
    again.goto(table.link)
    expect(again.get_by_test_id("mg-card-name").locator("xpath=..")).to_contain_text(
        "Field I: the owner may veto one later card", timeout=LOCAL_TIMEOUT
    )
    context.set_offline(False)
