"""The phones the browser tests share (tests/browser/phones.py): a phone handed to the next test
still has the app installed and nothing the last test stored; one a test changed for good is never
handed on. If the wipe missed something, every later test would start with another test's tables."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import PHONE
from .phones import PhonePool

STORE = """async () => {
  localStorage.setItem("left-behind", "1");
  await new Promise((done) => {
    const request = indexedDB.open("left-behind");
    request.onsuccess = () => { request.result.close(); done(); };
  });
  await (await caches.open("kibitz-api")).put("/api/left-behind", new Response("{}"));
}"""

LOOK = """async () => ({
  stored: localStorage.getItem("left-behind"),
  databases: (await indexedDB.databases()).map((db) => db.name),
  remembered: (await (await caches.open("kibitz-api")).keys()).map((r) => new URL(r.url).pathname),
  installed: (await (await caches.open("kibitz-precache")).keys()).length,
  controlled: navigator.serviceWorker.controller !== null,
})"""


def test_a_phone_handed_on_keeps_the_app_and_nothing_stored(live_server: str, browser: Any) -> None:
    pool = PhonePool(browser, lambda context: None)
    try:
        phone = pool.take(PHONE, fresh=False)
        page = phone.context.new_page()
        page.goto(live_server + "/")
        expect(page.get_by_test_id("offline-ready-mark")).to_be_visible(timeout=60_000)
        page.evaluate(STORE)
        page.context.set_offline(True)
        pool.give_back(phone)

        again = pool.take(PHONE, fresh=False)
        assert again is phone  # the same browser context, handed on
        page = again.context.new_page()
        page.goto(live_server + "/")  # online again: the offline mode was taken back
        expect(page.get_by_test_id("new-table-mahe")).to_be_visible()
        seen = page.evaluate(LOOK)
        assert seen["stored"] is None
        assert "left-behind" not in seen["databases"]
        assert "/api/left-behind" not in seen["remembered"]  # the remembered API answers are gone
        assert seen["installed"] > 0 and seen["controlled"]  # the app is still installed
        assert pool.take(PHONE, fresh=True) is not again  # a first visit is a new context
    finally:
        pool.close()


def test_a_phone_changed_for_good_is_not_handed_on(live_server: str, browser: Any) -> None:
    pool = PhonePool(browser, lambda context: None)
    try:
        phone = pool.take(PHONE, fresh=False)
        phone.context.add_init_script("window.changed = true")
        page = phone.context.new_page()
        page.goto(live_server + "/")
        pool.give_back(phone)
        assert pool.take(PHONE, fresh=False) is not phone
    finally:
        pool.close()
