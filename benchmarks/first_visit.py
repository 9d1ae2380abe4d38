"""`make first-visit`: the bytes a phone downloads, as Chromium's own network events count them.

A phone (Debian's Chromium, 360×740, a persistent profile with its HTTP cache on disk, like a real
phone) opens the app on a real gunicorn:

(a) first visit: from navigation until the app works offline (the service worker is active with
    everything precached) and the referee has booted;
(b) repeat visit: the same phone opens the app again;
(c) a release that changes one JS module (the largest, js/…, one comment line appended): the server
    is restarted on a build of the changed sources, the phone opens the app, and the new service
    worker installs and takes over.

Bytes are `encodedDataLength` of `Network.loadingFinished` (bytes received for a request: headers
and body as sent, compressed when it was) summed over the page, the referee's worker and the service
worker — each attached over CDP before it runs (`Target.setAutoAttach`, paused until its Network
domain is on), so the service worker's precache fetches are counted. Goals: (a) ≤ 3.5 MB,
(c) ≤ 100 KB.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shutil
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from api.db.migrate import upgrade
from api.phone import static_build
from benchmarks import first_screen
from benchmarks.front import front
from devtools.gunicorn import GunicornProcess, free_port
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

TIMEOUT_MS = 180_000
QUIET_SECONDS = 3  # no request finished for this long: the phone is done
FIRST_VISIT_GOAL = 3_500_000
RELEASE_GOAL = 100_000
FIRST_SCREEN_GOAL = 1.5  # seconds, Fast 3G, first visit

READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const client = await import('/js/referee/client.js');
  const refereed = await client.startReferee();
  const kept = (await (await caches.open('kibitz-precache')).keys()).length;
  return { refereed, kept, active: registration.active.scriptURL };
}"""
TAKEN_OVER = """async (changed) => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration || !registration.active || registration.installing || registration.waiting) return false;
  return (await (await caches.open('kibitz-precache')).match(changed)) !== undefined;
}"""


