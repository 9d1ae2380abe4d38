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
