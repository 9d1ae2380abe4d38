"""Usable by every player: axe-core (the npm package, pinned, loaded into the page by the test only)
finds no serious or critical violation on any screen — home, each game's setup, table and end
screen, the rules pages — in light and dark colour schemes; every control can be reached by the
thumb (44 px) and has a name; motion stops when the phone asks for reduced motion."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .helpers import ApiTable, tap
from .test_referee_differential import WholeGame, magellan_game, mahe_game, mhing_game

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) =>
      `${n.target.join(" ")} :: ${(n.failureSummary || "").slice(0, 99)}`),
  }));
}"""
# Every control a finger presses, with its box (inline "why?" links inside sentences are exempt,
# as WCAG 2.5.8 exempts targets in a line of text; a checkbox counts with its label, which takes
# the tap too; a link-like button inside a sentence, .mh-inline-link, has its hit area stretched to
# 44 px by CSS around a box the size of the text).
SMALL_TARGETS = """() => [
  ...document.querySelectorAll("button, select, input:not([type=hidden]), [role=button], a.btn"),
]
  .filter((el) => el.offsetParent !== null && !el.closest("[hidden]") && !el.matches(".mh-inline-link"))
  .map((el) => (/^(checkbox|radio)$/.test(el.type) && el.closest("label") ? el.closest("label") : el))
  .map((el) => ({ el, r: el.getBoundingClientRect() }))
  .filter(({ r }) => r.width > 0 && r.height > 0 && (r.height < 44 || r.width < 44))
  .map(({ el, r }) => `${el.dataset.testid || el.tagName}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture
def axe_phone(new_phone: Any) -> Any:
    """A phone whose pages may take the axe script (the app's CSP allows only its own scripts)."""

    def make(**overrides: Any) -> Any:
        # Reduced motion: axe reads colours at rest, never halfway through a fade.
        return new_phone(bypass_csp=True, **{"reduced_motion": "reduce", **overrides})

    return make


def serious_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def problems(page: Any, screen: str) -> list[str]:
    """What axe finds serious or critical on this screen, and the controls under 44 px."""
    scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") and "dark" or "light"
    page.screenshot(path=f"/tmp/kibitz-a11y-{scheme}-{screen.replace(' ', '-')}.png")
    found = [f"{screen}: {v['id']} ({v['help']}): {v['nodes']}" for v in serious_violations(page)]
    small = page.evaluate(SMALL_TARGETS)
    return found + ([f"{screen}: tap targets under 44 px: {small}"] if small else [])


def table_from(base: str, whole: WholeGame, upto: int | None = None) -> ApiTable:
    """A real table with the logged game's first `upto` events (all of them: a finished game)."""
    table = ApiTable(base, whole.game, whole.players, whole.options, seed=whole.seed)
    for event in whole.events[:upto]:
        table.post(event)
    return table


def games() -> dict[str, WholeGame]:
    return {
        "mahe": mahe_game("a11y", 3, "physical", 11),
        "magellan": magellan_game("a11y", 3, "outcomes", "physical", 12),
        "mhing": mhing_game("a11y", 3, 1, 13),
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_passes_axe(live_server: str, axe_phone: Any, scheme: str) -> None:
    page = axe_phone(color_scheme=scheme)
    found: list[str] = []
    check = lambda page, screen: found.extend(problems(page, screen))  # noqa: E731
    page.goto(live_server + "/")
    expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
    check(page, "home")
    for game in ("mahe", "magellan", "mhing"):
        # Within the app (a hash route): one page load, one referee boot, for the whole walk.
        page.goto(live_server + "/#/")
        tap(page, f"new-table-{game}")
        expect(page.get_by_test_id("create-table")).to_be_visible()
        check(page, f"{game} setup")
    for game, whole in games().items():
        middle = table_from(live_server, whole, upto=len(whole.events) // 2)
        page.goto(middle.link)
        expect(page.get_by_test_id("actionbar")).to_be_visible()
        check(page, f"{game} table")
        finished = table_from(live_server, whole)
        assert finished.table["finished"], game
        page.goto(finished.link)
        expect(page.get_by_test_id("result")).to_be_visible()
        check(page, f"{game} end screen")
    for game in ("mahe", "magellan", "mhing"):
        for lang in ("en", "de"):
            page.goto(f"{live_server}/rules/{game}.{lang}.html")
            check(page, f"rules {game}.{lang}")
    assert not found, "\n".join(found)


def test_reduced_motion_stops_transitions(live_server: str, axe_phone: Any) -> None:
    page = axe_phone(reduced_motion="reduce")
    page.goto(live_server + "/")
    expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
    moving = page.evaluate(
        """() => [...document.querySelectorAll("*")].filter((el) => {
          const s = getComputedStyle(el);
          return parseFloat(s.transitionDuration) > 0 || parseFloat(s.animationDuration) > 0;
        }).length"""
    )
    assert moving == 0


# ---------- the keyboard alone ----------


def press(page: Any, testid: str, max_tabs: int = 250) -> None:
    """Tab to the control (as a keyboard player does, never a click) and press Enter on it."""
    for _ in range(max_tabs):
        if page.evaluate("document.activeElement?.dataset?.testid") == testid:
            page.keyboard.press("Enter")
            expect(page.locator(".table-body[aria-busy]")).to_have_count(0)
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{testid} cannot be reached with Tab")


def logged(base: str, table_id: str) -> list[dict[str, Any]]:
    answer = requests.get(f"{base}/api/tables/{table_id}/events", timeout=5).json()
    return [entry["event"] for entry in answer["events"]]


def test_a_mahe_move_by_keyboard(live_server: str, axe_phone: Any) -> None:
    """MA-7 card, MA-3 first die and a stop, each reached with Tab and pressed with Enter."""
    players = [{"name": "Ann", "colours": ["red", "green"]}, {"name": "Bob", "colours": ["yellow", "purple"]}]
    table = ApiTable(live_server, "mahe", players, {"chance": "physical"})
    page = axe_phone(has_touch=False, is_mobile=False)
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    press(page, "card-4")
    press(page, "choose-turtle-red")
    press(page, "die-5")
    press(page, "stop")
    last = page.get_by_test_id("last-move")
    expect(last).to_contain_text("Red moves from the raft to field 5", timeout=10_000)
    wait = time.monotonic() + 15
    while len(logged(live_server, table.id)) < 4 and time.monotonic() < wait:
        time.sleep(0.2)
    kinds = [e["type"] for e in logged(live_server, table.id)]
    assert kinds == ["reveal_card", "choose_turtle", "die", "stop"]


def test_a_mhing_hand_by_keyboard(live_server: str, axe_phone: Any) -> None:
    """MH-5: a whole winning hand picked card by card with the keyboard, scored and recorded."""
    table = ApiTable(live_server, "mhing", [{"name": n} for n in ("Eva", "Tom", "Ann")], {"settlement": 1})
    page = axe_phone(has_touch=False, is_mobile=False)
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    press(page, "went-out")
    press(page, "winner-0")
    press(page, "from-stack")
    press(page, "tab-b")
    for value in range(1, 10):
        press(page, f"pick-b{value}")
    press(page, "tab-c")
    for card in ("c1", "c2", "c3", "c5", "c5"):
        press(page, f"pick-{card}")
    expect(page.get_by_test_id("card-count")).to_have_attribute("data-count", "14")
    found = problems(page, "mhing hand entry")  # the picker and the live breakdown
    # The breakdown while the referee re-checks (a moment after each pick) keeps its contrast too.
    page.evaluate("document.querySelector('.mh-live').classList.add('is-stale')")
    found += problems(page, "mhing hand entry, re-checking")
    page.evaluate("document.querySelector('.mh-live').classList.remove('is-stale')")
    assert not found, "\n".join(found)
    press(page, "record-hand")
    expect(page.get_by_test_id("sheet")).to_be_visible()
    found = problems(page, "mhing confirm sheet")
    assert not found, "\n".join(found)
    press(page, "confirm")
    expect(page.get_by_test_id("history-round-1")).to_be_visible(timeout=15_000)
    wait = time.monotonic() + 15
    while not logged(live_server, table.id) and time.monotonic() < wait:
        time.sleep(0.2)
    hand = logged(live_server, table.id)[0]
    assert hand["type"] == "round_won" and hand["winner"] == 0, hand
    assert hand["hand"]["hidden"] == "b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 c5 c5"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_move_log_passes_axe(live_server: str, axe_phone: Any, scheme: str) -> None:
    """The log view (issue 26): the entries as a list, named step buttons and slider, in a dialog."""
    page = axe_phone(color_scheme=scheme)
    found: list[str] = []
    for game in ("mahe", "magellan", "mhing"):
        whole = games()[game]
        table = table_from(live_server, whole, upto=min(8, len(whole.events) // 2))
        table.post({"type": "undo"})  # an undo entry and the entry it took back are shown too
        page.goto(table.link)
        expect(page.get_by_test_id("sync-badge")).to_have_attribute("data-referee", "local", timeout=30_000)
        tap(page, "open-log")
        view = page.get_by_test_id("log-view")
        expect(view.get_by_test_id("log-list")).to_be_visible(timeout=30_000)
        expect(view.get_by_role("list", name="Entries")).to_have_count(1)
        expect(view.get_by_role("button", name="Previous entry")).to_be_visible()
        expect(view.get_by_role("slider", name="Replay step")).to_be_visible()
        expect(view.get_by_test_id("log-undone-by")).to_have_count(1)
        tap(page, "replay-prev")
        found.extend(problems(page, f"{game} log"))
        tap(page, "log-close")
    assert not found, "\n".join(found)
