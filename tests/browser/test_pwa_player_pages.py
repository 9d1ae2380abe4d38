"""Issue 33, item 9 on a 360 px phone: a player's page opened from the statistics and from the
history (its figures, streaks and records are the server's, the record links its table), the date
filter on history and statistics (and carried to the player page), the games' play counts with
their last day, and the group's CSV export downloaded by a button — each screen checked for
overflow, clipped text and "NaN"/"null"/"undefined"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.api.test_group_bgstats_import import export

from .helpers import tap
from .test_pwa_360_every_screen import problems
from .test_pwa_groups import played_group  # noqa: F401 - the module's fixture: every kind of table


def day(page: Any, plus: int) -> str:
    """This phone's own day, `plus` days on, as a date field takes it."""
    return str(
        page.evaluate(
            """(plus) => { const d = new Date(); d.setDate(d.getDate() + plus);
            const two = (n) => String(n).padStart(2, "0");
            return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; }""",
            plus,
        )
    )


def test_player_pages_date_filter_plays_and_csv_at_360_px(
    live_server: str,
    new_phone: Any,
    played_group: dict[str, Any],  # noqa: F811
    tmp_path: Path,
) -> None:
    page = new_phone(locale="en-GB", reduced_motion="reduce", accept_downloads=True)
    gid = played_group["id"]
    ann = played_group["group"]["players"][0]["id"]
    found: list[str] = []
    page.goto(f"{live_server}{played_group['join_path']}")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")

    # Play counts and last day per game: on the game buttons, and in the statistics.
    expect(page.get_by_test_id("plays-mahe")).to_contain_text("2 games · last")
    expect(page.get_by_test_id("plays-magellan")).to_contain_text("1 game · last")
    tap(page, "group-tab-stats")
    expect(page.get_by_test_id("plays-row-mhing")).to_contain_text("Mhing")
    found.extend(problems(page, "statistics with plays and dates"))

    # A player's page from the statistics: the server's figures, a record with its table.
    api = requests.get(f"{live_server}/api/groups/{gid}/players/{ann}", timeout=5).json()
    assert api["games"] >= 2 and api["records"], api
    tap(page, f"stats-player-{ann}")
    expect(page.get_by_test_id("player-title")).to_have_text("Ann")
    summary = page.get_by_test_id("player-summary").locator("dd")
    expect(summary.nth(0)).to_have_text(str(api["games"]))
    expect(summary.nth(1)).to_have_text(str(api["wins"]))
    expect(summary.nth(4)).to_have_text(str(api["streaks"]["current"]))
    expect(summary.nth(5)).to_have_text(str(api["streaks"]["longest"]))
    for game in api["by_game"]:
        expect(page.get_by_test_id(f"player-game-{game}")).to_be_visible()
    first = api["records"][0]
    record = page.get_by_test_id(f"player-record-{first['game']}")
    expect(record).to_have_attribute("data-table", first["table_id"])
    expect(record.locator(".player-record-value")).to_have_text(str(first["value"]))
    found.extend(problems(page, "player page"))
    tap(page, f"player-record-table-{first['game']}")
    expect(page).to_have_url(f"{live_server}/#/t/{first['table_id']}")
    page.go_back()
    expect(page.get_by_test_id("player-title")).to_have_text("Ann")
    tap(page, "player-back")

    # The date filter: tomorrow on has nothing, today has every table; it goes to the player page.
    tap(page, "group-tab-history")
    expect(page.get_by_test_id("history-list").locator("> li")).to_have_count(6)
    page.get_by_test_id("date-from").fill(day(page, 1))
    expect(page.get_by_test_id("history-empty")).to_have_text("No games in these dates.")
    found.extend(problems(page, "history, empty window"))
    page.get_by_test_id("date-from").fill(day(page, 0))
    page.get_by_test_id("date-to").fill(day(page, 0))
    expect(page.get_by_test_id("history-list").locator("> li")).to_have_count(6)
    page.get_by_test_id("date-to").fill(day(page, -1))
    expect(page.get_by_test_id("history-empty")).to_be_visible()
    tap(page, "date-clear")
    expect(page.get_by_test_id("history-list").locator("> li")).to_have_count(6)
    page.get_by_test_id("date-from").fill(day(page, 0))
    tap(page, "group-tab-stats")
    expect(page.get_by_test_id("date-from")).to_have_value(day(page, 0))
    expect(page.get_by_test_id(f"stats-{ann}")).to_be_visible()
    page.get_by_test_id("date-from").fill(day(page, 1))
    expect(page.get_by_test_id("stats-empty")).to_have_text("No games in these dates.")
    page.get_by_test_id("date-from").fill(day(page, 0))
    tap(page, f"stats-player-{ann}")
    expect(page.get_by_test_id("player-window")).to_be_visible()
    expect(page.get_by_test_id("player-summary").locator("dd").nth(0)).to_have_text(str(api["games"]))
    found.extend(problems(page, "player page in a window"))
    tap(page, "player-back")

    # The CSV export, downloaded by its button: the server's export, every row.
    tap(page, "group-tab-history")
    with page.expect_download() as download:
        tap(page, "export-csv")
    saved = tmp_path / "group.csv"
    download.value.save_as(saved)
    expected = requests.get(f"{live_server}/api/groups/{gid}/export.csv", timeout=5).content
    assert saved.read_bytes() == expected
    assert len(expected.splitlines()) > 10
    found.extend(problems(page, "history with dates and CSV"))
    assert not found, "\n".join(found)


def test_plays_imported_from_a_bgstats_file_at_360_px(live_server: str, new_phone: Any) -> None:
    """The group's settings take a BG Stats export through a file picker: the plays of our games
    join history (marked imported, no table to open) and statistics; the same file again adds
    nothing; a file that is not an export is told so."""
    created = requests.post(
        f"{live_server}/api/groups",
        json={"name": "Club", "players": [{"name": "Ann"}, {"name": "Ben"}]},
        timeout=5,
    ).json()
    page = new_phone(locale="en-GB", reduced_motion="reduce")
    page.goto(f"{live_server}{created['join_path']}")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")
    tap(page, "group-tab-players")
    file = {"name": "BGStatsExport.json", "mimeType": "application/json"}
    page.get_by_test_id("import-file").set_input_files({**file, "buffer": b"{not json"})
    expect(page.get_by_test_id("import-result")).to_have_text("This is not a BG Stats export file.")
    body = json.dumps(export()).encode()
    page.get_by_test_id("import-file").set_input_files({**file, "buffer": body})
    expect(page.get_by_test_id("import-result")).to_have_text("2 plays imported. New in the group: Zoë.")
    found = problems(page, "players with the import")
    page.get_by_test_id("import-file").set_input_files({**file, "buffer": body})
    expect(page.get_by_test_id("import-result")).to_have_text(
        "Nothing new: these plays are in the group already."
    )
    tap(page, "group-tab-history")
    entries = page.get_by_test_id("history-list").locator("> li")
    expect(entries).to_have_count(2)
    expect(page.locator("[data-testid^=imported-]")).to_have_count(2)
    expect(page.get_by_test_id("history-list").get_by_text("Open the table")).to_have_count(0)
    found.extend(problems(page, "history with imported plays"))
    tap(page, "group-tab-stats")
    expect(page.get_by_test_id("stats-table").locator("tbody tr")).to_have_count(3)
    assert not found, "\n".join(found)
