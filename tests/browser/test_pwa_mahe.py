"""The phone app against the real server: create a Mahé table, play by tapping, undo, and watch
a second phone follow within 2 seconds; installability; layout at 360×740."""

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
    open_setup,
    stored_token,
    switch_language,
    tap,
)

TWO_PLAYERS = [
    {"name": "Eva", "colours": ["red", "yellow"]},
    {"name": "Tom", "colours": ["green", "lightblue"]},
]
PHYSICAL = {"chance": "physical", "egg_dice_variant": False, "first_seat": 0}


def turtle_on(page: Any, field: int, colour: str) -> Any:
    return page.get_by_test_id(f"track-field-{field}").get_by_test_id(f"turtle-{colour}")


def settled_box(page: Any, testid: str) -> Any:
    """An element's box once it is on screen: the board is drawn again when the phone's referee
    arrives or news comes in, and an element being replaced has no box for that moment."""
    for _ in range(50):
        box = page.get_by_test_id(testid).bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(100)
    return None


def create_table_by_ui(page: Any, base: str) -> str:
    open_setup(page, base, "mahe")
    page.get_by_test_id("player-name-0").fill("Eva")
    page.get_by_test_id("player-name-1").fill("Tom")
    # 2 players → two turtles each (MA-2); the defaults are red+yellow and green+light blue.
    expect(page.get_by_test_id("colour-0-red")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("colour-1-green")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("colour-1-red")).to_be_disabled()
    expect(page.get_by_test_id("chance-physical")).to_have_attribute("aria-pressed", "true")
    tap(page, "create-table")
    expect(page.get_by_test_id("board")).to_be_visible()
    table_id = page.evaluate("location.hash").split("/")[2]
    assert "k=" not in page.url, "the write token must not stay in the visible URL"
    assert stored_token(page, table_id), "the write token is kept in localStorage under the table id"
    return table_id


