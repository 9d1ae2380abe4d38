"""An evening that flows (issue 33), on four phones at 360×740: a group of four starts a Mahé game
from the group (one setup: the group's players one tap each); a second phone joins by scanning the
table's code, a third watches by the read code, and Dora's phone opens her own link (her secret egg
cards, MA-7) — the only joins of the evening. The game ends, the host taps Rematch: the other
phones are on the rematch without a tap (the scanned key records there, the watcher only watches,
Dora is Dora again). The rematch ends, the host starts Mhing from the group (Another game → Mhing →
Create: the same four already seated): again every phone follows, and the session is played to
its end. Then a Magellan game from a board sheet another group shared (MG-2: Another game →
Magellan → the shared sheet → Create, no number typed): every phone follows once more, the
player's phone records the first card's whole auction on the "winner and price" sheet (one entry,
MG-4), the game is played to its scoring. After the first join no phone scans or opens a link
again. At the end the group's history and statistics, on the host's screen and from the API, equal
a recount of the group's JSON and CSV exports (each record replayed by the rules here), as do the
wins chart's data table and every player's page (games, wins, best, streaks, records); the taps
are counted per phone."""

from __future__ import annotations

import csv
import io
import itertools
import re
import uuid
from collections import Counter
from typing import Any

import requests
from playwright.sync_api import expect

from api.rules.registry import get_game
from api.rules.replay import advance

from .helpers import stored_token
from .test_pwa_groups import NAMES, play_mahe_to_the_end, play_mhing_session, post
from .test_pwa_magellan import sheet_data
from .test_pwa_magellan_library import publish_and_confirm
from .test_pwa_qr import decode

TAPS: Counter[str] = Counter()
OPENED: Counter[str] = Counter()  # links opened (typed, scanned or tapped in a message) per phone
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


def open_link(page: Any, url: str, phone: str) -> None:
    """A counted visit to a link (scanned, typed, or sent to the phone): only for the first joins."""
    OPENED[phone] += 1
    page.goto(url)


def finish_magellan(base: str, table: dict[str, Any], token: str) -> dict[str, Any]:
    """The rest of a physical outcomes game through the API, each card's auction as ONE entry
    (issue 33; MG-4: whoever speaks first bids the minimum, the others pass), Vasco da Gama on the
    right part, Magellan slides 1, 2, 3 … (MG-8), the hands as one entry (MG-10), a Pizarro drawer
    stops at once (MG-11). The finished table."""
    slides = itertools.cycle(range(1, 10))
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    for _ in range(400):
        if table["finished"]:
            return table
        actions, card = table["legal_actions"], table["state"].get("card") or {}
        step = actions["step"]
        actor = actions["actors"][0]
        offered = {a["type"]: a for a in actor["actions"]}
        event: dict[str, Any]
        if step == "reveal":
            event = {"type": "reveal", "explorer": offered["reveal"]["explorers"][0]}
        elif step == "bid":
            order, turn = card["order"], card["turn"]
            seats = [order[(order.index(turn) + k) % len(order)] for k in range(len(order))]
            first = {"type": "bid", "seat": seats[0], "amount": card["high_bid"] + 1}
            event = {"type": "auction", "steps": [first, *({"type": "pass", "seat": s} for s in seats[1:])]}
        elif step == "vasco_part":
            event = {"type": "vasco_part", "part": "right"}
        elif step == "slide":
            event = {"type": "slide", "value": next(slides)}
            if not offered["slide"].get("new_pile", True):
                event["pile"] = offered["slide"]["piles"][0]
        elif step == "final_hand":
            event = {"type": "final_hands", "hands": {str(a["seat"]): [] for a in actions["actors"]}}
        elif step == "pizarro":
            event = {"type": "pizarro_stop", "seat": actor["seat"]}
        else:
            raise AssertionError(f"unexpected step {step!r}: {actions}")
        answer = session.post(
            f"{base}/api/tables/{table['id']}/events",
            json={"expected_version": table["version"], "event": event},
            timeout=10,
        )
        assert answer.status_code == 201, (event, answer.text)
        table = answer.json()["table"]
    raise AssertionError("the game did not end")


