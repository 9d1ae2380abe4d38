"""Installed phones kept from test to test (issue 34: one warm Pyodide per run, not one per phone).

A fresh browser context is a phone on its first visit: its service worker downloads and keeps the
app, Pyodide and the rules (~3.2 MB), Chromium compiles Pyodide's WebAssembly from nothing — about
5 s of CPU before the referee answers, against about 2 s for a phone that has the app installed
(measured in docs/architecture.md). Most tests are about a phone at the table, which has had the
app for weeks; so a context a test is done with goes back to a pool, with what the app stored
(tables, names, language, settings: localStorage, IndexedDB, the API answers the service worker
remembered, cookies) wiped, and its service worker, the precache and Chromium's compiled code kept.

A context is never reused after a test changed it in a way that cannot be undone: a script added to
every page, a DevTools session (network emulation), another origin. A test that is about the first
visit asks for `new_phone(fresh=True)`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

DEFAULT_TIMEOUT_MS = 10_000
KEPT_CACHE = "kibitz-precache"  # pwa/sw.js: the app, Pyodide and the rules
MOST_KEPT = 4  # per kind of phone: the most phones one test opens at once

# Everything the app stores on a phone, but the installed app itself.
WIPE = """async (kept) => {
  localStorage.clear();
  sessionStorage.clear();
  for (const db of await indexedDB.databases()) {
    await new Promise((done) => {
      const request = indexedDB.deleteDatabase(db.name);
      request.onsuccess = request.onerror = request.onblocked = done;
    });
  }
  for (const name of await caches.keys()) if (name !== kept) await caches.delete(name);
  return (await indexedDB.databases()).length;
}"""

# Context methods whose effect outlives the test and cannot be taken back.
LASTING = ("add_init_script", "new_cdp_session", "expose_binding", "expose_function", "route_from_har")


class Phone:
    """One browser context as a phone: the options it was made with, the origin it has the app of,
    and whether a test changed it for good."""

    def __init__(self, context: Any, kind: str) -> None:
        self.context = context
        self.kind = kind
        self.origins: set[str] = set()
        self.changed_for_good = False
        for name in LASTING:
            self._watch(name)
        context.on("page", self._follow)

    def _follow(self, page: Any) -> None:
        page.on("framenavigated", lambda frame: self.seen(frame.url) if frame.parent_frame is None else None)

    def _watch(self, name: str) -> None:
        original: Callable[..., Any] = getattr(self.context, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            self.changed_for_good = True
            return original(*args, **kwargs)

        setattr(self.context, name, watched)

    def seen(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in ("http", "https"):
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

    def reset(self) -> bool:
        """Back to an installed phone with nothing stored; False when it cannot be."""
        if self.changed_for_good or len(self.origins) > 1:
            return False
        context = self.context
        for page in list(context.pages):
            page.unroute_all(behavior="ignoreErrors")
            page.close()
        context.unroute_all(behavior="ignoreErrors")
        context.set_offline(False)
        context.clear_cookies()
        context.clear_permissions()
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        for origin in self.origins:
            page = context.new_page()
            # Any file of the app's, under its service worker: nothing of the app runs.
            page.goto(origin + "/manifest.webmanifest")
            left = page.evaluate(WIPE, KEPT_CACHE)
            page.close()
            if left:
                return False
        return True


class PhonePool:
    """Installed phones waiting for their next test, by the options they were made with."""

    def __init__(self, browser: Any, prepare: Callable[[Any], None]) -> None:
        self.browser = browser
        self.prepare = prepare  # what every new context gets before a test sees it
        self.waiting: dict[str, list[Phone]] = {}

    def take(self, options: dict[str, Any], *, fresh: bool) -> Phone:
        kind = json.dumps(options, sort_keys=True)
        waiting = self.waiting.get(kind, [])
        if waiting and not fresh:
            return waiting.pop()
        context = self.browser.new_context(**options)
        self.prepare(context)
        return Phone(context, kind)

    def give_back(self, phone: Phone) -> None:
        waiting = self.waiting.setdefault(phone.kind, [])
        try:
            kept = len(waiting) < MOST_KEPT and phone.reset()
        except Exception:  # noqa: BLE001 - a phone that cannot be wiped is closed, never reused
            kept = False
        if kept:
            waiting.append(phone)
        else:
            phone.context.close()

    def close(self) -> None:
        for phones in self.waiting.values():
            for phone in phones:
                phone.context.close()
        self.waiting.clear()
