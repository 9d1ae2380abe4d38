"""The Mhing screen against the real server, on a phone at 360×740: create a table through the UI,
tap in a winning hand with the card picker (a laid-out group with a declared joker), watch the live
premium breakdown agree with POST /api/mhing/score, record the round, type in a second round's
points, undo it, and see a second phone follow within 2 seconds. Plus the claim helper (MH-4), the
end screen, German, and the layout rules (no sideways scrolling, big targets in the lower half)."""

from __future__ import annotations

import re
import time
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import (
    ApiTable,
    assert_exports_download,
    assert_no_horizontal_scroll,
    assert_thumb_reachable,
    confirm,
    listed_decisions,
    open_setup,
    rules_index,
    switch_language,
    tap,
)

# The hand of the issue: a laid-out sequence with a joker for bamboo 4, hidden cards, one flower.
GROUP = "b3 jk=b4 b5"
HIDDEN = "c5 c5 c5 we we we dr dr jk k2 k2"
FLOWERS = "f1"


def thumb_reachable(page: Any, testid: str) -> None:
    """On screen, in the lower half (under the thumb), at least 48 × 48 px."""
    assert_thumb_reachable(page, testid, min_width=48)


def scores(page: Any, *expected: int) -> None:
    for seat, value in enumerate(expected):
        expect(page.get_by_test_id(f"score-{seat}")).to_have_text(str(value))


def create_table_by_ui(page: Any, base: str) -> str:
    open_setup(page, base, "mhing")
    expect(page.get_by_test_id("player-name-3")).to_be_visible()  # four seats to start with
    expect(page.get_by_test_id("settlement-1")).to_have_attribute("aria-pressed", "true")
    tap(page, "remove-player-3")
    for seat, name in enumerate(["Eva", "Tom", "Ann"]):
        page.get_by_test_id(f"player-name-{seat}").fill(name)
    tap(page, "settlement-2")  # 2–4 players: variant 2 is offered (MH-9)
    expect(page.get_by_test_id("settlement-2")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("first-dealer").select_option("0")
    assert_no_horizontal_scroll(page)
    thumb_reachable(page, "create-table")
    page.screenshot(path="/tmp/kibitz-mhing-setup-360x740.png")
    tap(page, "create-table")
    expect(page.get_by_test_id("standings")).to_be_visible()
    table_id = page.evaluate("location.hash").split("/")[2]
    assert "k=" not in page.url
    return table_id


def enter_hand(page: Any) -> None:
    """Tap the issue's hand in: + Group b3 (joker = b4) b5, then the hidden cards, then a flower."""
    tap(page, "add-group")
    expect(page.get_by_test_id("picker-caption")).to_contain_text("group 1")
    expect(page.get_by_test_id("add-group")).to_have_attribute("aria-pressed", "true")
    tap(page, "tab-b")
    tap(page, "pick-b3")
    expect(page.get_by_test_id("pick-c1")).to_have_count(0)
    expect(page.get_by_test_id("pick-b9")).to_be_disabled()  # cannot make a group with b3
    tap(page, "pick-jk")  # the joker waits for the card it stands for …
    expect(page.get_by_test_id("picker-caption")).to_contain_text("Joker")
    tap(page, "pick-b4")  # … bamboo 4
    tap(page, "pick-b5")
    group = page.get_by_test_id("group-0")
    expect(group).to_have_attribute("data-notation", GROUP)
    expect(group).to_have_attribute("data-kind", "sequence")
    expect(page.get_by_test_id("picker-caption")).to_contain_text("Hidden cards")  # back to hidden
    tap(page, "tab-c")
    for _ in range(3):
        tap(page, "pick-c5")
    tap(page, "tab-h")
    for _ in range(3):
        tap(page, "pick-we")
    tap(page, "pick-dr")
    tap(page, "pick-dr")
    tap(page, "pick-jk")
    tap(page, "tab-k")
    tap(page, "pick-k2")
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "13")


