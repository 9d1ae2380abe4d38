"""Between games, on two phones at 360×740: a group of four is created, plays two Mahé games (the
second set up with one tap per player, seats remembered) and a Mhing session started on a second
phone from the group's link; history and statistics match an independent count of the exported
records; charts render with their data tables; all of it readable offline after the first visit.
A group started offline is created when the phone is back. The group's screens (history, statistics
and charts, players, sharing) in all six languages with no catalog key or English left, and axe
finds nothing serious on them."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .helpers import ApiTable, stored_token, switch_language, tap
from .test_a11y import games, problems, serious_violations, table_from
from .test_pwa_languages import CATALOG_KEY, untranslated

NAMES = ["Ann", "Ben", "Cid", "Dora"]


def post(base: str, table_id: str, token: str, version: int, event: dict[str, Any]) -> int:
    answer = requests.post(
        f"{base}/api/tables/{table_id}/events",
        json={"expected_version": version, "event": event},
        headers={"Authorization": f"Bearer {token}"},
        timeout=5,
    )
    assert answer.status_code == 201, (event, answer.text)
    return int(answer.json()["table"]["version"])


def play_mahe_to_the_end(base: str, table_id: str, token: str) -> None:
    """Seat 0 takes every card and the beach (2, 1, 4 = 21 fields, MA-3/MA-7); the others bust."""
    version = post(base, table_id, token, 0, {"type": "reveal_card", "value": 3})
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


def play_mhing_session(base: str, table_id: str, token: str) -> None:
    version = 0
    for winner, points in ((1, 64), (0, 32), (1, 16)):
        event = {"type": "round_points", "winner": winner, "points": points, "discarder": None}
        version = post(base, table_id, token, version, event)
    post(base, table_id, token, version, {"type": "end_game"})


def start_from_group(page: Any, game: str, picks: list[int]) -> str:
    """The group's game button opens the game's setup with the group's players (issue 33)."""
    tap(page, "group-tab-play")
    tap(page, f"group-new-{game}")
    expect(page.get_by_test_id("group-seating")).to_be_visible()
    for index in picks:
        tap(page, f"pick-player-{index}")
    tap(page, "create-table")
    page.wait_for_url(re.compile(r"#/t/"))
    return str(page.evaluate("location.hash").split("/t/")[1].split("?")[0])


def recount(base: str, group: dict[str, Any]) -> dict[str, Counter[str]]:
    """Games and wins per player name, from each table's exported record and the seats filed."""
    names = {p["id"]: p["name"] for p in group["group"]["players"]}
    counts: dict[str, Counter[str]] = {}
    for membership in group["memberships"]:
        record = requests.get(f"{base}/api/tables/{membership['table_id']}/export", timeout=5).json()
        for seat, player in enumerate(membership["seats"]):
            mine = counts.setdefault(names[player], Counter())
            mine["games"] += 1
            mine["wins"] += seat in record["result"]["winners"]
    return counts


