"""Joining by QR (issue 26): the share sheet shows the table's link and its read link as QR codes;
a second phone joins by decoding the code's image (jsQR, an npm dev dependency, in a page of its
own — never the app's code) and records on the table; the read code opens it without writing.
The codes are drawn offline too (the library is precached)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from .helpers import ApiTable, tap

JSQR = Path(__file__).resolve().parents[2] / "node_modules" / "jsqr" / "dist" / "jsQR.js"
DECODE = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height);
  const found = jsQR(pixels.data, image.width, image.height);
  return found ? found.data : null;
}"""


def decode(browser_page: Any, png: bytes) -> str:
    """What a camera would read off the code: jsQR on the screenshot's pixels."""
    browser_page.add_script_tag(path=str(JSQR))
    text = browser_page.evaluate(DECODE, base64.b64encode(png).decode("ascii"))
    assert text, "no QR code found in the image"
    return str(text)


def test_a_second_phone_joins_by_the_qr_code(live_server: str, new_phone: Any) -> None:
    players = [
        {"name": n, "colours": [c]}
        for n, c in (("Eva", "red"), ("Tom", "green"), ("Ann", "yellow"), ("Ben", "black"))
    ]
    table = ApiTable(live_server, "mahe", players, {"chance": "physical"})
    first = new_phone()
    first.goto(table.link)
    expect(first.get_by_test_id("sync-badge")).to_be_visible()
    tap(first, "share")
    join = first.get_by_test_id("qr-join")
    expect(join).to_have_attribute("data-drawn", "true")
    # Issue 33: one code on screen at a time, so a camera cannot take the watch-only one by mistake.
    expect(first.get_by_test_id("qr-view")).to_be_hidden()
    first.screenshot(path="/tmp/kibitz-qr-share-360x740.png")

    scanner = new_phone()
    scanner.goto("about:blank")
    joined = decode(scanner, join.screenshot())
    assert joined == first.get_by_test_id("share-link").input_value()
    assert f"/#/t/{table.id}?k=" in joined
    tap(first, "qr-show-view")
    expect(join).to_be_hidden()
    expect(first.get_by_test_id("qr-view")).to_have_attribute("data-drawn", "true")
    watch = decode(scanner, first.get_by_test_id("qr-view").screenshot())
    assert watch.endswith(f"/#/t/{table.id}")

    second = new_phone()
    second.goto(joined)
    tap(second, "card-3")  # the face-up egg card (MA-2), recorded from the phone that scanned
    expect(second.get_by_test_id("face-up")).to_contain_text("3")
    assert requests.get(f"{live_server}/api/tables/{table.id}", timeout=5).json()["state"]["face_up"] == 3

    viewer = new_phone()
    viewer.goto(watch)
    expect(viewer.get_by_test_id("face-up")).to_contain_text("3")
    expect(viewer.get_by_test_id("card-4")).to_have_count(0)  # the read link records nothing


def test_the_group_share_page_shows_one_code_at_a_time(live_server: str, new_phone: Any) -> None:
    """Issue 33: the group's share page showed the members' code and the read-only code together, so
    a camera could take the read-only one. Now one at a time: the owner sees the members' code first,
    a switch shows the read-only one; each decodes to its own link. A phone that opened the group by
    its read link has no members' code to show at all."""
    created = requests.post(
        f"{live_server}/api/groups",
        json={"name": "Club", "players": [{"name": n} for n in ("Ann", "Ben", "Cid")]},
        timeout=5,
    ).json()
    group_id, token = created["group"]["id"], created["edit_token"]
    owner = new_phone()
    owner.goto(f"{live_server}/#/g/{group_id}?k={token}")
    expect(owner.get_by_test_id("group-title")).to_have_text("Club")
    tap(owner, "group-tab-share")
    join = owner.get_by_test_id("group-qr-join")
    expect(join).to_have_attribute("data-drawn", "true")
    expect(owner.get_by_test_id("group-qr-view")).to_be_hidden()
    expect(owner.get_by_test_id("group-qr-show-join")).to_have_attribute("aria-pressed", "true")
    expect(owner.get_by_test_id("group-qr-caption")).to_have_text("Scan to join the group")

    scanner = new_phone()
    scanner.goto("about:blank")
    members = decode(scanner, join.screenshot())
    assert members == owner.get_by_test_id("share-join").input_value()
    assert members.endswith(f"/#/g/{group_id}?k={token}")
    tap(owner, "group-qr-show-view")
    expect(join).to_be_hidden()
    view = owner.get_by_test_id("group-qr-view")
    expect(view).to_have_attribute("data-drawn", "true")
    expect(owner.get_by_test_id("group-qr-caption")).to_have_text("Scan to look only")
    read = decode(scanner, view.screenshot())
    assert read == owner.get_by_test_id("share-read").input_value()
    assert read.endswith(f"/#/g/{group_id}")

    reader = new_phone()
    reader.goto(read)
    expect(reader.get_by_test_id("group-title")).to_have_text("Club")
    tap(reader, "group-tab-share")
    expect(reader.get_by_test_id("group-qr-join")).to_have_attribute("data-drawn", "true")
    expect(reader.get_by_test_id("group-qr-show-view")).to_have_count(0)
    expect(reader.get_by_test_id("share-join")).to_have_count(0)
    assert decode(scanner, reader.get_by_test_id("group-qr-join").screenshot()) == read