def pages(base: str, path: str) -> list[requests.Response]:
    """Every page of an export, following `Link: rel="next"` as a download tool would."""
    answers, url = [], f"{base}{path}"
    while url:
        answer = requests.get(url, timeout=30)
        assert answer.status_code == 200, answer.text
        answers.append(answer)
        link = answer.links.get("next", {}).get("url")
        url = f"{base}{link}" if link and link.startswith("/") else link
    return answers


def score_of(game: str, result: dict[str, Any], seat: int) -> int:
    """A seat's final score in a game's result: eggs (MA-10), points (MG-12), the session's points."""
    if game == "magellan":
        return int(next(s["total"] for s in result["scores"] if s["seat"] == seat))
    field = "eggs" if game == "mahe" else "score"
    return int(next(r[field] for r in result["ranking"] if r["seat"] == seat))


Tally = dict[tuple[str, str], Counter[str]]  # (player id, game) -> games, wins, points, best


def recount_json(base: str, group_id: str) -> tuple[Tally, dict[str, dict[int, tuple[bool, int]]]]:
    """Games, wins and points per player and game from the JSON export: each finished record is
    replayed by the rules here (undos included) and its result read off the last state; the seats
    come from the export's memberships. Also each table's (winner, score) by seat."""
    tally: Tally = {}
    seats: dict[str, list[str]] = {}
    records: list[dict[str, Any]] = []
    for answer in pages(base, f"/api/groups/{group_id}/export"):
        body = answer.json()
        seats.update({m["table_id"]: m["seats"] for m in body["memberships"] if not m["abandoned"]})
        records.extend(body["records"])
    by_table: dict[str, dict[int, tuple[bool, int]]] = {}
    for record in records:
        rules = get_game(record["game"])
        assert rules is not None
        states = [
            # kibitz-record/3 writes the seed as its decimal digits (JavaScript-exact)
            rules.new_game(record["players"], rules.normalize_options(record["options"]), int(record["seed"]))
        ]
        for entry in record["events"]:
            states = advance(rules, states, entry["event"])
        result = rules.result(states[-1])
        assert result is not None and result["winners"] == record["result"]["winners"]
        by_table[record["table_id"]] = {}
        for seat, player_id in enumerate(seats[record["table_id"]]):
            won, score = seat in result["winners"], score_of(record["game"], result, seat)
            by_table[record["table_id"]][seat] = (won, score)
            mine = tally.setdefault((player_id, record["game"]), Counter())
            mine.update(games=1, wins=int(won), points=score)
            mine["best"] = max(mine["best"], score)
    return tally, by_table


def recount_csv(base: str, group_id: str, names: dict[str, str]) -> Tally:
    """The same figures from the CSV export's rows (one per player per table), finished tables only."""
    ids = {name: player_id for player_id, name in names.items()}
    tally: Tally = {}
    for answer in pages(base, f"/api/groups/{group_id}/export.csv"):
        for row in csv.DictReader(io.StringIO(answer.text)):
            if row["status"] != "finished":
                continue
            mine = tally.setdefault((ids[row["player"]], row["game"]), Counter())
            score = int(row["score"])
            mine.update(games=1, wins=int(row["winner"] == "True"), points=score)
            mine["best"] = max(mine["best"], score)
    return tally


def on_table(page: Any, table_id: str) -> None:
    page.wait_for_url(re.compile(rf"#/t/{table_id}$"), timeout=60_000)
    expect(page.get_by_test_id("open-log")).to_be_visible(timeout=30_000)


