"""An evening that flows (issue 33), on four phones at 360×740: a group of four starts a Mahé game
from the group (one setup: the group's players one tap each); a second phone joins by scanning the
table's code, a third watches by the read code, and Dora's phone opens her own link (her secret egg
cards, MA-7) — the only joins of the evening. The game ends, the host taps Rematch: the other
phones are on the rematch without a tap (the scanned key records there, the watcher only watches,
Dora is Dora again). The rematch ends, the host starts Mhing from the group (Another game → Mhing →
Create: the same four already seated): again every phone follows. Every table is filed in the
group and its history lists them; the taps are counted per phone."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import stored_token
from .test_pwa_groups import NAMES, play_mahe_to_the_end, post
from .test_pwa_qr import decode

TAPS: Counter[str] = Counter()
TESTIDS = "form => [...form.querySelectorAll('[data-testid]')].map((e) => e.dataset.testid)"
MAGELLAN_OPTIONS = (
    "mg-sheet-select",
    "mg-sheet-panel",
    "mg-side-vasco-B",
    "mg-depth-ledger",
    "chance-digital",
)


def tap(page: Any, testid: str, phone: str, timeout: float | None = None) -> None:
    """A counted tap: the test's one way to touch a phone."""
    TAPS[phone] += 1
    page.get_by_test_id(testid).tap(timeout=timeout)


def table_of(page: Any) -> str:
    return str(page.evaluate("location.hash").split("/t/")[1].split("?")[0])


def finish_mahe_from(base: str, table_id: str, token: str, version: int) -> None:
    """The game of test_pwa_groups.play_mahe_to_the_end after its first entry (the egg card 3,
    tapped on a phone): seat 0 takes every card and the beach, the others bust (MA-3, MA-7)."""
    die = lambda v: {"type": "die", "value": v}  # noqa: E731
    for index in range(21):
        for value in (2, 1, 4):
            version = post(base, table_id, token, version, die(value))
        if index < 19:
            version = post(base, table_id, token, version, {"type": "reveal_card", "value": 1 + index % 6})
        if index < 20:
            for _ in range(3):
                for value in (6, 6):
                    version = post(base, table_id, token, version, die(value))


def on_table(page: Any, table_id: str) -> None:
    page.wait_for_url(re.compile(rf"#/t/{table_id}$"), timeout=60_000)
    expect(page.get_by_test_id("open-log")).to_be_visible(timeout=30_000)


