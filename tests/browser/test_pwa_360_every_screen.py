"""Every text fits (issue 33, items 5 and 7): every screen of the app, in each of the six languages,
on a 360 px phone — home, the setup of each game, each game's table in the middle and at the end,
the share sheet, the log, the group (play, history with a chart, statistics with every chart,
players, sharing) and each game's rules page — checked for three things:

1. no element reaches past the viewport (nothing wider than the phone);
2. no clipped text: no element whose content is wider than its box (scrollWidth > clientWidth),
   except a table that scrolls sideways on purpose *and says so* (its "swipe" hint is showing);
3. no "NaN", "null" or "undefined" anywhere on the screen.

The phone's locale is the language's own (en-GB for English: dates as 28 Nov, not 11/28/26).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .helpers import tap
from .test_a11y import games, table_from
from .test_pwa_groups import played_group  # noqa: F401 - the module's fixture: a group with every chart

LOCALES = {"en": "en-GB", "de": "de-DE", "fr": "fr-FR", "it": "it-IT", "es": "es-ES", "nl": "nl-NL"}

# Runs in the page: what breaks the three rules on the screen as it is now.
CHECK = """
() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = (el) => {
    const id = el.dataset?.testid ? `[${el.dataset.testid}]` : "";
    const names = typeof el.className === "string" ? el.className.trim() : "";
    const cls = names ? `.${names.split(/\\s+/).join(".")}` : "";
    const text = (el.innerText || el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 50);
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  const shown = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    return true;
  };
  // Inside a box that scrolls sideways on purpose (and shows its hint): wider is fine there.
  const inScroller = (el) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node.dataset?.scrolls === "x") return true;
    }
    return false;
  };
  const hinted = (box) => {
    const hint = box.nextElementSibling;
    return !!hint && hint.dataset.testid === "scroll-hint" && !hint.hidden;
  };
  for (const el of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "NOSCRIPT", "OPTION", "BR"].includes(el.tagName)) continue;
    if (el.closest("svg, canvas, .u-legend, noscript")) continue;
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 2 || box.height <= 2) continue; // read by screen readers only
    if (box.right <= 0 || box.bottom <= 0) continue; // parked off screen until focused (a skip link)
    if (!inScroller(el) && (box.right > width + 1 || box.left < -1)) {
      const span = `${Math.round(box.left)}..${Math.round(box.right)} of ${width}`;
      found.push(`wider than the phone (${span}): ${name(el)}`);
    }
    const style = getComputedStyle(el);
    if (style.display === "inline" || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      if (el.dataset.scrolls === "x" && hinted(el)) continue;
      if (el.closest("[data-scrolls=x]") && el.closest("[data-scrolls=x]") !== el) continue;
      if (el.tagName === "BODY" || el.tagName === "HTML") continue;
      found.push(`clipped or overflowing (${el.scrollWidth} > ${el.clientWidth}): ${name(el)}`);
    }
  }
  const text = document.body.innerText;
  for (const word of ["NaN", "null", "undefined"]) {
    const at = text.search(new RegExp(`\\\\b${word}\\\\b`));
    const around = text.slice(Math.max(0, at - 40), at + 20).replace(/\\s+/g, " ");
    if (at >= 0) found.push(`"${word}" on screen: …${around}…`);
  }
  return found;
}
"""


def problems(page: Any, screen: str) -> list[str]:
    page.wait_for_timeout(150)  # fonts and late layout settle
    return [f"{screen}: {p}" for p in page.evaluate(CHECK)]


@pytest.mark.parametrize("language", ["en", "de", "fr", "it", "es", "nl"])
def test_every_screen_fits_at_360_px(
    live_server: str,
    new_phone: Any,
    played_group: dict[str, Any],  # noqa: F811
    language: str,
) -> None:
    page = new_phone(locale=LOCALES[language], reduced_motion="reduce")
    found: list[str] = []

    def check(screen: str) -> None:
        found.extend(problems(page, f"{language} {screen}"))

    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
    check("home")
    for game in ("mahe", "magellan", "mhing"):
        # Within the app (a hash route): one page load, one referee boot, for the whole walk.
        page.goto(live_server + "/#/")
        tap(page, f"new-table-{game}")
        expect(page.get_by_test_id("create-table")).to_be_visible()
        check(f"{game} setup")

    for game, whole in games().items():
        middle = table_from(live_server, whole, upto=len(whole.events) // 2)
        page.goto(middle.link)
        expect(page.get_by_test_id("actionbar")).to_be_visible()
        check(f"{game} table")
        tap(page, "share")
        expect(page.get_by_test_id("share-sheet")).to_be_visible()
        check(f"{game} share sheet")
        page.get_by_test_id("share-sheet").get_by_test_id("close").tap()
        tap(page, "open-log")
        expect(page.get_by_test_id("log-list").locator("li").first).to_be_visible(timeout=30_000)
        check(f"{game} log")
        tap(page, "log-close")
        finished = table_from(live_server, whole)
        page.goto(finished.link)
        expect(page.get_by_test_id("result")).to_be_visible()
        check(f"{game} end screen")

    page.goto(f"{live_server}{played_group['join_path']}")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")
    check("group play")
    tap(page, "group-tab-history")
    expect(page.get_by_test_id("history-list")).to_be_visible()
    tap(page, f"progress-{played_group['first_mahe']}")
    expect(page.get_by_test_id(f"chart-progress-{played_group['first_mahe']}-plot")).to_have_attribute(
        "data-drawn", "true"
    )
    check("group history")
    tap(page, "group-tab-stats")
    for chart in ("chart-wins", "chart-wins-over-time", "chart-magellan-sources"):
        expect(page.get_by_test_id(f"{chart}-plot")).to_have_attribute("data-drawn", "true")
    for details in page.locator("details.chart-data").all():
        details.evaluate("d => { d.open = true; }")
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

    for game in ("mahe", "magellan", "mhing"):
        page.goto(f"{live_server}/rules/{game}.{language}.html")
        check(f"{game} rules")
    assert not found, f"{len(found)} problems:\n" + "\n".join(found)


def test_the_group_figures_read_right_on_an_en_gb_phone(
    live_server: str,
    new_phone: Any,
    played_group: dict[str, Any],  # noqa: F811
) -> None:
    """Issue 33 item 5: dates the phone's way (28 Nov on an en-GB phone, not 11/28/26); Magellan's
    points by source all there ("Ships" too, no NaN) and summing to the game's final scores; the
    history lists each game's players by place, the winner first."""
    page = new_phone(locale="en-GB")
    page.goto(f"{live_server}{played_group['join_path']}")
    expect(page.get_by_test_id("group-title")).to_have_text("Club")
    tap(page, "group-tab-history")
    entries = page.get_by_test_id("history-list").locator("> li[data-status=finished]")
    expect(entries.first).to_be_visible()
    for entry in entries.all():
        first = entry.locator(".history-players > li").first
        expect(first).to_have_attribute("data-place", "1")
        expect(first).to_have_class("winner")
        expect(first).to_contain_text("1. 🏆")
    history = requests.get(f"{live_server}/api/groups/{played_group['id']}/history", timeout=5).json()
    magellan = [e for e in history["entries"] if e["game"] == "magellan" and e["status"] == "finished"]
    total = sum(p["score"] for e in magellan for p in e["players"])

    tap(page, "group-tab-stats")
    dates = page.get_by_test_id("chart-wins-over-time-table").locator("tbody th")
    expect(dates.first).to_be_attached()
    for text in dates.all_text_contents():
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2,3}", text), text
    sources = page.get_by_test_id("chart-magellan-sources-table")
    expect(sources.locator("tbody tr")).to_have_count(4)
    expect(sources).to_contain_text("Ships")
    cells = sources.locator("tbody td").all_text_contents()
    assert "NaN" not in " ".join(cells)
    assert sum(int(c.replace(",", "")) for c in cells) == total
    expect(page.get_by_test_id("chart-magellan-sources-plot")).to_have_attribute("data-drawn", "true")
