"""Shown to the player (issue 36): while the offline referee arrives on a first visit, a progress bar
in the top bar; once the service worker holds everything, a "ready offline" mark — also on every
later visit — and the table then really plays on with the network cut.

The first visit runs on a throttled network (Chromium's emulation on the page and its workers,
the service worker included), so the precache takes seconds and the bar is seen moving.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from benchmarks.first_screen import Network, Seen, emulate

from .helpers import switch_language, tap
from .test_pwa_offline import LOCAL_TIMEOUT, badge, record

# ~3.2 MB on the wire: a few seconds, so the bar is drawn at several points on the way.
SLOW = Network("test", latency_ms=20, down_bps=8_000_000, up_bps=2_000_000)
LANGUAGES = ("de", "fr", "it", "es", "nl", "en")

WATCH = """(() => {
  window.__progress = [];
  window.__barSeen = false;
  setInterval(() => {
    const bar = document.querySelector('[data-testid="offline-progress"]');
    if (!bar || bar.hidden || bar.closest('[hidden]')) return;
    window.__barSeen = true;
    const now = Number(bar.getAttribute('aria-valuenow'));
    const seen = window.__progress;
    if (seen[seen.length - 1] !== now) seen.push(now);
  }, 20);
})();"""


def mark(page: Any) -> Any:
    return page.get_by_test_id("offline-ready-mark")


def fits(page: Any, testid: str) -> bool:
    """The element shows its whole text (no ellipsis) inside the 360 px top bar."""
    return bool(
        page.evaluate(
            """(id) => {
              const el = document.querySelector(`[data-testid="${id}"]`);
              const bar = document.querySelector('.topbar');
              const box = el.getBoundingClientRect();
              const inner = el.querySelector('.offline-mark-text') || el;
              return inner.scrollWidth <= inner.clientWidth + 1 && box.right <= innerWidth
                && bar.scrollWidth <= bar.clientWidth + 1;
            }""",
            testid,
        )
    )


def test_first_visit_shows_the_referee_arriving_then_ready_and_plays_offline(
    live_server: str, new_phone: Any
) -> None:
    page = new_phone(fresh=True)  # a first visit
    context = page.context
    context.add_init_script(WATCH)
    emulate(context, page, SLOW, Seen())
    page.goto(live_server + "/")
    bar = page.get_by_test_id("offline-progress")
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("role", "progressbar")
    expect(bar).to_have_attribute("aria-label", "Getting the offline referee")
    expect(mark(page)).to_be_visible(timeout=LOCAL_TIMEOUT * 2)
    expect(mark(page)).to_have_text("✓Ready offline")
    expect(mark(page)).to_have_attribute("role", "status")
    expect(bar).to_be_hidden()
    progress = page.evaluate("window.__progress")
    assert progress == sorted(progress), progress  # it only moves forward
    assert any(0 < value < 100 for value in progress), progress  # seen on the way, not only 0 and 100
    assert len(set(progress)) >= 3, progress
    # Everything the mark promises is in the service worker's cache.
    kept = page.evaluate(
        """async () => (await (await caches.open('kibitz-precache')).keys())
             .map((r) => new URL(r.url).pathname)"""
    )
    for part in ("/referee/rules.", "/referee/stdlib.", "/vendor/pyodide.", "/js/games/mahe/index."):
        assert any(path.startswith(part) for path in kept), part

    # A repeat visit: the mark at once, the bar never.
    again = context.new_page()
    page.close()
    again.goto(live_server + "/#/new/mahe")
    expect(again.get_by_test_id("create-table")).to_be_visible()
    expect(mark(again)).to_be_visible()
    assert again.evaluate("window.__barSeen") is False
    # It fits at 360 px beside the brand, the Rules link and the language button, in every language.
    for code in LANGUAGES:
        switch_language(again, code)
        expect(mark(again)).to_be_visible()
        assert fits(again, "offline-ready-mark"), code

    # Ready offline means it: with the network cut, a new table starts and is refereed here.
    context.set_offline(True)
    again.get_by_test_id("player-name-0").fill("Eva")
    again.get_by_test_id("player-name-1").fill("Tom")
    tap(again, "create-table")
    expect(badge(again)).to_have_attribute("data-referee", "local", timeout=LOCAL_TIMEOUT)
    assert again.evaluate("location.hash").split("/t/")[1].startswith("local-")
    record(again, "card-3")
    expect(badge(again)).to_have_text("1 move waiting to sync")
    expect(mark(again)).to_be_visible()


def test_the_bar_fits_at_360_px_in_every_language(live_server: str, new_phone: Any) -> None:
    """The bar's text at its longest (100 %) beside the Rules link, in each language."""
    page = new_phone()
    page.goto(live_server + "/#/new/mahe")
    expect(page.get_by_test_id("create-table")).to_be_visible()
    for code in LANGUAGES:
        switch_language(page, code)
        page.evaluate(
            """() => {
              const host = document.getElementById('offline-ready');
              host.hidden = false;
              host.querySelector('[data-testid="offline-ready-mark"]').hidden = true;
              const bar = host.querySelector('[data-testid="offline-progress"]');
              bar.hidden = false;
              bar.querySelector('.offline-progress-text').textContent =
                bar.querySelector('.offline-progress-text').textContent.replace(/\\d+/, '100');
            }"""
        )
        assert page.evaluate(
            """() => {
              const text = document.querySelector('.offline-progress-text');
              const bar = document.querySelector('.topbar');
              return text.scrollWidth <= text.clientWidth + 1 && bar.scrollWidth <= bar.clientWidth + 1;
            }"""
        ), code