def test_play_undo_and_second_phone_follows(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    table_id = create_table_by_ui(page, live_server)

    # Physical chance: the first face-up egg card is typed in (MA-12).
    tap(page, "card-5")
    confirm(page, "5 eggs")
    expect(page.get_by_test_id("face-up")).to_contain_text("5")

    # Two turtles each: Eva chooses which moves first (MA-9).
    tap(page, "choose-turtle-red")
    confirm(page, "Red moves first")

    # First die 4: one tap + confirm; then Eva decides (MA-4).
    expect(page.get_by_test_id("turn-info")).to_contain_text("Eva")
    tap(page, "die-4")
    confirm(page, "4 fields")
    expect(page.get_by_test_id("decider")).to_contain_text("Eva")
    expect(page.get_by_test_id("another-die-hint")).to_contain_text("50")  # bust chance after a 4

    # Another die, said by tapping what it shows: 2 → (4 + 2) × 2 = 12 (MA-3); no separate tap.
    expect(page.get_by_test_id("another-die")).to_have_count(0)
    expect(page.get_by_test_id("die-2")).to_contain_text("12")  # the odds: where a 2 would end
    tap(page, "die-2")
    confirm(page, "12 fields")
    tap(page, "stop")
    confirm(page, "field 12")
    expect(turtle_on(page, 12, "red")).to_be_visible()
    expect(page.get_by_test_id("last-move")).to_contain_text("field 12")

    # Undo takes back the stop: red is on the raft again and the decision is open.
    expect(page.get_by_test_id("undo")).to_be_enabled()
    tap(page, "undo")
    confirm(page)
    expect(page.get_by_test_id("raft").get_by_test_id("turtle-red")).to_be_visible()
    expect(turtle_on(page, 12, "red")).to_have_count(0)
    tap(page, "stop")
    confirm(page, "field 12")
    expect(turtle_on(page, 12, "red")).to_be_visible()

    # The join link from the share sheet opens the table on a second phone, with write access.
    tap(page, "share")
    link = page.get_by_test_id("share-link").input_value()
    assert link == f"{live_server}/#/t/{table_id}?k={stored_token(page, table_id)}"
    tap(page, "close")

    other = new_phone()
    other.goto(link)
    expect(turtle_on(other, 12, "red")).to_be_visible()
    assert "k=" not in other.url
    expect(other.get_by_test_id("view-only")).to_have_count(0)
    expect(other.get_by_test_id("turn-info")).to_contain_text("Eva")

    # Eva's second turtle (yellow) moves 3; the other phone shows it within 2 seconds.
    expect(page.get_by_test_id("turn-info")).to_contain_text("Yellow", ignore_case=True)
    tap(page, "die-3")
    confirm(page, "3 fields")
    tap(page, "stop")
    confirm(page, "field 3")
    posted = time.monotonic()
    expect(turtle_on(other, 3, "yellow")).to_be_visible(timeout=2000)
    assert time.monotonic() - posted <= 2.0
    expect(other.get_by_test_id("turn-info")).to_contain_text("Tom", timeout=2000)

    # The second phone can play too, and the first follows.
    other.get_by_test_id("choose-turtle-green").tap()
    confirm(other, "Green moves first")
    expect(page.get_by_test_id("die-1")).to_be_visible(timeout=2000)

    # A link without the key is view only: state shown, no buttons.
    viewer = new_phone()
    viewer.goto(f"{live_server}/#/t/{table_id}")
    expect(viewer.get_by_test_id("view-only")).to_be_visible()
    expect(turtle_on(viewer, 12, "red")).to_be_visible()
    expect(viewer.get_by_test_id("die-1")).to_have_count(0)
    expect(viewer.get_by_test_id("undo")).to_have_count(0)


def test_stale_version_adopts_the_current_table(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    # This phone hears nothing of the other: no live stream.
    page.route(re.compile(r"/stream(\?|$)"), lambda route: route.abort())
    table_id = create_table_by_ui(page, live_server)
    token = stored_token(page, table_id)
    # Another phone records the card first.
    answer = requests.post(
        f"{live_server}/api/tables/{table_id}/events",
        json={"expected_version": 0, "event": {"type": "reveal_card", "value": 6}},
        headers={"Authorization": f"Bearer {token}"},
        timeout=5,
    )
    assert answer.status_code == 201
    tap(page, "card-4")
    # This phone's card meets the other one at the server (409). With the phone's referee the
    # players are asked and keep the other card; with the server as referee the phone adopts it.
    conflict = page.get_by_test_id("conflict-sheet")
    told = page.locator("[data-testid=conflict-sheet], [data-testid=toast]:has-text('faster')")
    expect(told.first).to_be_visible()
    if conflict.count():
        expect(page.get_by_test_id("conflict-theirs")).to_contain_text("6 eggs")
        conflict.get_by_test_id("cancel").tap()  # keep theirs
    expect(page.get_by_test_id("face-up")).to_contain_text("6")
    expect(page.get_by_test_id("choose-turtle-red")).to_be_visible()


def test_problem_detail_is_shown(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    table_id = create_table_by_ui(page, live_server)
    # A stale token: the server refuses with problem+json; the app shows its `detail`.
    page.evaluate(
        "id => { const t = JSON.parse(localStorage.getItem('kibitz.tokens')); t[id] = 'wrong';"
        " localStorage.setItem('kibitz.tokens', JSON.stringify(t)); }",
        table_id,
    )
    page.reload()
    tap(page, "card-2")  # one tap: recorded at once
    toast = page.get_by_test_id("toast").first
    expect(toast).to_be_visible()
    expect(toast).not_to_have_text("Something went wrong. Please try again.")  # the server's detail
    expect(toast).to_contain_text("token")
    # Recorded by the phone's referee, refused by the server: the players drop it themselves.
    refused = page.get_by_test_id("conflict-sheet")
    if refused.count():
        refused.get_by_test_id("close").tap()
    expect(page.get_by_test_id("face-up")).not_to_contain_text("2")


def test_manifest_and_service_worker(live_server: str, phone_page: Any) -> None:
    page = phone_page
    page.goto(live_server + "/")
    expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", href)
    assert manifest["name"] == "Kibitz"
    assert manifest["start_url"] == "./"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"]
    icons = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= icons
    for icon in manifest["icons"]:
        status = page.evaluate("url => fetch(url).then(r => r.status)", icon["src"])
        assert status == 200, icon

    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_server + "/"
    cached = page.evaluate(
        """async () => {
            const cache = await caches.open('kibitz-precache');
            return (await cache.keys()).map(r => new URL(r.url).pathname);
        }"""
    )
    # Kept under content-hashed names (api/phone/static_build.py).
    for stem, suffix in (
        ("/index.", ".html"),
        ("/app.", ".js"),
        ("/css/app.", ".css"),
        ("/i18n/de.", ".json"),
        ("/js/games/mahe/board.", ".js"),
        ("/rules/mahe.en.", ".html"),
    ):
        hashed = re.escape(stem) + "[0-9a-f]{12}" + re.escape(suffix)
        assert any(re.fullmatch(hashed, path) for path in cached), stem

    # The shell opens without a network; API calls then report "offline".
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.get_by_test_id("home-link")).to_be_visible()
        expect(page.get_by_test_id("join-input")).to_be_visible()
        page.goto(live_server + "/rules/mahe.en.html")
        expect(page.locator("#decision-MA-3")).to_have_count(1)
    finally:
        page.context.set_offline(False)


def _ready_table(base: str) -> str:
    """A 2-player physical table at its first die (created through the API)."""
    table = ApiTable(base, "mahe", TWO_PLAYERS, PHYSICAL)
    table.post({"type": "reveal_card", "value": 3})
    table.post({"type": "choose_turtle", "turtle": "red"})
    return table.link


def test_layout_at_360x740(live_server: str, phone_page: Any) -> None:
    page = phone_page
    page.goto(live_server + "/")
    expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_thumb_reachable(page, "new-table-mahe")

    tap(page, "new-table-mahe")
    expect(page.get_by_test_id("create-table")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_thumb_reachable(page, "create-table")
    page.screenshot(path="/tmp/kibitz-setup-360x740.png")

    page.goto(_ready_table(live_server))
    expect(page.get_by_test_id("die-6")).to_be_visible()
    assert_no_horizontal_scroll(page)
    for value in range(1, 7):
        assert_thumb_reachable(page, f"die-{value}")
    # While a die is typed in, the die pad hides no field of the island and not the scores.
    bar = page.get_by_test_id("actionbar").bounding_box()
    for testid in [f"track-field-{n}" for n in range(1, 22)] + ["scoreboard"]:
        box = settled_box(page, testid)
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (testid, box, bar)
    page.screenshot(path="/tmp/kibitz-table-360x740.png")

    tap(page, "die-2")
    confirm(page)
    for testid in ("stop", "die-1", "undo"):
        assert_thumb_reachable(page, testid)
    expect(page.get_by_test_id("board")).to_be_in_viewport()
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-decide-360x740.png")


def _finished_table(base: str) -> tuple[str, dict[str, Any]]:
    """Play a 4-player physical table to its end through the API: every move is a 6, then stop."""
    names = ["Eva", "Tom", "Ann", "Bob"]
    colours = ["red", "yellow", "green", "purple"]
    players = [{"name": n, "colours": [c]} for n, c in zip(names, colours, strict=True)]
    table = ApiTable(base, "mahe", players, PHYSICAL)
    for _ in range(1000):
        if table.table["finished"]:
            break
        legal = table.table["legal_actions"]
        kinds = {a["type"] for a in legal["actions"]}
        if "reveal_card" in kinds:
            event: dict[str, Any] = {"type": "reveal_card", "value": 4}
        elif "choose_turtle" in kinds:
            event = {"type": "choose_turtle", "turtle": legal["actions"][0]["turtles"][0]}
        elif legal["phase"] == "roll":
            event = {"type": "die", "value": 6}
        else:
            event = {"type": "stop"}
        table.post(event)
    assert table.table["finished"]
    return table.link, table.table


def test_end_screen(live_server: str, phone_page: Any) -> None:
    page = phone_page
    link, table = _finished_table(live_server)
    result = table["result"]
    winners = [r["name"] for r in result["ranking"] if r["seat"] in result["winners"]]
    page.goto(link)
    expect(page.get_by_test_id("winner")).to_contain_text(winners[0])
    expect(page.get_by_test_id("result-explanation")).to_have_text(result["explanation"])
    expect(page.get_by_test_id("turn-info")).to_contain_text("Game over")
    assert_exports_download(page)
    for row in result["ranking"]:
        expect(page.get_by_test_id(f"eggs-{row['seat']}")).to_have_text(str(row["eggs"]))
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-end-360x740.png", full_page=True)

    switch_language(page, "de")
    expect(page.get_by_test_id("winner")).to_contain_text(
        "gewinnt" if len(winners) == 1 else "Geteilter Sieg"
    )
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "rules/mahe.de.html")
    why = page.get_by_test_id("why-result").get_attribute("href")
    assert why == "rules/mahe.de.html#decision-MA-10"


def test_egg_cards_lie_face_down_and_my_own_link_shows_mine(live_server: str, new_phone: Any) -> None:
    """MA-7 Decision: the shared scoreboard counts the won cards (face down, no eggs); a phone opened
    with a player's own link shows that player's values and eggs; nobody else's."""
    four = [
        {"name": n, "colours": [c]}
        for n, c in (("Martin", "red"), ("Eva", "yellow"), ("David", "darkblue"), ("Andrea", "green"))
    ]
    table = ApiTable(live_server, "mahe", four, PHYSICAL)
    table.post({"type": "reveal_card", "value": 3})
    for card in (5, 1):  # Martin moves (2 + 1 + 4) × 3 = 21 fields and takes the face-up card (MA-7)
        for value in (2, 1, 4):
            table.post({"type": "die", "value": value})
        table.post({"type": "reveal_card", "value": card})
        for _ in range(3):  # the others bust: 6 then 6 is over 7 (MA-6)
            for value in (6, 6):
                table.post({"type": "die", "value": value})
    assert table.state["players"][0]["cards"] is None and table.state["players"][0]["card_count"] == 2

    martin = new_phone()
    martin.goto(f"{table.seat_link(0)}&k={table.token}")
    expect(martin.get_by_test_id("my-seat")).to_have_text("You are Martin")
    own = martin.get_by_test_id("card-list-0")
    expect(own).to_have_attribute("data-own", "true")
    expect(own).to_have_text("35")
    expect(martin.get_by_test_id("eggs-0")).to_have_text("8")
    expect(martin.get_by_test_id("cards-0")).to_have_text("2")
    assert_no_horizontal_scroll(martin)

    # The phone the table was made on: the join link and every player's own link, nobody's seat — it
    # lies in the middle of the table, so it shows no values.
    shared = new_phone()
    table.hand_seat_links_to(shared)
    shared.goto(table.link)
    expect(shared.get_by_test_id("cards-0")).to_have_text("2")
    expect(shared.get_by_test_id("eggs-0")).to_have_text("–")
    expect(shared.get_by_test_id("card-list-0")).to_have_text("??")
    expect(shared.get_by_test_id("card-list-0")).not_to_have_attribute("data-own", "true")

    # Its share sheet lists the players' own links at a Mahé table too.
    tap(shared, "share")
    expect(shared.get_by_test_id("seat-link-0")).to_contain_text("Martin")