def test_an_evening_of_three_games_on_four_phones(live_server: str, new_phone: Any) -> None:
    created = requests.post(
        f"{live_server}/api/groups",
        json={"name": "Friday club", "players": [{"name": n} for n in NAMES]},
        timeout=5,
    ).json()
    group_id = created["id"]
    host = new_phone()
    host.goto(f"{live_server}{created['join_path']}")  # the group's link, opened once on the host
    expect(host.get_by_test_id("group-title")).to_have_text("Friday club")

    # Game 1, Mahé, from the group: its setup is the game's whole form with the group's players.
    tap(host, "group-new-mahe", "host")
    expect(host.get_by_test_id("setup-group")).to_have_value(group_id)
    expect(host.get_by_test_id("chance-digital")).to_be_visible()  # every option of the game
    for index in range(4):
        tap(host, f"pick-player-{index}", "host")
    for index, name in enumerate(NAMES):
        expect(host.get_by_test_id(f"player-name-{index}")).to_have_value(name)
    tap(host, "create-table", "host")
    host.wait_for_url(re.compile(r"#/t/[\w-]{16}$"))
    first = table_of(host)
    assert TAPS["host"] == 6  # the game, four players, Create

    # The only scans of the evening: the join code (a player's phone) and the read code (a watcher).
    tap(host, "share", "host")
    expect(host.get_by_test_id("qr-join")).to_have_attribute("data-drawn", "true")
    scanner = new_phone()
    scanner.goto("about:blank")
    join_link = decode(scanner, host.get_by_test_id("qr-join").screenshot())
    # One code on screen at a time (issue 33): the switch shows the read code.
    tap(host, "qr-show-view", "host")
    expect(host.get_by_test_id("qr-view")).to_have_attribute("data-drawn", "true")
    read_link = decode(scanner, host.get_by_test_id("qr-view").screenshot())
    dora_link = host.get_by_test_id("seat-link-3").get_attribute("data-link")  # sent to Dora's phone
    host.get_by_test_id("share-sheet").get_by_test_id("close").tap()
    player = new_phone()
    player.goto(join_link)
    watcher = new_phone()
    watcher.goto(read_link)
    dora = new_phone()
    dora.goto(dora_link)
    on_table(player, first)
    on_table(watcher, first)
    on_table(dora, first)
    expect(watcher.get_by_test_id("view-only")).to_be_visible()
    expect(dora.get_by_test_id("my-seat")).to_contain_text("Dora")

    # A short Mahé game: the player's phone turns the first egg card, the rest comes in quickly.
    tap(player, "card-3", "player")
    expect(host.get_by_test_id("face-up")).to_contain_text("3")
    finish_mahe_from(live_server, first, stored_token(host, first), 1)
    for phone in (host, player, watcher, dora):
        expect(phone.get_by_test_id("result")).to_be_visible(timeout=90_000)
    taps_before = Counter(TAPS)

    # Game 2: the host's Rematch. The two other phones are on it with no tap and no scan.
    # Four phones' referees catch up with the end at once: on a busy machine the host's page may be
    # busy for a while (its result drawn again once it is settled).
    tap(host, "rematch", "host", timeout=30_000)
    host.wait_for_url(re.compile(rf"#/t/(?!{first})[\w-]{{16}}$"))
    second = table_of(host)
    on_table(player, second)
    on_table(watcher, second)
    on_table(dora, second)
    assert TAPS - taps_before == Counter({"host": 1})
    assert stored_token(player, second) == stored_token(host, second)  # the player records there
    expect(player.get_by_test_id("view-only")).to_have_count(0)
    expect(watcher.get_by_test_id("view-only")).to_be_visible()  # the watcher got no key
    watcher_tokens = watcher.evaluate("localStorage.getItem('kibitz.tokens')") or "{}"
    assert second not in watcher_tokens
    expect(dora.get_by_test_id("my-seat")).to_contain_text("Dora")  # her own link again, no key
    assert second not in (dora.evaluate("localStorage.getItem('kibitz.tokens')") or "{}")
    play_mahe_to_the_end(live_server, second, stored_token(host, second))
    # (A phone whose view lags behind the end still follows: it asks now and then while playing.)
    expect(host.get_by_test_id("result")).to_be_visible(timeout=90_000)

    # Game 3: Mhing from the group, the same four seated already: Another game → Mhing → Create.
    taps_before = Counter(TAPS)
    tap(host, "next-game", "host")
    tap(host, "group-new-mhing", "host")
    expect(host.get_by_test_id("settlement-2")).to_be_visible()  # Mhing's scoring variant is there
    for index, name in enumerate(NAMES):
        expect(host.get_by_test_id(f"player-name-{index}")).to_have_value(name)
    tap(host, "create-table", "host")
    host.wait_for_url(re.compile(rf"#/t/(?!{second})[\w-]{{16}}$"))
    third = table_of(host)
    on_table(player, third)
    on_table(watcher, third)
    on_table(dora, third)
    assert TAPS - taps_before == Counter({"host": 3})
    assert requests.get(f"{live_server}/api/tables/{third}", timeout=5).json()["game"] == "mhing"
    assert stored_token(player, third) == stored_token(host, third)
    expect(watcher.get_by_test_id("view-only")).to_be_visible()
    expect(dora.get_by_test_id("my-seat")).to_contain_text("Dora")

    # Every table of the evening is filed in the group, with its seats; the history lists them.
    history = requests.get(f"{live_server}/api/groups/{group_id}/history", timeout=5).json()["entries"]
    assert {e["table_id"] for e in history} == {first, second, third}
    ids = [p["id"] for p in created["group"]["players"]]
    for entry in history:
        assert [p["player_id"] for p in entry["players"]] == ids
    host.goto(f"{live_server}/#/g/{group_id}")
    host.get_by_test_id("group-tab-history").tap()
    for table_id in (first, second, third):
        expect(host.get_by_test_id(f"history-{table_id}")).to_be_visible()
    print(f"\nevening taps: {dict(TAPS)}")