def test_hand_entry_round_points_undo_and_second_phone(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    table_id = create_table_by_ui(page, live_server)
    scores(page, 500, 500, 500)  # variant 2: everyone starts with 500
    expect(page.get_by_test_id("dealer-0")).to_be_visible()  # Eva deals first (MH-2)
    expect(page.get_by_test_id("round-info")).to_contain_text("Eva deals")
    expect(page.get_by_test_id("why-dealer")).to_have_attribute("href", "rules/mhing.en.html#MH-2")
    for testid in ("went-out", "points-only", "drawn", "end-game", "undo"):
        thumb_reachable(page, testid)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-table-360x740.png")

    # Round 1: Eva went out on Ann's discard.
    tap(page, "went-out")
    for seat in range(3):
        thumb_reachable(page, f"winner-{seat}")
    tap(page, "winner-0")
    thumb_reachable(page, "from-stack")
    expect(page.get_by_test_id("discarder-0")).to_have_count(0)  # not the winner's own card
    tap(page, "discarder-2")
    expect(page.get_by_test_id("hand-who")).to_contain_text("on Ann's discard (pays double)")
    expect(page.get_by_test_id("breakdown-hint")).to_be_visible()
    enter_hand(page)

    # 13 cards: the waits, as the referee lists them.
    waits = requests.post(
        f"{live_server}/api/mhing/waits",
        json={"groups": [GROUP], "hidden": "c5 c5 c5 we we we dr dr jk k2", "flowers": ""},
        timeout=5,
    ).json()
    assert waits["ready"]
    for wait in waits["waits"]:
        expect(page.get_by_test_id(f"wait-{wait['card']}")).to_have_attribute(
            "data-points", str(wait["points"])
        )
    expect(page.get_by_test_id("record-hand")).to_be_disabled()
    for testid in (
        "add-group",
        "add-flower",
        "backspace",
        "record-hand",
        "tab-b",
        "tab-h",
        "pick-k3",
        "pick-k9",
        "pick-jk",
    ):
        thumb_reachable(page, testid)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-waits-360x740.png")

    picker_at = page.get_by_test_id("pick-grid").bounding_box()
    tap(page, "pick-k2")
    tap(page, "add-flower")
    expect(page.get_by_test_id("flowers")).to_have_attribute("data-cards", FLOWERS)
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "14")
    # The 14th card: the picker neither vanishes nor jumps; its keys are off.
    expect(page.get_by_test_id("pick-grid")).to_be_visible()
    picker_now = page.get_by_test_id("pick-grid").bounding_box()
    assert picker_at and picker_now and abs(picker_now["y"] - picker_at["y"]) <= 8, (picker_at, picker_now)
    expect(page.get_by_test_id("pick-k3")).to_be_disabled()

    # The live breakdown agrees with the stateless scorer, line by line.
    answer = requests.post(
        f"{live_server}/api/mhing/score",
        json={"groups": [GROUP], "hidden": HIDDEN, "flowers": FLOWERS, "discard": True},
        timeout=5,
    ).json()
    assert answer["wins"] and answer["total_premiums"] == 9 and answer["points"] == 64
    total = page.get_by_test_id("breakdown-total")
    expect(total).to_have_attribute("data-premiums", str(answer["total_premiums"]))
    expect(total).to_have_attribute("data-points", str(answer["points"]))
    expect(total).to_contain_text("64 points")
    expect(page.get_by_test_id("premiums").locator("li")).to_have_count(len(answer["premiums"]))
    for premium in answer["premiums"]:
        line = page.get_by_test_id(f"premium-{premium['code']}")
        expect(line).to_have_attribute("data-count", str(premium["count"]))
        expect(line).to_have_attribute("data-premiums", str(premium["premiums"]))
        expect(line).to_have_attribute("data-rule", premium["rule"])
        expect(page.get_by_test_id(f"premium-rule-{premium['code']}")).to_have_attribute(
            "href", "rules/mhing.en.html#decision-MH-6"
        )
    expect(page.get_by_test_id("premium-honour-triplet")).to_contain_text("Triplet of honour cards")
    expect(page.get_by_test_id("reading")).to_have_attribute("data-notation", answer["reading"]["notation"])
    expect(page.get_by_test_id("jokers-as")).to_be_visible()
    expect(page.get_by_test_id("entry-summary")).to_have_text("9 premiums · 64 points")
    for testid in ("record-hand", "add-flower", "backspace"):
        thumb_reachable(page, testid)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-hand-360x740.png")
    page.screenshot(path="/tmp/kibitz-mhing-hand-full.png", full_page=True)

    tap(page, "record-hand")
    preview = confirm(page, "Eva went out")
    assert "64 points" in preview and "Ann pays 128" in preview, preview

    # Standings: Tom pays 64, Ann 128 (her discard: double, MH-9); Tom deals next (MH-2).
    scores(page, 692, 436, 372)
    expect(page.get_by_test_id("change-0")).to_have_text("+192")
    expect(page.get_by_test_id("payment-2")).to_have_attribute("data-paid", "128")
    expect(page.get_by_test_id("payment-2")).to_contain_text("double")
    expect(page.get_by_test_id("dealer-1")).to_be_visible()
    expect(page.get_by_test_id("history-round-1")).to_contain_text("9 premiums = 64 points")
    page.get_by_test_id("history-round-1").locator("summary").tap()  # the round's breakdown, kept
    expect(page.get_by_test_id("h1-premium-all-suits-winds-dragons")).to_have_attribute("data-premiums", "5")
    expect(page.get_by_test_id("history-total-1")).to_have_attribute("data-points", "64")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-standings-360x740.png", full_page=True)

    # A second phone (view only) on the same table.
    other = new_phone()
    other.goto(f"{live_server}/#/t/{table_id}")
    expect(other.get_by_test_id("view-only")).to_be_visible()
    scores(other, 692, 436, 372)
    expect(other.get_by_test_id("went-out")).to_have_count(0)

    # Round 2: Tom went out from the stack, points typed in (32).
    tap(page, "points-only")
    tap(page, "winner-1")
    tap(page, "from-stack")
    thumb_reachable(page, "points-32")
    tap(page, "points-32")
    confirm(page, "32 points")
    scores(page, 660, 500, 340)
    expect(page.get_by_test_id("history-round-2")).to_contain_text("32 points typed in")
    expect(other.get_by_test_id("score-1")).to_have_text("500", timeout=2000)

    # Undo the typed-in round: back to round 1's standings, here and on the other phone in ≤ 2 s.
    tap(page, "undo")
    confirm(page)
    undone = time.monotonic()
    scores(page, 692, 436, 372)
    expect(other.get_by_test_id("score-1")).to_have_text("436", timeout=2000)
    assert time.monotonic() - undone <= 2.0
    expect(other.get_by_test_id("history-round-2")).to_have_count(0)
    expect(page.get_by_test_id("history-round-2")).to_have_count(0)
    assert_no_horizontal_scroll(other)