def test_a_group_plays_and_looks_back(live_server: str, new_phone: Any) -> None:
    page = new_phone()
    page.goto(live_server + "/")
    tap(page, "new-group")
    page.get_by_test_id("group-name").fill("Friday club")
    tap(page, "group-add-player")
    tap(page, "group-add-player")
    for index, name in enumerate(NAMES):
        page.get_by_test_id(f"group-player-{index}").fill(name)
    tap(page, "create-group")
    expect(page.get_by_test_id("group-title")).to_have_text("Friday club")
    group_id = page.evaluate("location.hash").split("/g/")[1]
    assert "k=" not in page.url  # the edit token stays on the phone

    # First Mahé game: one tap per player, in seat order.
    first = start_from_group(page, "mahe", [0, 1, 2, 3])
    expect(page.get_by_test_id("sync-badge")).to_be_visible()
    play_mahe_to_the_end(live_server, first, stored_token(page, first))

    # Second Mahé game: the seats of last time are already picked; Ben and Ann swap (4 + 4 taps).
    page.goto(f"{live_server}/#/g/{group_id}")
    tap(page, "group-tab-play")
    tap(page, "group-new-mahe")
    for index in range(4):
        expect(page.get_by_test_id(f"pick-player-{index}")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("seating-hint")).to_contain_text("as last time")
    page.go_back()
    second = start_from_group(page, "mahe", [0, 1, 2, 3, 1, 0, 2, 3])
    play_mahe_to_the_end(live_server, second, stored_token(page, second))
    table = requests.get(f"{live_server}/api/tables/{second}", timeout=5).json()
    assert [p["name"] for p in table["players"]] == ["Ben", "Ann", "Cid", "Dora"]

    # A second phone joins with the group's link and starts a Mhing session for three.
    token = json.loads(page.evaluate("localStorage.getItem('kibitz.groups')"))[0]["token"]
    other = new_phone()
    other.goto(f"{live_server}/#/g/{group_id}?k={token}")
    expect(other.get_by_test_id("group-title")).to_have_text("Friday club")
    mhing = start_from_group(other, "mhing", [3, 1, 0])
    play_mhing_session(live_server, mhing, stored_token(other, mhing))

    # History and statistics on the first phone equal a count of the exported records.
    page.goto(f"{live_server}/#/g/{group_id}")
    page.reload()  # now under the service worker: what it reads is kept for offline use
    tap(page, "group-tab-history")
    for table_id in (first, second, mhing):
        expect(page.get_by_test_id(f"history-{table_id}")).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id(f"history-{second}-seat-0")).to_contain_text("🏆 Ben")
    exported = requests.get(f"{live_server}/api/groups/{group_id}/export", timeout=5).json()
    counts = recount(live_server, exported)
    assert counts["Ann"]["wins"] == 1 and counts["Ben"]["wins"] == 2 and counts["Dora"]["games"] == 3
    tap(page, "group-tab-stats")
    for player in exported["group"]["players"]:
        row = page.get_by_test_id(f"stats-{player['id']}")
        mine = counts[player["name"]]
        expect(row.locator("td").nth(0)).to_have_text(str(mine["games"]))
        expect(row.locator("td").nth(1)).to_have_text(str(mine["wins"]))
    for chart in ("chart-wins", "chart-wins-over-time", "chart-mhing-premiums"):
        if chart == "chart-mhing-premiums":
            continue  # typed points carry no premiums
        expect(page.get_by_test_id(f"{chart}-plot")).to_have_attribute("data-drawn", "true")
        expect(page.get_by_test_id(f"{chart}-plot").locator("canvas")).to_have_count(1)
        table_rows = page.get_by_test_id(f"{chart}-table").locator("tbody tr")
        assert table_rows.count() >= 2
    rows = page.get_by_test_id("chart-wins-table").locator("tbody tr").all_text_contents()
    assert "Ben2" in rows and "Ann1" in rows
    expect(page.get_by_test_id("h2h-result")).to_contain_text("games together")
    page.screenshot(path="/tmp/kibitz-group-stats-360x740.png", full_page=True)
    tap(page, "group-tab-history")
    tap(page, f"progress-{first}")
    expect(page.get_by_test_id(f"chart-progress-{first}-plot")).to_have_attribute("data-drawn", "true")

    # Offline after the first visit: the group, its history and statistics are still there.
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("group-title")).to_have_text("Friday club")
    tap(page, "group-tab-history")
    expect(page.get_by_test_id(f"history-{second}")).to_be_visible()
    tap(page, "group-tab-stats")
    expect(page.get_by_test_id("stats-table")).to_be_visible()
    expect(page.get_by_test_id("chart-wins-plot")).to_have_attribute("data-drawn", "true")
    page.context.set_offline(False)

    # In German.
    switch_language(page, "de")
    expect(page.get_by_test_id("group-tab-history")).to_contain_text("Verlauf")
    expect(page.get_by_test_id("group-tab-stats")).to_contain_text("Statistik")


