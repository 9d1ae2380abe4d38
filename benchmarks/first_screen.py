"""Time on an emulated mobile network: to the first usable screen, and until the app works offline.

Chromium's own network emulation (CDP `Network.emulateNetworkConditions`) is set on the page and on
every worker it starts (the service worker that precaches, the referee's worker), each attached
before it runs. A fresh browser context per run is a first visit (empty HTTP cache, no service
worker). Times are the page's own clock (`performance.now()`, from the start of navigation):

- first usable screen: the frame after the screen's main control is in the document (home: the
  game list's "Mahé" button; Mahé's setup page, opened directly: "Create table"), stylesheets
  applied (they block the app's module script);
- offline-ready: `navigator.serviceWorker.ready` (the worker activates only once every precached
  file is kept).

Every response's protocol is collected from `Network.responseReceived`, so a run over the proxy
shows that HTTP/2 was used (`h2`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

TIMEOUT_MS = 300_000


@dataclass(frozen=True)
class Network:
    name: str
    latency_ms: float  # round trip added to every request
    down_bps: int
    up_bps: int

    def conditions(self) -> dict[str, Any]:
        return {
            "offline": False,
            "latency": self.latency_ms,
            "downloadThroughput": self.down_bps / 8,
            "uploadThroughput": self.up_bps / 8,
        }


FAST_3G = Network("Fast 3G", 150, 1_600_000, 750_000)
FOUR_G = Network("4G", 60, 9_000_000, 1_500_000)  # Chromium's "Fast 4G" figures

SCREENS = {
    "home": ("/", '[data-testid="new-table-mahe"]'),
    "Mahé setup": ("/#/new/mahe", '[data-testid="create-table"]'),
}

MARK = """(() => {
  const wanted = %s;
  const seen = () => {
    if (window.__firstScreen !== undefined || !document.querySelector(wanted)) return;
    window.__firstScreen = null;
    requestAnimationFrame(() => { window.__firstScreen = performance.now(); });
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();"""
OFFLINE_READY = """() => navigator.serviceWorker.ready.then(() => performance.now())"""


@dataclass
class Seen:
    """What the page and its workers received: each response's protocol."""

    protocols: Counter[str] = field(default_factory=Counter)

    def on(self, message: dict[str, Any]) -> None:
        if message.get("method") == "Network.responseReceived":
            response = message["params"]["response"]
            if not response.get("fromServiceWorker") and not response.get("fromDiskCache"):
                self.protocols[response.get("protocol", "?")] += 1


def emulate(context: Any, page: Any, network: Network, seen: Seen) -> None:
    """The network conditions on the page and on every worker it starts (attached paused)."""
    cdp = context.new_cdp_session(page)
    ids = itertools.count(1)
    conditions = network.conditions()

    def send(session: str, method: str, params: dict[str, Any] | None = None, via: str = "") -> None:
        message = json.dumps({"id": next(ids), "method": method, "params": params or {}})
        if via:  # a worker's worker: through its parent's session
            message = json.dumps({"id": next(ids), "method": "Target.sendMessageToTarget",
                                  "params": {"sessionId": session, "message": message}})  # fmt: skip
            session = via
        with contextlib.suppress(Exception):  # the page may be closing: nothing left to emulate
            cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})

    def attached(params: dict[str, Any], via: str = "") -> None:
        session = params["sessionId"]
        send(session, "Network.enable", via=via)
        send(session, "Network.emulateNetworkConditions", conditions, via=via)
        if not via:
            send(session, "Target.setAutoAttach",
                 {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})  # fmt: skip
        send(session, "Runtime.runIfWaitingForDebugger", via=via)

    def from_child(params: dict[str, Any]) -> None:
        message = json.loads(params["message"])
        if message.get("method") == "Target.attachedToTarget":
            attached(message["params"], via=params["sessionId"])
        elif message.get("method") == "Target.receivedMessageFromTarget":
            from_child(message["params"])
        else:
            seen.on(message)

    cdp.on("Network.responseReceived", lambda p: seen.on({"method": "Network.responseReceived", "params": p}))
    cdp.on("Target.attachedToTarget", attached)
    cdp.on("Target.receivedMessageFromTarget", from_child)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", conditions)
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


def first_screen(
    browser: Any, base: str, screen: str, network: Network, phone: dict[str, Any]
) -> tuple[float, Seen]:
    """Seconds from navigation to the screen's first usable frame, on a first visit."""
    path, wanted = SCREENS[screen]
    context = browser.new_context(**phone, service_workers="allow")
    try:
        page = context.new_page()
        seen = Seen()
        emulate(context, page, network, seen)
        page.add_init_script(MARK % json.dumps(wanted))
        page.goto(base + path, wait_until="commit", timeout=TIMEOUT_MS)
        shown = "() => typeof window.__firstScreen === 'number'"
        page.wait_for_function(shown, timeout=TIMEOUT_MS, polling=100)
        return page.evaluate("() => window.__firstScreen") / 1000, seen
    finally:
        context.close()


def offline_ready(browser: Any, base: str, network: Network, phone: dict[str, Any]) -> tuple[float, Seen]:
    """Seconds from navigation until the service worker holds everything, on a first visit."""
    context = browser.new_context(**phone, service_workers="allow")
    try:
        page = context.new_page()
        seen = Seen()
        emulate(context, page, network, seen)
        page.goto(base + "/", wait_until="commit", timeout=TIMEOUT_MS)
        page.wait_for_function("() => !!navigator.serviceWorker", timeout=TIMEOUT_MS)
        return page.evaluate(OFFLINE_READY) / 1000, seen
    finally:
        context.close()


@dataclass
class Timings:
    screens: dict[str, list[float]] = field(default_factory=dict)
    offline: dict[str, list[float]] = field(default_factory=dict)
    protocols: Counter[str] = field(default_factory=Counter)


def measure(
    browser: Any, base: str, phone: dict[str, Any], runs: int, offline_networks: list[Network]
) -> Timings:
    """Each screen `runs` times on Fast 3G, interleaved; then offline-ready on each network."""
    timings = Timings()
    for _ in range(runs):
        for screen in SCREENS:
            seconds, seen = first_screen(browser, base, screen, FAST_3G, phone)
            timings.screens.setdefault(screen, []).append(seconds)
            timings.protocols.update(seen.protocols)
    for network in offline_networks:
        for _ in range(runs):
            seconds, seen = offline_ready(browser, base, network, phone)
            timings.offline.setdefault(network.name, []).append(seconds)
            timings.protocols.update(seen.protocols)
    return timings


def report(label: str, timings: Timings, goal: float) -> None:
    met = {True: "met", False: "NOT MET"}
    print(f"{label}: responses by protocol {dict(timings.protocols)}")
    for screen, values in timings.screens.items():
        median = statistics.median(values)
        runs = ", ".join(f"{v:.2f}" for v in values)
        print(f"  first usable screen, {screen} (Fast 3G): median {median:.2f} s [{runs}] "
              f"(goal ≤ {goal} s): {met[median <= goal]}")  # fmt: skip
    for name, values in timings.offline.items():
        runs = ", ".join(f"{v:.1f}" for v in values)
        print(f"  offline-ready, first visit ({name}): median {statistics.median(values):.1f} s [{runs}]")