def _api_table(base: str, players: list[str], settlement: int = 1) -> ApiTable:
    options = {"settlement": settlement, "first_seat": 0}
    return ApiTable(base, "mhing", [{"name": n} for n in players], options)


def test_claims_end_screen_and_german(live_server: str, new_phone: Any) -> None:
    table = _api_table(live_server, ["Eva", "Tom", "Ann", "Bob"])
    table.post({"type": "round_points", "winner": 2, "points": 64, "discarder": None})
    page = new_phone()
    page.goto(table.link)
    scores(page, 0, 0, 64, 0)
    expect(page.get_by_test_id("standings-panel")).to_contain_text("to 500")

    # Claim helper (MH-4): Tom wants a sequence, Bob a triplet on Eva's discard → Bob; Tom, Ann skipped.
    tap(page, "claims")
    sheet = page.get_by_test_id("claims-sheet")
    expect(sheet).to_be_visible()
    tap(page, "claim-discarder-0")
    tap(page, "claim-1-sequence")
    tap(page, "claim-3-triplet")
    result = page.get_by_test_id("claim-result")
    expect(result).to_have_attribute("data-taker", "3")
    expect(result).to_contain_text("Bob takes Eva's discard (Triplet)")
    expect(result).to_contain_text("Skipped: Tom and Ann")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-claims-360x740.png")
    tap(page, "close")

    # Drawn round: the deal still passes on (MH-2).
    tap(page, "drawn")
    confirm(page, "without a winner")
    expect(page.get_by_test_id("round-info")).to_contain_text("Ann deals")
    expect(page.get_by_test_id("note-deal-passes-after-draw")).to_be_visible()

    # End by agreement: Ann leads.
    tap(page, "end-game")
    confirm(page, "Ann wins with 64 points")
    expect(page.get_by_test_id("winner")).to_contain_text("Ann")
    explanation = table.refresh()["result"]["explanation"]
    expect(page.get_by_test_id("result-explanation")).to_contain_text(explanation)
    assert_exports_download(page)
    expect(page.get_by_test_id("went-out")).to_have_count(0)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-end-360x740.png", full_page=True)

    switch_language(page, "de")
    expect(page.get_by_test_id("winner")).to_contain_text("Ann gewinnt")
    expect(page.get_by_test_id("result-explanation")).to_contain_text("einvernehmlich")
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "rules/mhing.de.html")
    expect(page.get_by_test_id("why-result")).to_have_attribute("href", "rules/mhing.de.html#MH-9")
    expect(page.get_by_test_id("history-round-1")).to_contain_text("Ann hat Schluss gemacht")


