"""Issue 31, hole 5, on the phone: names the server's text rule allows at their worst — 40 letters
with no break, 40 characters of which 30 are combining marks (3 on each letter, the most the rule
allows), a 16-character emoji field, an 80-letter group name — never widen a 360 px page nor draw
over the rows around them: on the group's Players, Play (seating), History and Statistics tabs and
on the table screen of a game the group played."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from api.rules.common import text

from .helpers import WIDTH, ApiTable, tap
from .test_pwa_groups import play_mahe_to_the_end

LONG = "W" * 40
# Three marks on each of ten letters, none of which NFC composes away: below, above, above.
MARKED = "".join(f"{c}\u0353\u0352\u0357" for c in "ZALGOZALGO")
EMOJI = "W" * 16
GROUP = "M" * 80
NAMES = [LONG, MARKED, "Ann", "W" * 39 + "\u1e84"]

# Every text node holding a player's or the group's name: its boxes (Range.getClientRects), the
# boxes of every other visible text, and whether the element around it clips what it draws.
MEASURE = """(names) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const own = [], other = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    if (el.closest("select, option, [hidden], .visually-hidden, .sr-only")) continue;
    if (el.closest("details:not([open])") && !el.closest("summary")) continue; // folded away
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    // Only what is on top where it is drawn (a text under the open bottom sheet is not seen).
    const onTop = (r) => {
      const x = Math.min(Math.max((r.left + r.right) / 2, 0), innerWidth - 1);
      const y = (r.top + r.bottom) / 2;
      if (y < 0 || y >= innerHeight) return true;
      const hit = document.elementFromPoint(x, y);
      return !!hit && (el.contains(hit) || hit.contains(el));
    };
    // What is drawn: each box cut to the ancestors that clip it (a one-line name with an ellipsis).
    const cut = (r) => {
      let box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      for (let up = el; up && up !== document.body; up = up.parentElement) {
        const s = getComputedStyle(up);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const c = up.getBoundingClientRect();
        if (s.overflowX !== "visible") {
          box = { ...box, left: Math.max(box.left, c.left), right: Math.min(box.right, c.right) };
        }
        if (s.overflowY !== "visible") {
          box = { ...box, top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom) };
        }
      }
      return box;
    };
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0 && onTop(r))
      .map(cut).filter((r) => r.right > r.left && r.bottom > r.top);
    if (!rects.length) continue;
    const mine = names.some((n) => node.textContent.includes(n));
    let clipped = false;
    for (let up = el, i = 0; up && i < 4 && !clipped; up = up.parentElement, i++) {
      const s = getComputedStyle(up);
      clipped = s.overflowY !== "visible" || s.overflowX !== "visible";
    }
    const tag = el.tagName + "." + (el.closest("[class]")?.className || "");
    (mine ? own : other).push({ text: node.textContent.slice(0, 30), rects, clipped, tag });
  }
  return { own, other, width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    slack = 0.5
    return (
        a["left"] < b["right"] - slack
        and b["left"] < a["right"] - slack
        and a["top"] < b["bottom"] - slack
        and b["top"] < a["bottom"] - slack
    )


def assert_names_keep_their_place(page: Any, where: str, names: list[str]) -> int:
    """No sideways scrolling; every box of a name inside the screen; no name's box over another
    text's; a name with combining marks inside an element that clips them. Returns how many name
    texts were seen (so a screen that shows none fails the caller)."""
    page.wait_for_timeout(150)
    seen = page.evaluate(MEASURE, names)
    import os

    if os.environ.get("SHOT"):
        page.screenshot(path=f"/tmp/textrule-{where}.png", full_page=True)
    assert seen["width"] <= WIDTH, f"{where}: the page is {seen['width']} px wide"
    for item in seen["own"]:
        for rect in item["rects"]:
            assert rect["left"] >= -0.5 and rect["right"] <= WIDTH + 0.5, (where, item["text"], rect)
        for other in seen["other"] + [o for o in seen["own"] if o is not item]:
            for mine in item["rects"]:
                for theirs in other["rects"]:
                    assert not _overlap(mine, theirs), (
                        where,
                        item["text"],
                        item["tag"],
                        other["text"],
                        other["tag"],
                        mine,
                        theirs,
                    )
        if MARKED[:8] in item["text"]:
            assert item["clipped"], (where, item["tag"], "stacked marks are not clipped")
    return len(seen["own"])


def test_the_longest_names_the_rule_allows_keep_their_place(live_server: str, new_phone: Any) -> None:
    for name in (*NAMES, EMOJI, GROUP):
        assert text.free_text(name) == name  # the server takes them as they are
    assert len(MARKED) == 40 and sum(text.is_mark(c) for c in MARKED) == 30
    players = [
        {"name": n, "emoji": EMOJI if i == 0 else "\U0001f469\U0001f3fd\u200d\U0001f4bb"}
        for i, n in enumerate(NAMES)
    ]
    created = requests.post(f"{live_server}/api/groups", json={"name": GROUP, "players": players}, timeout=5)
    assert created.status_code == 201, created.text
    group = created.json()
    ids = [p["id"] for p in group["group"]["players"]]

    table = ApiTable(
        live_server,
        "mahe",
        [
            {"name": n, "colours": [c]}
            for n, c in zip(NAMES, ("red", "yellow", "green", "purple"), strict=True)
        ],
        {"chance": "physical"},
    )
    play_mahe_to_the_end(live_server, table.id, table.token)  # so history and statistics name them
    attached = requests.post(
        f"{live_server}/api/groups/{group['id']}/tables",
        json={"table_id": table.id, "table_token": table.token, "seats": ids},
        headers={"Authorization": f"Bearer {group['edit_token']}"},
        timeout=5,
    )
    assert attached.status_code in (200, 201), attached.text

    page = new_phone()
    page.goto(f"{live_server}{group['join_path']}")
    expect(page.get_by_test_id("group-title")).to_be_visible()
    shown = assert_names_keep_their_place(page, "group title", [GROUP])
    assert shown >= 1
    tap(page, "group-tab-play")
    tap(page, "group-new-mahe")
    expect(page.get_by_test_id("pick-player-0")).to_be_visible()
    for index in range(4):
        tap(page, f"pick-player-{index}")
    assert assert_names_keep_their_place(page, "seating", NAMES) >= 4  # the chips (and the seat list)
    page.go_back()  # the group's game button opens the game's setup now (issue 33), not a sheet
    expect(page.get_by_test_id("group-tab-history")).to_be_visible()
    for tab in ("history", "stats"):
        tap(page, f"group-tab-{tab}")
        page.wait_for_timeout(300)
        assert assert_names_keep_their_place(page, tab, NAMES) >= 1, tab

    reader = new_phone()  # the read link: the Players tab lists the names (no inputs)
    reader.goto(f"{live_server}{group['read_path']}")
    expect(reader.get_by_test_id("group-title")).to_be_visible()
    tap(reader, "group-tab-players")
    expect(reader.get_by_test_id("group-player-list")).to_be_visible()
    assert assert_names_keep_their_place(reader, "players", NAMES) >= 4

    page.goto(table.link)
    expect(page.locator(".table-name")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Ann", exact=True).first).to_be_visible()
    assert assert_names_keep_their_place(page, "table", NAMES) >= 4