@dataclass
class Wire:
    """Bytes received per request, over every target the page brings (page, workers)."""

    received: dict[str, int] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    last: float = field(default_factory=time.monotonic)

    def total(self) -> int:
        return sum(self.received.values())

    def by_kind(self) -> dict[str, int]:
        kinds: dict[str, int] = defaultdict(int)
        for request, size in self.received.items():
            url = self.urls.get(request, "")
            kind = (
                "service worker"
                if url.startswith("/sw.js")
                else "Pyodide"
                if "/vendor/pyodide" in url
                else "standard library"
                if "/referee/stdlib" in url
                else "rules"
                if "/referee/rules" in url
                else "messages"
                if "/referee/messages" in url
                else "API"
                if "/api/" in url
                else "app shell"
            )
            kinds[kind] += size
        return dict(kinds)

    def on(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params", {})
        if method == "Network.requestWillBeSent":
            self.urls[params["requestId"]] = params["request"]["url"]
        elif method == "Network.loadingFinished":
            request = params["requestId"]
            self.received[request] = max(self.received.get(request, 0), int(params["encodedDataLength"]))
            self.last = time.monotonic()


def watch(context: Any, page: Any, wire: Wire) -> None:
    """Counts the page's requests and those of every worker it starts (attached before they run)."""
    cdp = context.new_cdp_session(page)
    ids = itertools.count(1)

    def to_child(session: str, method: str, params: dict[str, Any] | None = None) -> None:
        message = json.dumps({"id": next(ids), "method": method, "params": params or {}})
        cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})

    def attached(params: dict[str, Any]) -> None:
        session = params["sessionId"]
        to_child(session, "Network.enable")
        to_child(
            session,
            "Target.setAutoAttach",
            {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
        )
        to_child(session, "Runtime.runIfWaitingForDebugger")

    def from_child(params: dict[str, Any]) -> None:
        message = json.loads(params["message"])
        if message.get("method") == "Target.attachedToTarget":
            attached_inner(params["sessionId"], message["params"])
        elif message.get("method") == "Target.receivedMessageFromTarget":
            from_child(message["params"])  # a worker's worker, wrapped once more
        else:
            wire.on(message)

    def attached_inner(parent: str, params: dict[str, Any]) -> None:
        # A grandchild: messages go through its parent's session.
        for method in ("Network.enable", "Runtime.runIfWaitingForDebugger"):
            inner = json.dumps({"id": next(ids), "method": method, "params": {}})
            to_child(
                parent, "Target.sendMessageToTarget", {"sessionId": params["sessionId"], "message": inner}
            )

    cdp.on(
        "Network.requestWillBeSent",
        lambda params: wire.on({"method": "Network.requestWillBeSent", "params": params}),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda params: wire.on({"method": "Network.loadingFinished", "params": params}),
    )
    cdp.on("Target.attachedToTarget", attached)
    cdp.on("Target.receivedMessageFromTarget", from_child)
    cdp.send("Network.enable")
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


def served_size(url: str) -> int:
    """A file as sent (brotli body and headers), asked for the way a browser does."""
    answer = requests.get(url, headers={"Accept-Encoding": "br, gzip"}, stream=True, timeout=10)
    body = len(answer.raw.read(decode_content=False))
    return body + sum(len(name) + len(value) + 4 for name, value in answer.headers.items()) + 17


def service_worker_script(base: str) -> int:
    """sw.js as sent: the browser fetches it itself when it registers or updates the worker,
    outside every target, so no Network event counts it; it is added here."""
    return served_size(base + "/sw.js")


def check_whole(wire: Wire, base: str) -> list[str]:
    """Every file the service worker keeps should be seen requested by some target (a first visit
    downloads each of them, or finds it in the HTTP cache, once). The service worker is attached
    through the page, and its first fetches may start before its Network events are on (a race
    in Chromium's attaching); a file missed so is counted at its size as served, and named."""
    source = requests.get(base + "/sw.js", timeout=10).text
    found = re.search(r"const PRECACHE = (\[.*?\]);\n", source)
    assert found
    kept = {base + hashed for _, hashed in json.loads(found.group(1))}
    missing = sorted(kept - set(wire.urls.values()))
    assert len(missing) < len(kept) / 2, f"no network event for {len(missing)} precached files"
    for url in missing:
        wire.received[f"missed:{url}"] = served_size(url)
        wire.urls[f"missed:{url}"] = url
    return missing


def settle(page: Any, wire: Wire) -> None:
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() - wire.last < QUIET_SECONDS:
        assert time.monotonic() < deadline, "the phone never settled"
        page.wait_for_timeout(250)


def visit(context: Any, base: str, until: str, arg: Any = None) -> tuple[Wire, Any]:
    page = context.new_page()
    wire = Wire()
    watch(context, page, wire)
    page.goto(base + "/")
    page.wait_for_function(until, arg=arg, timeout=TIMEOUT_MS, polling=500)
    answer = page.evaluate(until, arg)
    settle(page, wire)
    page.close()
    return wire, answer


def largest_module() -> str:
    modules = (static_build.PWA_DIR / "js").rglob("*.js")
    return max(modules, key=lambda path: path.stat().st_size).relative_to(static_build.PWA_DIR).as_posix()


def release(folder: Path, module: str) -> tuple[dict[str, str], str]:
    """The sources with one module changed, built beside the current build (nothing recompressed
    but what changed); the server's environment for it and the module's new URL."""
    sources, built = folder / "pwa", folder / "static"
    shutil.copytree(static_build.PWA_DIR, sources)
    shutil.copytree(static_build.STATIC_DIR, built)
    with (sources / module).open("a", encoding="utf-8") as changed:
        changed.write("\n// the next release\n")
    saved = static_build.PWA_DIR
    static_build.PWA_DIR = sources
    try:
        build = static_build.plan()
    finally:
        static_build.PWA_DIR = saved
    static_build.write(build, built)
    return {"KIBITZ_PWA_DIR": str(sources), "KIBITZ_STATIC_DIR": str(built)}, "/" + build.hashed(module)


def measure() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    static_build.ensure_built()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        upgrade(url)
        module = largest_module()
        next_release, changed_url = release(folder / "next", module)
        port = free_port()  # the same origin for both releases: the phone's service worker is per origin
        log = folder / "gunicorn.log"
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(folder / "phone"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, **PHONE
            )
            with GunicornProcess(url, log, port=port) as server:
                first, ready = visit(context, server.base, READY)
                assert ready["refereed"] is True, ready
                missed = check_whole(first, server.base)
                first.received["sw.js"] = service_worker_script(server.base)
                again, _ = visit(context, server.base, READY)
            with GunicornProcess(url, log, port=port, env=next_release) as server:
                changed, _ = visit(context, server.base, TAKEN_OVER, changed_url)
                changed.received["sw.js"] = service_worker_script(server.base)
            context.close()
    for wire in (first, changed):
        wire.urls["sw.js"] = "/sw.js (fetched by the browser itself; its size as served)"
    return {
        "first": first, "again": again, "changed": changed, "module": module, "kept": ready["kept"],
        "missed": missed,
    }  # fmt: skip


def report(m: dict[str, Any]) -> None:
    first, again, changed = m["first"], m["again"], m["changed"]
    met = {True: "met", False: "NOT MET"}
    print("Bytes on the wire — Debian's Chromium, 360×740 phone, persistent profile, loopback gunicorn")
    print(f"(a) first visit, until it works offline ({m['kept']} files precached) and the referee booted:")
    size = first.total()
    if m["missed"]:
        print(f"    ({len(m['missed'])} files the service worker fetched before its events were on: "
              "counted at their size as served)")  # fmt: skip
    print(f"    {size:>12,} bytes (goal ≤ {FIRST_VISIT_GOAL:,}): {met[size <= FIRST_VISIT_GOAL]}")
    for kind, part in sorted(first.by_kind().items(), key=lambda item: -item[1]):
        print(f"      {kind:<18}{part:>12,}")
    print(f"(b) repeat visit: {again.total():,} bytes, {len(again.received)} requests (+ a 304 for sw.js)")
    size = changed.total()
    print(f"(c) a release changing {m['module']}: {size:,} bytes (goal ≤ {RELEASE_GOAL:,}): ", end="")
    print(met[size <= RELEASE_GOAL])
    for request, part in sorted(changed.received.items(), key=lambda item: -item[1])[:8]:
        print(f"      {part:>8,}  {changed.urls.get(request, '?')}")


def timed(proxy: bool, runs: int, offline: bool) -> first_screen.Timings:
    """First usable screens and offline-ready times on emulated networks, on a fresh gunicorn,
    directly or through Caddy (HTTPS, HTTP/2)."""
    from playwright.sync_api import sync_playwright

    static_build.ensure_built()
    networks = [first_screen.FAST_3G, first_screen.FOUR_G] if offline else []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        upgrade(url)
        with (
            GunicornProcess(url, folder / "gunicorn.log") as server,
            front(server, folder / "caddy", proxy) as phone_front,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *phone_front.args],
                env=phone_front.env or None,
            )  # fmt: skip
            try:
                return first_screen.measure(browser, phone_front.base, PHONE, runs, networks)
            finally:
                browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", action="store_true",
                        help="through Caddy (tls internal, HTTP/2) in front of the app server")
    parser.add_argument("--runs", type=int, default=3, help="first visits per screen and network (median)")
    parser.add_argument("--no-bytes", action="store_true", help="times only, not the bytes on the wire")
    parser.add_argument("--no-offline", action="store_true", help="first screens only, not offline-ready")
    args = parser.parse_args(argv)  # fmt: skip
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}")
    if not args.proxy and not args.no_bytes:
        report(measure())
    label = "through Caddy over HTTPS (tls internal)" if args.proxy else "the app server itself, plain HTTP"
    timings = timed(args.proxy, args.runs, not args.no_offline)
    first_screen.report(label, timings, FIRST_SCREEN_GOAL)


if __name__ == "__main__":
    main()