def test_picker_in_german_and_nothing_fits(live_server: str, new_phone: Any) -> None:
    """Card names are translated; the exceptional hand (MH-7) links to its referee decision."""
    table = _api_table(live_server, ["Eva", "Tom"], settlement=2)
    page = new_phone(locale="de-DE")
    page.goto(table.link)
    expect(page.get_by_test_id("round-info")).to_contain_text("Runde 1")
    tap(page, "went-out")
    tap(page, "winner-1")
    tap(page, "from-stack")
    for tab, word in (
        ("tab-b", "Bambus"),
        ("tab-c", "Kreise"),
        ("tab-k", "Zeichen"),
        ("tab-h", "Bildkarten"),
    ):
        expect(page.get_by_test_id(tab)).to_have_text(word)
    tap(page, "tab-h")
    expect(page.get_by_test_id("pick-we")).to_have_attribute("aria-label", re.compile("Ostwind hinzufügen$"))
    white_dragon = re.compile("Weißer Drache hinzufügen$")
    expect(page.get_by_test_id("pick-dw")).to_have_attribute("aria-label", white_dragon)
    expect(page.get_by_test_id("pick-jk")).to_contain_text("Joker")
    expect(page.get_by_test_id("add-flower")).to_contain_text("Blume")
    # Nothing fits with every honour once (MH-7): the joker stands in for the white dragon.
    hand = "b1 b4 b7 c2 c5 k3 k9 we ws ww wn dr dg jk"
    for tab, cards in (
        ("tab-b", ["b1", "b4", "b7"]),
        ("tab-c", ["c2", "c5"]),
        ("tab-k", ["k3", "k9"]),
        ("tab-h", ["we", "ws", "ww", "wn", "dr", "dg", "jk"]),
    ):
        tap(page, tab)
        for card in cards:
            tap(page, f"pick-{card}")
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "14")
    expect(page.get_by_test_id("pick-dw")).to_be_disabled()  # 14 cards: the hand is full
    answer = requests.post(
        f"{live_server}/api/mhing/score", json={"hidden": hand, "flowers": ""}, timeout=5
    ).json()
    assert answer["wins"] and answer["reading"]["kind"] == "nothing-fits"
    total = page.get_by_test_id("breakdown-total")
    expect(total).to_have_attribute("data-premiums", str(answer["total_premiums"]))
    expect(total).to_have_attribute("data-points", str(answer["points"]))
    expect(total).to_contain_text("8 Prämien")
    line = page.get_by_test_id("premium-nothing-fits-all-honours")
    expect(line).to_contain_text("Nichts passt zusammen, mit jeder Bildkarte einmal")
    expect(page.get_by_test_id("premium-rule-nothing-fits-all-honours")).to_have_attribute(
        "href", "rules/mhing.de.html#decision-MH-7"
    )
    expect(page.get_by_test_id("reading")).to_have_attribute("data-kind", "nothing-fits")
    expect(page.get_by_test_id("entry-summary")).to_have_text("8 Prämien · 64 Punkte")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-mhing-de-360x740.png")


def test_mhing_decisions_match_the_rules_page() -> None:
    decisions = listed_decisions("js/games/mhing/rules.js", "MH")
    assert decisions == set(rules_index()["mhing"]["decisions"])


