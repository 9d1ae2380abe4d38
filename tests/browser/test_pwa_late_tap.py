"""A late duplicate tap (issue 33, item 8): two phones typing the same roll. B's tap lands a moment
(80–150 ms) after A's entry has redrawn B's screen — faster than a person can react to the new
screen. It is never applied silently to the new state: B is asked, in words, whether it is another
entry ("Just recorded on another phone: Die: 3 … record mine too?"). A tap after that moment
(0.7 s, LATE_TAP_MS in pwa/js/views/table.js) is an ordinary tap."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .helpers import tap
from .test_pwa_offline import open_local, server_events
from .test_pwa_two_phones import agree, mahe_at_ann_rolls

# Installed on B before A taps: the first redraw of B's table body arms a click `delay` ms later.
TAP_AFTER_REDRAW = """
(delay) => {
  window.__lateTapDone = false;
  const body = document.querySelector('.table-body');
  const seen = new MutationObserver(() => {
    seen.disconnect();
    setTimeout(() => {
      document.querySelector('[data-testid="die-3"]').click();
      window.__lateTapDone = true;
    }, delay);
  });
  seen.observe(body, { childList: true, subtree: true, characterData: true, attributes: true });
}
"""


def tap_after_redraw(first: Any, second: Any, delay_ms: int) -> None:
    second.evaluate(TAP_AFTER_REDRAW, delay_ms)
    tap(first, "die-3")
    for _ in range(200):
        if second.evaluate("window.__lateTapDone"):
            return
        second.wait_for_timeout(50)
    raise AssertionError("B's screen was never redrawn by A's entry")


def dice(base: str, table_id: str) -> list[dict[str, Any]]:
    return [e for e in server_events(base, table_id) if e["type"] == "die"]


def test_a_tap_just_after_another_phones_entry_redrew_the_screen_is_asked(
    live_server: str, new_phone: Any
) -> None:
    """B taps die 3 100 ms after A's die 3 redrew B's screen: a sheet names A's entry, nothing is
    stored from B until B answers; "the same thing" keeps one die on both phones."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    tap_after_redraw(first, second, 100)
    sheet = second.get_by_test_id("late-tap-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_test_id("late-tap-theirs")).to_contain_text("another phone")
    expect(sheet.get_by_test_id("late-tap-theirs")).to_contain_text("3")
    expect(sheet.get_by_test_id("preview-text")).to_be_visible()
    assert dice(live_server, table.id) == [{"type": "die", "value": 3}]
    expect(second.get_by_test_id("undo-toast")).to_have_count(0)  # no "Dice 3 + 3"
    sheet.get_by_test_id("cancel").tap()
    events = agree(live_server, table.id, first, second)
    assert [e for e in events if e["type"] == "die"] == [{"type": "die", "value": 3}]


def test_the_player_may_say_it_is_another_die(live_server: str, new_phone: Any) -> None:
    """The same sheet, answered "record mine too": then, and only then, a second die is stored."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    tap_after_redraw(first, second, 150)
    sheet = second.get_by_test_id("late-tap-sheet")
    expect(sheet.get_by_test_id("confirm")).to_be_enabled()
    sheet.get_by_test_id("confirm").tap()
    expect(sheet).to_have_count(0)
    events = agree(live_server, table.id, first, second)
    assert [e for e in events if e["type"] == "die"] == [
        {"type": "die", "value": 3},
        {"type": "die", "value": 3},
    ]


def test_a_tap_after_the_moment_is_an_ordinary_tap(live_server: str, new_phone: Any) -> None:
    """Once the new screen has been up longer than the moment (0.7 s), a tap records at once."""
    table = mahe_at_ann_rolls(live_server)
    first, second = new_phone(), new_phone()
    for page in (first, second):
        open_local(page, table.link)
    tap_after_redraw(first, second, 900)
    expect(second.get_by_test_id("undo-toast")).to_be_visible()
    expect(second.get_by_test_id("late-tap-sheet")).to_have_count(0)
    events = agree(live_server, table.id, first, second)
    assert len([e for e in events if e["type"] == "die"]) == 2