def test_the_group_screens_pass_axe(live_server: str, new_phone: Any) -> None:
    created = requests.post(
        f"{live_server}/api/groups", json={"name": "Club", "players": [{"name": n} for n in NAMES]}, timeout=5
    ).json()
    page = new_phone(bypass_csp=True, reduced_motion="reduce")
    page.goto(f"{live_server}{created['join_path']}")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")
    found = problems(page, "group play")
    for tab in ("history", "stats", "players", "share"):
        tap(page, f"group-tab-{tab}")
        page.wait_for_timeout(100)
        found += problems(page, f"group {tab}")
    page.goto(f"{live_server}/#/g/new")
    found += problems(page, "new group")
    assert found == []


def test_a_group_started_offline_is_created_when_the_phone_is_back(live_server: str, new_phone: Any) -> None:
    """No network at the cottage: the group is started on the phone (kept through a reload, listed
    as waiting), and created on the server once the phone is back — once, with the players typed —
    whereupon its page is the group's own, with the edit token on the phone."""
    from .test_pwa_offline import wait_cached

    page = new_phone()
    page.goto(live_server + "/")
    wait_cached(page)
    page.context.set_offline(True)
    tap(page, "new-group")
    page.get_by_test_id("group-name").fill("Cottage")
    tap(page, "group-add-player")
    for index, name in enumerate(NAMES[:3]):
        page.get_by_test_id(f"group-player-{index}").fill(name)
    tap(page, "create-group")
    expect(page.get_by_test_id("group-waiting")).to_be_visible()
    expect(page.get_by_test_id("group-title")).to_have_text("Cottage")
    local_id = page.evaluate("location.hash").split("/g/")[1]
    assert local_id.startswith("local-")
    expect(page.get_by_test_id("group-player-list").locator("li")).to_have_text(NAMES[:3])

    page.reload()  # still offline: the service worker serves the app, the phone keeps the group
    expect(page.get_by_test_id("group-waiting")).to_be_visible()
    page.goto(f"{live_server}/#/")
    expect(page.get_by_test_id(f"known-group-{local_id}")).to_contain_text("Waiting for the connection")
    page.goto(f"{live_server}/#/g/{local_id}")
    expect(page.get_by_test_id("group-waiting")).to_be_visible()

    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"#/g/(?!local-)[\w-]{16}$"), timeout=20_000)
    expect(page.get_by_test_id("group-title")).to_have_text("Cottage")
    expect(page.get_by_test_id("group-tab-play")).to_be_visible()  # the edit token is on the phone
    group_id = page.evaluate("location.hash").split("/g/")[1]
    created = requests.get(f"{live_server}/api/groups/{group_id}", timeout=5).json()
    assert [p["name"] for p in created["players"]] == NAMES[:3] and created["version"] == 1
    stored = page.evaluate(
        "[localStorage.getItem('kibitz.group_creations'), localStorage.getItem('kibitz.groups')]"
    )
    assert json.loads(stored[0]) == []
    known = json.loads(stored[1])
    assert [g["id"] for g in known] == [group_id] and known[0]["token"]
    # The old local link still leads to the group.
    page.goto(f"{live_server}/#/g/{local_id}")
    page.wait_for_url(re.compile(rf"#/g/{group_id}$"))
    expect(page.get_by_test_id("group-title")).to_have_text("Cottage")