def test_variant_2_floor_and_all_points(live_server: str, phone_page: Any) -> None:
    """Nobody pays more than they have (MH-9): Tom owes 512 for his discard but has 500 — and then
    Eva holds all the points, which ends the game."""
    table = _api_table(live_server, ["Eva", "Tom"], settlement=2)
    table.post({"type": "round_points", "winner": 0, "points": 256, "discarder": 1})
    page = phone_page
    page.goto(table.link)
    expect(page.get_by_test_id("winner")).to_contain_text("Eva wins")
    expect(page.get_by_test_id("result-explanation")).to_contain_text("holds all 1000 points")
    scores(page, 1000, 0)
    payment = page.get_by_test_id("payment-1")
    expect(payment).to_have_attribute("data-owed", "512")
    expect(payment).to_have_attribute("data-paid", "500")
    expect(payment).to_contain_text("owed 512; nobody goes below 0")
    expect(page.get_by_test_id("round-info")).to_contain_text("Game over")
    expect(page.get_by_test_id("undo")).to_be_enabled()
    assert_no_horizontal_scroll(page)


def test_a_long_game_shows_the_latest_rounds_and_where_the_rest_is(live_server: str, new_phone: Any) -> None:
    """The table keeps the latest rounds only (reading costs the same at any length); the screen
    says how many earlier rounds there are and that the record holds them; the count stays right."""
    table = _api_table(live_server, ["Eva", "Tom", "Ann"])
    for n in range(8):
        table.post({"type": "round_points", "winner": n % 3, "points": 2, "discarder": None})
    page = new_phone()
    page.goto(table.link)
    scores(page, 6, 6, 4)  # every round still counts (MH-9)
    expect(page.get_by_test_id("round-info")).to_contain_text("9")
    expect(page.get_by_test_id("history").locator("li")).to_have_count(5)
    expect(page.get_by_test_id("history-round-8")).to_be_visible()
    expect(page.get_by_test_id("history-round-3")).to_have_count(0)
    expect(page.get_by_test_id("history-earlier")).to_contain_text("3 earlier rounds are in the game record")
    assert_no_horizontal_scroll(page)
    tap(page, "end-game")
    confirm(page)
    expect(page.get_by_test_id("winner")).to_be_visible()
    expect(page.get_by_test_id("rounds-played")).to_have_text("8 rounds played")
    records = requests.get(f"{live_server}/api/tables/{table.id}/export", timeout=5).json()
    assert len(records["events"]) == 9  # eight rounds and the end: the whole history


def test_nothing_fits_is_refused_on_a_discard_by_the_phones_referee(live_server: str, new_phone: Any) -> None:
    """MH-3 Decision: the exceptional hand (MH-7) never goes out on a discard. The entry screen says
    why (with the rule) and offers no record; the same answer comes from the phone's own referee with
    the network cut; from the stack the hand is recorded and everyone pays single (MH-9)."""
    table = _api_table(live_server, ["Eva", "Tom", "Ann"], settlement=2)
    page = new_phone()
    page.goto(table.link)
    expect(page.get_by_test_id("sync-badge")).to_have_attribute("data-referee", "local", timeout=30_000)
    page.context.set_offline(True)
    tap(page, "went-out")
    tap(page, "winner-0")
    tap(page, "discarder-1")
    for tab, cards in (
        ("tab-b", ["b1", "b4", "b7"]),
        ("tab-c", ["c1", "c4"]),
        ("tab-k", ["k1", "k4"]),
        ("tab-h", ["we", "ws", "ww", "wn", "dr", "dg", "dw"]),
    ):
        tap(page, tab)
        for card in cards:
            tap(page, f"pick-{card}")
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "14")
    reason = page.get_by_test_id("breakdown-reason")
    expect(reason).to_have_attribute("data-code", "nothing-fits-on-discard")
    expect(reason).to_contain_text("only with a card from the stack (MH-3)")
    expect(page.get_by_test_id("why-reason")).to_have_attribute("href", "rules/mhing.en.html#decision-MH-3")
    expect(page.get_by_test_id("record-hand")).to_be_disabled()
    page.context.set_offline(False)
    assert table.refresh()["version"] == 0  # nothing was recorded

    # From the stack it goes out: 8 premiums, 64 points, each other player pays 64 (MH-9).
    tap(page, "change-winner")
    tap(page, "winner-0")
    tap(page, "from-stack")
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "14")  # the hand is kept
    expect(page.get_by_test_id("breakdown-total")).to_have_attribute("data-points", "64")
    tap(page, "record-hand")
    confirm(page)
    scores(page, 628, 436, 436)
