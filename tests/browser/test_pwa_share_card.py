"""The result to send (issue 26 item 8): at the end of every game a share card — a PNG drawn on a
canvas (game, table name, date, winner, every player's score) and the same as text — goes to the
phone's share sheet (navigator.share with the file when navigator.canShare({files}) says yes);
otherwise the PNG is downloaded and a sheet offers the text to copy. In the table's language.

Headless Chromium has no share sheet: the page gets a stub that keeps what it was given.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import ApiTable, switch_language, tap
from .test_pwa_magellan import EXPLORERS, SIDES, Table, fast_forward, sheet_data
from .test_pwa_mahe import _finished_table as finished_mahe

PNG_SIGNATURE = bytes([137, 80, 78, 71, 13, 10, 26, 10])
# Between a blank picture and a photo: a drawn card of a few players.
MIN_BYTES, MAX_BYTES = 8_000, 2_000_000

# navigator.share / canShare as a phone with a share sheet has them; `__canShare` decides.
SHARE_STUB = """
window.__shared = null;
window.__canShare = %s;
Object.defineProperty(Navigator.prototype, "canShare", {
  configurable: true,
  value(data) { return window.__canShare && !!data && Array.isArray(data.files); },
});
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  async value(data) {
    const file = data.files && data.files[0];
    const head = file ? Array.from(new Uint8Array(await file.slice(0, 24).arrayBuffer())) : null;
    window.__shared = { title: data.title, text: data.text, files: (data.files || []).length,
      name: file && file.name, type: file && file.type, size: file && file.size, head };
  },
});
"""


def finished_mhing(base: str) -> tuple[str, dict[str, Any]]:
    table = ApiTable(base, "mhing", [{"name": n} for n in ("Eva", "Tom", "Ann")], {"first_seat": 0})
    table.post({"type": "round_points", "winner": 0, "points": 256, "discarder": 1})
    table.post({"type": "end_game"})
    assert table.table["finished"]
    return table.link, table.table


def finished_magellan(base: str) -> tuple[str, dict[str, Any]]:
    options = {"sides": SIDES, "depth": "outcomes", "chance": "physical", "board_sheet": sheet_data(SIDES)}
    table = Table(base, options=options)
    fast_forward(table, EXPLORERS)
    for seat, cards in enumerate([[1, 5], [], [9, 9, 2]]):
        table.post({"type": "final_hand", "seat": seat, "cards": cards})
    while not table.table["finished"]:
        table.post({"type": "pizarro_stop"})  # MG-11: nobody draws
    return table.link, table.table


FINISHED = {"mahe": finished_mahe, "magellan": finished_magellan, "mhing": finished_mhing}
TITLES = {"mahe": "Mahé", "magellan": "Magellan", "mhing": "Mhing"}


def winner_names(table: dict[str, Any]) -> list[str]:
    result = table["result"]
    return [r["name"] for r in result["ranking"] if r["seat"] in result["winners"]]


def phone_with_share(new_phone: Any, *, can_share_files: bool) -> Any:
    page = new_phone()
    page.context.add_init_script(SHARE_STUB % ("true" if can_share_files else "false"))
    return page


def png_size(head: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (bytes 16–24)."""
    assert head[:8] == PNG_SIGNATURE, head[:8]
    assert head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize("game", ["mahe", "magellan", "mhing"])
def test_the_result_goes_to_the_share_sheet_as_a_picture(live_server: str, new_phone: Any, game: str) -> None:
    link, table = FINISHED[game](live_server)
    winners = winner_names(table)
    page = phone_with_share(new_phone, can_share_files=True)
    page.goto(link)
    expect(page.get_by_test_id("result")).to_be_visible()
    tap(page, "share-result")
    page.wait_for_function("window.__shared !== null")
    shared = page.evaluate("window.__shared")
    assert shared["files"] == 1 and shared["type"] == "image/png"
    assert shared["name"].startswith("kibitz-") and shared["name"].endswith(".png")
    assert MIN_BYTES < shared["size"] < MAX_BYTES, shared["size"]
    width, height = png_size(bytes(shared["head"]))
    assert width == 1080 and 700 < height < 2000, (width, height)
    assert shared["title"] == f"{TITLES[game]}: the result"
    text = shared["text"]
    for name in winners:
        assert name in text
    assert (f"{winners[0]} wins!" if len(winners) == 1 else "Shared win") in text
    for row in table["result"]["ranking"]:  # every player, with the place
        assert f"{row['place']}. {row['name']}: " in text
    assert "Played on " in text and text.rstrip().endswith("Scored with Kibitz")
    # The table's name (players and start) is on the card too, without the game twice.
    table_name = page.get_by_test_id("table-name").inner_text()
    assert table_name.startswith(f"{TITLES[game]} · ")
    assert text.splitlines()[1] == table_name.removeprefix(f"{TITLES[game]} · ")
    expect(page.get_by_test_id("share-card-sheet")).to_have_count(0)  # the system sheet did it all


def test_without_file_sharing_the_picture_is_downloaded_in_german(live_server: str, new_phone: Any) -> None:
    link, table = finished_mhing(live_server)
    winners = winner_names(table)
    page = phone_with_share(new_phone, can_share_files=False)
    page.goto(link)
    switch_language(page, "de")
    expect(page.get_by_test_id("share-result")).to_have_text("Ergebnis teilen")
    with page.expect_download() as info:
        tap(page, "share-result")
    download = info.value
    name = download.suggested_filename
    assert name.startswith("kibitz-mhing-") and name.endswith(".png")
    data = Path(download.path()).read_bytes()
    Path("/tmp/kibitz-share-card-de.png").write_bytes(data)
    assert MIN_BYTES < len(data) < MAX_BYTES, len(data)
    assert png_size(data[:24])[0] == 1080
    assert page.evaluate("window.__shared") is None  # no file went to a share sheet
    sheet = page.get_by_test_id("share-card-sheet")
    expect(sheet).to_be_visible()
    page.screenshot(path="/tmp/kibitz-share-card-sheet-360x740.png")
    text = sheet.get_by_test_id("share-card-text").input_value()
    assert f"{winners[0]} gewinnt!" in text
    assert "Mhing: das Ergebnis" in text and "Gespielt am " in text and "Gezählt mit Kibitz" in text
    alt = sheet.get_by_test_id("share-card-image").get_attribute("alt") or ""
    assert winners[0] in alt
    src = sheet.get_by_test_id("share-card-image").get_attribute("src") or ""
    assert src.startswith("data:image/png;base64,")
    expect(sheet.get_by_test_id("share-card-download")).to_have_text("Bild speichern")
    # The text can be shared on its own (the share sheet takes text) or copied.
    expect(sheet.get_by_test_id("share-card-share-text")).to_be_visible()
    tap(page, "share-card-share-text")
    page.wait_for_function("window.__shared !== null")
    shared = page.evaluate("window.__shared")
    assert shared["files"] == 0 and f"{winners[0]} gewinnt!" in shared["text"]