def test_an_evening_of_four_games_on_four_phones(live_server: str, new_phone: Any) -> None:
    created = requests.post(
        f"{live_server}/api/groups",
        json={"name": "Friday club", "players": [{"name": n} for n in NAMES]},
        timeout=5,
    ).json()
    group_id = created["id"]
    host = new_phone()
    open_link(host, f"{live_server}{created['join_path']}", "host")  # the group's link, once
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
    open_link(player, join_link, "player")
    watcher = new_phone()
    open_link(watcher, read_link, "watcher")
    dora = new_phone()
    open_link(dora, dora_link, "dora")
    opened_at_the_joins = Counter(OPENED)
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

    # The Mhing session comes in (three rounds, then the end by agreement, MH-9): every phone sees it.
    play_mhing_session(live_server, third, stored_token(host, third))
    for phone in (host, player, watcher, dora):
        expect(phone.get_by_test_id("result")).to_be_visible(timeout=90_000)

    # Game 4: Magellan from a board sheet another group shared (MG-2): Another game → Magellan →
    # the shared sheet → Create. The same four are seated; no printed number is typed.
    edition = f"Evening edition {uuid.uuid4().hex[:6]}"
    data = sheet_data({})
    publication_id = publish_and_confirm(live_server, edition, data, tables=0)
    taps_before = Counter(TAPS)
    tap(host, "next-game", "host")
    tap(host, "group-new-magellan", "host")
    for index, name in enumerate(NAMES):
        expect(host.get_by_test_id(f"player-name-{index}")).to_have_value(name)
    picker = host.get_by_test_id("mg-library-select")
    expect(picker.locator(f"option[value='{publication_id}']")).to_contain_text(edition)
    TAPS["host"] += 1  # picking the sheet: one choice in the list
    picker.select_option(publication_id)
    expect(host.get_by_test_id("mg-sheet-info")).to_contain_text("Complete for these sides")
    tap(host, "create-table", "host")
    host.wait_for_url(re.compile(rf"#/t/(?!{third})[\w-]{{16}}$"))
    fourth = table_of(host)
    on_table(player, fourth)
    on_table(watcher, fourth)
    on_table(dora, fourth)
    assert TAPS - taps_before == Counter({"host": 4})
    table = requests.get(f"{live_server}/api/tables/{fourth}", timeout=5).json()
    assert table["game"] == "magellan" and table["state"]["board_sheet"] == data
    assert table["state"]["board_sheet_missing"] == []
    assert stored_token(player, fourth) == stored_token(host, fourth)

    # The player's phone: Cook turned up, then its whole auction on the "winner and price" sheet —
    # Ben wins it for 3, the others' passes with it, as ONE entry (issue 33, MG-4).
    taps_before = Counter(TAPS)
    tap(player, "mg-reveal-cook", "player")
    expect(player.get_by_test_id("mg-status")).to_have_attribute("data-step", "bid")
    tap(player, "mg-quick", "player")
    tap(player, "mg-quick-winner-1", "player")
    tap(player, "mg-quick-key-3", "player")
    expect(player.get_by_test_id("mg-quick-summary")).to_have_text("Ben wins Cook for 3.")
    tap(player, "confirm", "player")
    expect(player.get_by_test_id("mg-quick-sheet")).to_have_count(0)
    assert TAPS - taps_before == Counter({"player": 5})
    log = requests.get(f"{live_server}/api/tables/{fourth}/events", timeout=5).json()["events"]
    assert [e["event"]["type"] for e in log] == ["reveal", "auction"]
    assert [s["seat"] for s in log[1]["event"]["steps"]] == [0, 1, 2, 3]
    table = requests.get(f"{live_server}/api/tables/{fourth}", timeout=5).json()
    assert table["state"]["history"][-1] == {"phase": 1, "explorer": "cook", "outcome": "sold", "seat": 1,
                                             "price": 3}  # fmt: skip
    finished = finish_magellan(live_server, table, stored_token(host, fourth))
    assert finished["finished"]
    for phone in (host, player, watcher, dora):
        expect(phone.get_by_test_id("result")).to_be_visible(timeout=90_000)

    # Every table of the evening is filed in the group, with its seats; the history lists them.
    history = requests.get(f"{live_server}/api/groups/{group_id}/history", timeout=5).json()["entries"]
    filed = {e["table_id"]: e["game"] for e in history}
    assert set(filed) == {first, second, third, fourth}, (filed, first, second, third, fourth)
    ids = [p["id"] for p in created["group"]["players"]]
    for entry in history:
        assert [p["player_id"] for p in entry["players"]] == ids
    assert opened_at_the_joins == OPENED  # no phone scanned or opened a link after the first joins

    # History and statistics equal a recount of the exports: JSON (records replayed here) and CSV.
    names = {p["id"]: p["name"] for p in created["group"]["players"]}
    tally, by_table = recount_json(live_server, group_id)
    assert set(by_table) == {first, second, third, fourth}
    assert recount_csv(live_server, group_id, names) == tally
    stats = requests.get(f"{live_server}/api/groups/{group_id}/stats", timeout=5).json()
    for row in stats["players"]:
        for game, figures in row["by_game"].items():
            mine = tally[(row["player_id"], game)]
            assert (figures["games"], figures["wins"]) == (mine["games"], mine["wins"]), (row["name"], game)
            assert round(figures["average_score"] * figures["games"]) == mine["points"], (row["name"], game)
            assert figures["best_score"] == mine["best"], (row["name"], game)
        games = sum(c["games"] for (player_id, _), c in tally.items() if player_id == row["player_id"])
        wins = sum(c["wins"] for (player_id, _), c in tally.items() if player_id == row["player_id"])
        assert (row["games"], row["wins"]) == (games, wins), row["name"]

    # The same on the host's screen, reached by taps: Another game → History → Statistics.
    tap(host, "next-game", "host")
    tap(host, "group-tab-history", "host")
    for table_id, seats in by_table.items():
        for seat, (won, score) in seats.items():
            item = host.get_by_test_id(f"history-{table_id}-seat-{seat}")
            expect(item).to_contain_text(f"{names[ids[seat]]} · {score}")
            assert item.evaluate("e => e.classList.contains('winner')") == won, (table_id, seat)
    tap(host, "group-tab-stats", "host")
    for player_id in ids:
        games = sum(c["games"] for (who, _), c in tally.items() if who == player_id)
        wins = sum(c["wins"] for (who, _), c in tally.items() if who == player_id)
        cells = host.get_by_test_id(f"stats-{player_id}").locator("td")
        expect(cells.nth(0)).to_have_text(str(games))
        expect(cells.nth(1)).to_have_text(str(wins))

    # The wins chart's data table (what the bars draw) says the same.
    wins_table = host.get_by_test_id("chart-wins-table")
    for player_id in ids:
        wins = sum(c["wins"] for (who, _), c in tally.items() if who == player_id)
        row = wins_table.locator("tbody tr").filter(has=host.locator("th", has_text=names[player_id]))
        expect(row.locator("td").first).to_have_text(str(wins))

    # Player pages: games, wins, best, streaks and records equal the recount, in the order the
    # tables joined the group (first, rematch, Mhing, Magellan).
    order = [first, second, third, fourth]
    for seat, player_id in enumerate(ids):
        page = requests.get(f"{live_server}/api/groups/{group_id}/players/{player_id}", timeout=5).json()
        mine = {game: c for (who, game), c in tally.items() if who == player_id}
        assert (page["games"], page["wins"]) == (
            sum(c["games"] for c in mine.values()),
            sum(c["wins"] for c in mine.values()),
        ), names[player_id]
        for game, figures in page["by_game"].items():
            assert (figures["games"], figures["wins"], figures["best_score"]) == (
                mine[game]["games"],
                mine[game]["wins"],
                mine[game]["best"],
            ), (names[player_id], game)
        won = [by_table[table_id][seat][0] for table_id in order]
        longest = run = 0
        for w in won:
            run = run + 1 if w else 0
            longest = max(longest, run)
        streaks = page["streaks"]
        assert (streaks["current"], streaks["longest"]) == (run, longest), names[player_id]
        records = {r["game"]: r["value"] for r in page["records"]}
        for game in ("mahe", "magellan"):  # most eggs (MA-10), highest score (MG-10): the best game
            # (a record is something to hold: none while the best is 0)
            assert records.get(game, 0) == mine[game]["best"], (names[player_id], game)

    # One of them on the phone: a tap on the name opens the page with the same figures.
    player_id = ids[0]
    tap(host, f"stats-player-{player_id}", "host")
    expect(host.get_by_test_id("player-title")).to_contain_text(names[player_id])
    summary = host.get_by_test_id("player-summary").locator("dd")
    hers = [c for (who, _), c in tally.items() if who == player_id]
    expect(summary.nth(0)).to_have_text(str(sum(c["games"] for c in hers)))
    expect(summary.nth(1)).to_have_text(str(sum(c["wins"] for c in hers)))
    assert opened_at_the_joins == OPENED
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
