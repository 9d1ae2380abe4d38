"""What the browser tests share: taps and the confirm sheet, the layout rules of a 360×740 phone
(no sideways scrolling, big targets in the lower half), tables made through the API, the export
links of an end screen, and the rules pages' Decisions."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

WIDTH, HEIGHT = 360, 740
PWA = Path(__file__).resolve().parents[2] / "pwa"


# ---------- taps ----------


def tap(page: Any, testid: str) -> None:
    page.get_by_test_id(testid).tap()


def switch_language(page: Any, code: str) -> None:
    """The header's language chooser: every language named in itself."""
    tap(page, "lang-switch")
    tap(page, f"lang-{code}")
    expect(page.locator("html")).to_have_attribute("lang", code)


def confirm(page: Any, expect_text: str | None = None) -> str:
    """After a tap: a one-tap entry is recorded at once (wait for it, read its undo toast); a costly
    one opens the confirm sheet (check its text, tap Confirm, wait until it is recorded)."""
    expect(page.locator(".table-body[aria-busy]")).to_have_count(0)
    either = page.locator("[data-testid=confirm], [data-testid=undo-toast], [data-testid=toast]")
    expect(either.first).to_be_visible()
    late = page.get_by_test_id("late-tap-sheet")
    if late.count():
        # Tapped within a moment of another phone's entry redrawing the screen (issue 33): the test's
        # player saw it and means this entry too.
        expect(late.get_by_test_id("confirm")).to_be_enabled()
        text = str(late.get_by_test_id("sheet-body").inner_text())
        late.get_by_test_id("confirm").tap()
        expect(late).to_have_count(0)
        return text
    if not page.get_by_test_id("sheet").count():
        told = page.locator("[data-testid=undo-toast], [data-testid=toast]").last
        if expect_text is not None:
            expect(told).to_contain_text(expect_text)
        return str(told.inner_text())
    button = page.get_by_test_id("confirm")
    expect(button).to_be_enabled()
    body = page.get_by_test_id("sheet-body")
    if expect_text is not None:
        expect(body).to_contain_text(expect_text)
    text = body.inner_text()
    button.tap()
    expect(page.get_by_test_id("sheet")).to_have_count(0)
    return text


def open_setup(page: Any, base: str, game: str) -> None:
    """From the home screen to the game's setup form."""
    page.goto(base + "/")
    tap(page, f"new-table-{game}")
    expect(page.get_by_test_id("create-table")).to_be_visible()


def stored_token(page: Any, table_id: str) -> str:
    """The write token the phone keeps for a table (localStorage, never the visible URL)."""
    return str(json.loads(page.evaluate("localStorage.getItem('kibitz.tokens')"))[table_id])


# ---------- layout ----------


def assert_no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= WIDTH, f"page is {width}px wide"


def assert_thumb_reachable(page: Any, testid: str, *, min_width: float = 0) -> None:
    """On screen, in the lower half (under the thumb), at least 48 px high (and min_width wide)."""
    button = page.get_by_test_id(testid)
    box = None
    for _ in range(50):  # the screen is drawn again when the phone's referee takes the table over
        expect(button).to_be_visible()
        box = button.bounding_box()
        if box:
            break
        page.wait_for_timeout(100)
    assert box, testid
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (testid, box)
    assert box["y"] >= HEIGHT / 2 and box["y"] + box["height"] <= HEIGHT, (testid, box)
    assert box["height"] >= 48 and box["width"] >= min_width, (testid, box)


# ---------- the end screen ----------


def assert_exports_download(page: Any) -> None:
    """The JSON and CSV export links answer 200 (the BG Stats button is there too)."""
    for testid, suffix in (("export-json", "/export"), ("export-csv", "/export.csv")):
        href = page.get_by_test_id(testid).get_attribute("href")
        assert href and href.endswith(suffix)
        assert page.evaluate("url => fetch(url).then(r => r.status)", href) == 200
    expect(page.get_by_test_id("export-bgstats")).to_be_visible()


# ---------- tables through the API ----------


class ApiTable:
    """A table created and played through the API with its write token."""

    def __init__(
        self,
        base: str,
        game: str,
        players: list[dict[str, Any]],
        options: dict[str, Any],
        *,
        seed: int | None = None,
    ) -> None:
        body: dict[str, Any] = {"game": game, "players": players, "options": options}
        if seed is not None:
            body["seed"] = seed
        answer = requests.post(f"{base}/api/tables", json=body, timeout=5)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        self.base = base
        self.id: str = created["id"]
        self.token: str = created["write_token"]
        self.table: dict[str, Any] = created["table"]
        self.link = f"{base}{created['join_path']}"  # opens the table with write access
        self.seats: list[dict[str, Any]] = created["seats"]  # each player's own link: {seat, token, path}
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {self.token}"

    @property
    def state(self) -> dict[str, Any]:
        return self.table["state"]

    def post(self, event: dict[str, Any]) -> dict[str, Any]:
        """Append with the write token — or, for an event that depends on a player's hidden cards
        (refused with `seat-token-required`), with that player's own seat token."""
        body = {"expected_version": self.table["version"], "event": event}
        url = f"{self.base}/api/tables/{self.id}/events"
        answer = self.session.post(url, json=body, timeout=5)
        if answer.status_code == 403 and answer.json().get("code") == "seat-token-required":
            token = self.seats[answer.json()["seat"]]["token"]
            answer = requests.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=5)
        assert answer.status_code == 201, (event, answer.text)
        self.table = answer.json()["table"]
        return self.table

    def hand_seat_links_to(self, page: Any) -> None:
        """Pass and play: the phone the table was made on holds every player's own link, as the app
        keeps them when it creates a table (it records each player's secret events with them)."""
        page.goto(f"{self.base}/")
        page.evaluate(
            """([id, seats]) => {
              const key = "kibitz.seat_links";
              const all = JSON.parse(localStorage.getItem(key) || "{}");
              all[id] = seats.map(({ seat, token }) => ({ seat, token }));
              localStorage.setItem(key, JSON.stringify(all));
            }""",
            [self.id, self.seats],
        )

    def seat_link(self, seat: int) -> str:
        """The player's own link (their own cards, no writing)."""
        return f"{self.base}{self.seats[seat]['path']}"

    def seat_view(self, seat: int) -> dict[str, Any] | None:
        """What only `seat` may see (GET …/seats/<seat> with the seat's token)."""
        headers = {"Authorization": f"Bearer {self.seats[seat]['token']}"}
        answer = requests.get(f"{self.base}/api/tables/{self.id}/seats/{seat}", headers=headers, timeout=5)
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] | None = answer.json()["view"]
        return view

    def refresh(self) -> dict[str, Any]:
        self.table = requests.get(f"{self.base}/api/tables/{self.id}", timeout=5).json()
        return self.table


# ---------- rules pages ----------


def rules_index() -> dict[str, Any]:
    return dict(json.loads((PWA / "rules/index.json").read_text(encoding="utf-8")))


def listed_decisions(module: str, prefix: str) -> set[str]:
    """The rules with a referee Decision that a game's module lists (`DECISIONS = new Set([...])`)."""
    text = (PWA / module).read_text(encoding="utf-8")
    listed = re.search(r"DECISIONS = new Set\(\[(.*?)\]\)", text)
    assert listed, module
    return set(re.findall(rf'"({prefix}-\d+)"', listed.group(1)))
