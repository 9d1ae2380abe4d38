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
    """Issue 33: a toast lies in the table's news line, in the flow of the page, never over the
    header, the table's bar, the last move, the score, the bar's buttons, nor, at the end, who won;
    one at a time; a toast after a confirm sheet says news, not the question just answered; the end
    of the game clears the last move's toast ("… then it is Tom's turn")."""
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
    for needed in ("share", "table-name", "home-link", "die-2", "scoreboard", "actionbar"):
        where = page.get_by_test_id(needed)
        if where.count():
            assert not _overlap(box, where.first.bounding_box()), needed
    assert page.locator("#table-news > *").count() == 1
    tap(page, "die-2")
    expect(page.locator("#table-news > *")).to_have_count(1)
    expect(page.locator("#toasts > *")).to_have_count(0)
    last = page.get_by_test_id("last-move")
    if last.count():
        assert not _overlap(page.locator("#table-news > *").bounding_box(), last.bounding_box())

    mhing = ApiTable(live_server, "mhing", [{"name": "Anna"}, {"name": "Tom"}], {"settlement": 1})
    mhing.post({"type": "round_points", "winner": 0, "points": 64, "discarder": None})
    page.goto(mhing.link)
    tap(page, "end-game")
    page.get_by_test_id("confirm").tap()
    winner = page.get_by_test_id("winner")
    expect(winner).to_contain_text("Anna")
    page.wait_for_timeout(300)
    # The question "End the game now, by agreement?" was answered: it is not repeated as news.
    assert "End the game now" not in " ".join(page.locator("#table-news, #toasts").all_inner_texts())
    for shown in page.locator("#table-news > *, #toasts > *").all():
        assert not _overlap(shown.bounding_box(), winner.bounding_box())
    page.screenshot(path="/tmp/kibitz-toast-end-360x740.png")