def test_home_and_group_open_the_same_setup(live_server: str, new_phone: Any) -> None:
    """From Home, a phone that keeps a group picks it above the game's form and its players with a
    tap each; Magellan keeps its sheet picker, sides, depth and card mode either way, and the table
    is filed in the group. From the group, the same form opens with the group chosen."""
    created = requests.post(
        f"{live_server}/api/groups", json={"name": "Club", "players": [{"name": n} for n in NAMES]}, timeout=5
    ).json()
    phone = new_phone()
    phone.goto(f"{live_server}{created['join_path']}")
    expect(phone.get_by_test_id("group-title")).to_have_text("Club")
    phone.get_by_test_id("group-new-magellan").tap()
    from_group = phone.locator("form.setup-form").evaluate(TESTIDS)
    expect(phone.get_by_test_id("setup-group")).to_have_value(created["id"])

    phone.goto(f"{live_server}/#/")
    phone.get_by_test_id("new-table-magellan").tap()
    expect(phone.get_by_test_id("setup-group")).to_have_value("")  # Home files nothing unasked
    expect(phone.get_by_test_id("group-seating")).to_be_hidden()
    from_home = phone.locator("form.setup-form").evaluate(TESTIDS)
    for part in (*MAGELLAN_OPTIONS, "setup-group", "group-seating", "create-table"):  # one setup, either door
        assert part in from_home and part in from_group, part
    phone.get_by_test_id("setup-group").select_option(created["id"])
    for index in (2, 0, 1):
        phone.get_by_test_id(f"pick-player-{index}").tap()
    for index, name in enumerate(["Cid", "Ann", "Ben"]):
        expect(phone.get_by_test_id(f"player-name-{index}")).to_have_value(name)
    phone.get_by_test_id("mg-side-vasco-B").tap()
    phone.get_by_test_id("mg-depth-ledger").tap()
    phone.get_by_test_id("create-table").tap()
    phone.wait_for_url(re.compile(r"#/t/[\w-]{16}$"))
    table_id = table_of(phone)
    table = requests.get(f"{live_server}/api/tables/{table_id}", timeout=5).json()
    assert table["options"]["sides"]["vasco"] == "B" and table["options"]["depth"] == "ledger"
    history = requests.get(f"{live_server}/api/groups/{created['id']}/history", timeout=5).json()["entries"]
    ids = {p["name"]: p["id"] for p in created["group"]["players"]}
    assert [(e["table_id"], [p["player_id"] for p in e["players"]]) for e in history] == [
        (table_id, [ids["Cid"], ids["Ann"], ids["Ben"]])
    ]

    # Back to the group for the next Magellan game: last time's seats, sides and depth are set.
    phone.goto(f"{live_server}/#/g/{created['id']}")
    phone.get_by_test_id("group-new-magellan").tap()
    for index, name in enumerate(["Cid", "Ann", "Ben"]):
        expect(phone.get_by_test_id(f"player-name-{index}")).to_have_value(name)
    expect(phone.get_by_test_id("mg-side-vasco-B")).to_have_attribute("aria-pressed", "true")
    expect(phone.get_by_test_id("mg-depth-ledger")).to_have_attribute("aria-pressed", "true")
    expect(phone.get_by_test_id("seating-hint")).to_contain_text("as last time")
