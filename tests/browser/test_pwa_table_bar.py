"""The table's bar (issue 26): a table is named by its players and start time, the players may
rename it (kept on the phone, shown in "Your tables"), and the bar says how long the game has run."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .helpers import ApiTable, assert_no_horizontal_scroll, tap

PLAYERS = [{"name": "Eva", "colours": ["red", "green"]}, {"name": "Tom", "colours": ["yellow", "black"]}]


def test_name_rename_and_time_played(live_server: str, new_phone: Any) -> None:
    table = ApiTable(live_server, "mahe", PLAYERS, {"chance": "physical"})
    page = new_phone()
    page.goto(table.link)
    name = page.get_by_test_id("table-name")
    expect(name).to_have_text(re.compile(r"^Mahé · Eva and Tom · \w+ \d\d?:\d\d( [AP]M)?$"))
    expect(page.get_by_test_id("table-clock")).to_have_text("0 min")
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/kibitz-table-bar-360x740.png")

    tap(page, "table-name")
    page.get_by_test_id("rename-input").fill("Sunday rematch")
    page.get_by_test_id("rename-sheet").get_by_test_id("confirm").tap()
    expect(name).to_have_text("Sunday rematch")
    page.reload()
    expect(page.get_by_test_id("table-name")).to_have_text("Sunday rematch")
    page.goto(live_server + "/")
    expect(page.get_by_test_id(f"known-{table.id}")).to_contain_text("Sunday rematch")

    # Two hours and five minutes later (the phone's clock moved on): the bar says so.
    page.goto(table.link)
    page.clock.install()
    page.clock.fast_forward("02:05:00")
    expect(page.get_by_test_id("table-clock")).to_have_text(re.compile(r"^2 h 0[45]$"))


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_toasts_hide_nothing_the_players_need(live_server: str, new_phone: Any) -> None:
    """After a tap the undo toast sits above the action bar: not over the header, the table's bar
    with Share, the bar's buttons, nor, at the end, over who won; one toast at a time."""
    four = [
        {"name": n, "colours": [c]}
        for n, c in zip(("Eva", "Tom", "Ann", "Ben"), ("red", "green", "yellow", "black"), strict=True)
    ]
    mahe = ApiTable(live_server, "mahe", four, {"chance": "physical"})
    page = new_phone()
    page.goto(mahe.link)
    tap(page, "card-3")
    toast = page.get_by_test_id("undo-toast")
    expect(toast).to_be_visible()
    box = toast.bounding_box()
    for needed in ("share", "table-name", "home-link", "die-2"):
        assert not _overlap(box, page.get_by_test_id(needed).bounding_box()), needed
    tap(page, "die-2")
    expect(page.locator("#toasts > *")).to_have_count(1)

    mhing = ApiTable(live_server, "mhing", [{"name": "Anna"}, {"name": "Tom"}], {"settlement": 1})
    mhing.post({"type": "round_points", "winner": 0, "points": 64, "discarder": None})
    page.goto(mhing.link)
    tap(page, "end-game")
    page.get_by_test_id("confirm").tap()
    winner = page.get_by_test_id("winner")
    expect(winner).to_contain_text("Anna")
    shown = page.locator("#toasts > *")
    expect(shown).to_have_count(1)
    assert not _overlap(shown.bounding_box(), winner.bounding_box())
    assert not _overlap(shown.bounding_box(), page.get_by_test_id("share").bounding_box())
    page.screenshot(path="/tmp/kibitz-toast-end-360x740.png")