@pytest.fixture(scope="module")
def played_group(live_server: str) -> dict[str, Any]:
    """A group of four with a finished game of each game (Magellan too: its points by source), a
    second finished Mahé game (wins over time), a Mhing table still playing and an abandoned one:
    every kind of history entry, every chart."""
    created = requests.post(
        f"{live_server}/api/groups", json={"name": "Club", "players": [{"name": n} for n in NAMES]}, timeout=5
    ).json()
    ids = [p["id"] for p in created["group"]["players"]]
    auth = {"Authorization": f"Bearer {created['edit_token']}"}

    def file(table: ApiTable, seats: list[str]) -> None:
        body = {"table_id": table.id, "table_token": table.token, "seats": seats}
        answer = requests.post(
            f"{live_server}/api/groups/{created['id']}/tables", json=body, headers=auth, timeout=5
        )
        assert answer.status_code == 201, answer.text

    for offset, whole in enumerate(games().values()):  # three players each, to the end
        file(table_from(live_server, whole), [ids[(offset + i) % 4] for i in range(3)])
    four = [
        {"name": n, "colours": [c]}
        for n, c in zip(NAMES, ("red", "green", "yellow", "darkblue"), strict=True)
    ]
    mahe = ApiTable(live_server, "mahe", four, {"chance": "physical"})
    play_mahe_to_the_end(live_server, mahe.id, mahe.token)
    file(mahe, ids)
    whole = games()["mhing"]
    file(table_from(live_server, whole, upto=len(whole.events) // 2), ids[1:])
    given_up = table_from(live_server, whole, upto=1)
    file(given_up, ids[:3])
    answer = requests.patch(
        f"{live_server}/api/groups/{created['id']}/tables/{given_up.id}",
        json={"abandoned": True},
        headers=auth,
        timeout=5,
    )
    assert answer.status_code == 200
    return {**created, "first_mahe": mahe.id}


@pytest.mark.parametrize("language", ["en", "de", "fr", "it", "nl", "es"])
def test_the_group_screens_in_every_language(
    live_server: str, new_phone: Any, played_group: dict[str, Any], language: str
) -> None:
    """History (each status, a score-over-the-game chart), statistics (every chart with its data
    table, head to head), players, sharing and a game's setup from the group in the browser's language: no
    catalog key and no English left; axe finds nothing serious on any of them."""
    page = new_phone(locale=language, bypass_csp=True, reduced_motion="reduce")
    page.goto(f"{live_server}{played_group['join_path']}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_test_id("group-title")).to_have_text("Club")
    found: list[str] = []

    def check(screen: str) -> None:
        screen = f"{language} {screen}"
        if language == "en":
            text = page.locator("body").inner_text()
            found.extend(f"{screen}: catalog key {m}" for m in CATALOG_KEY.findall(text))
        else:
            found.extend(untranslated(page, language, screen))
        found.extend(f"{screen}: {v['id']} ({v['help']}): {v['nodes']}" for v in serious_violations(page))

    check("group play")
    tap(page, "group-new-mahe")
    expect(page.get_by_test_id("group-seating")).to_be_visible()
    expect(page.get_by_test_id("seating-hint")).not_to_be_empty()
    check("group setup")
    page.go_back()

    tap(page, "group-tab-history")
    statuses = page.get_by_test_id("history-list").locator("> li")
    expect(statuses).to_have_count(6)
    assert sorted(statuses.evaluate_all("items => items.map((i) => i.dataset.status)")) == [
        "abandoned",
        *["finished"] * 4,
        "playing",
    ]
    tap(page, f"progress-{played_group['first_mahe']}")
    expect(page.get_by_test_id(f"chart-progress-{played_group['first_mahe']}-plot")).to_have_attribute(
        "data-drawn", "true"
    )
    check("group history")

    tap(page, "group-tab-stats")
    for chart in ("chart-wins", "chart-wins-over-time", "chart-magellan-sources"):
        expect(page.get_by_test_id(f"{chart}-plot")).to_have_attribute("data-drawn", "true")
        assert page.get_by_test_id(f"{chart}-table").locator("tbody tr").count() >= 2
    for game in ("mahe", "magellan", "mhing"):
        expect(page.get_by_test_id(f"stats-{game}")).to_be_visible()
    expect(page.get_by_test_id("h2h-result")).not_to_be_empty()
    check("group statistics")
    first = played_group["group"]["players"][0]["id"]
    tap(page, f"stats-player-{first}")  # a player's page (issue 33, item 9)
    expect(page.get_by_test_id("player-records")).to_be_visible()
    check("player page")
    tap(page, "player-back")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")

    for tab, shown in (("players", "group-player-list"), ("share", "share-read")):
        tap(page, f"group-tab-{tab}")
        expect(page.get_by_test_id(shown)).to_be_visible()
        check(f"group {tab}")
    assert not found, "\n".join(found)
