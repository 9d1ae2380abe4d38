"""`python -m benchmarks.offline_referee`: the phone's own referee against the server's round trip.

The phone referees a table itself (the server's `api/rules` under Pyodide in a Web Worker,
pwa/js/referee). Measured in Debian's Chromium (360×740 phone, Playwright) against a real gunicorn on
a temporary SQLite database, all on this machine:

(a) a tap offline: `ask({op: 'apply', id, event, commit: true})`, answered with the new view (state,
    legal actions, result), for every move of whole Mahé games with physical chance;
(b) the same tap online, from the same page: `fetch` POST /api/tables/{id}/events with
    `expected_version` and the write token, over loopback (a phone's network adds its own round
    trip on top, so this is the server's best case). Offline and online taps alternate, so whatever
    else runs on the machine weighs on both alike; target offline/online ≤ 1/5;
(c) the referee's cold start once the service worker has cached it: the app is loaded once, the
    worker installs (`navigator.serviceWorker.ready`, and the caches hold pyodide.asm.wasm), then a
    NEW page of the same phone times `startReferee()` from call to resolution (target ≤ 3 s). The
    page is a rules page, which does not start the referee by itself; opening the app itself is
    timed too, from navigation to a ready referee. For comparison: the first boot ever, nothing
    cached (a fresh phone without a service worker);
(d) what a phone downloads once for its referee (`api.phone.bundle.referee_bytes()`).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from api.db.migrate import upgrade
from api.phone.bundle import PYODIDE_DIR, PYODIDE_FILES, rules_zip
from api.phone.static_build import referee_bytes
from api.rules.mahe.game import MAHE
from devtools.gunicorn import GunicornProcess
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

NO_LIMITS = {"KIBITZ_CREATE_LIMIT": "100000 per minute", "KIBITZ_TOKEN_FAILURE_LIMIT": "100000 per minute"}
PLAYERS = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "yellow"), ("C", "green"), ("D", "darkblue"))
]
OPTIONS = {"chance": "physical"}
GAMES = 2  # whole games measured (each ~250 taps), after one warm-up game
COLD_STARTS = 5  # new pages booting the cached referee
QUIET_PAGE = "/rules/mahe.en.html"  # a page of the app that does not start the referee itself
WASM = "/pyodide.asm.wasm"  # under a content-hashed folder (api/phone/static_build.py)
SETTLE_SECONDS = 10
TIMEOUT_MS = 120_000

BOOT = """async () => {
  const client = await import('/js/referee/client.js');
  const start = performance.now();
  const ok = await client.startReferee();
  return [ok, performance.now() - start];
}"""
READY_SINCE_NAVIGATION = """async () => {
  const client = await import('/js/referee/client.js');
  const ok = await client.startReferee();
  return [ok, performance.now()];
}"""
CACHED = """async (url) => {
  await navigator.serviceWorker.ready;
  for (const name of await caches.keys()) {
    const keys = await (await caches.open(name)).keys();
    if (keys.some((request) => request.url.endsWith(url))) return true;
  }
  return false;
}"""
# One game, tap by tap: the phone's referee, then the server, alternately.
TAPS = """async ({ local, table, token, version, players, options, seed, events }) => {
  const client = await import('/js/referee/client.js');
  const table0 = { op: 'open', id: local, game: 'mahe', players, options, seed, events: [] };
  const opened = await client.ask(table0);
  if (!opened.ok) throw new Error(JSON.stringify(opened.error));
  const offline = [], online = [];
  let view = null, served = null;
  for (const event of events) {
    let start = performance.now();
    const answer = await client.ask({ op: 'apply', id: local, event, commit: true });
    offline.push(performance.now() - start);
    if (!answer.ok) throw new Error(JSON.stringify(answer.error));
    view = answer.view;
    start = performance.now();
    const response = await fetch(`/api/tables/${table}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ expected_version: version, event }),
    });
    const body = await response.json();
    online.push(performance.now() - start);
    if (response.status !== 201) throw new Error(JSON.stringify(body));
    served = body.table;
    version = served.version;
  }
  await client.ask({ op: 'close', id: local });
  return { offline, online, view: view.state, served: served.state };
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mahe_game(seed: int) -> list[dict[str, Any]]:
    """The moves of one whole Mahé game with physical chance: cards and dice typed in (MA-12 off),
    stopping when the beach is in reach or the risk grows, as a sensible player would."""
    rng = random.Random(seed)
    state = MAHE.new_game(PLAYERS, MAHE.normalize_options(OPTIONS), seed)
    events: list[dict[str, Any]] = []
    while MAHE.result(state) is None:
        offered = {a["type"]: a for a in MAHE.legal_actions(state)["actions"]}
        if "reveal_card" in offered:
            event = {"type": "reveal_card", "value": rng.choice(offered["reveal_card"]["values"])}
        elif "choose_turtle" in offered:
            event = {"type": "choose_turtle", "turtle": rng.choice(offered["choose_turtle"]["turtles"])}
        elif "stop" in offered and (
            offered["stop"]["passes_beach"] or offered["die"]["bust_chance"] > 0.3 or rng.random() < 0.25
        ):
            event = {"type": "stop"}
        else:
            event = {"type": "die", "value": rng.choice(offered["die"]["values"])}
        state = MAHE.apply(state, event)
        events.append(event)
    return events


def play(page: Any, base: str, seed: int) -> tuple[list[float], list[float]]:
    """One game tapped on the phone's referee and posted to the server, move by move."""
    events = mahe_game(seed)
    body = {"game": "mahe", "players": PLAYERS, "options": OPTIONS, "seed": seed}
    created = requests.post(f"{base}/api/tables", json=body, timeout=10)
    created.raise_for_status()
    table = created.json()
    result = page.evaluate(
        TAPS,
        {
            "local": f"bench-{seed}",
            "table": table["id"],
            "token": table["write_token"],
            "version": table["table"]["version"],
            "players": PLAYERS,
            "options": OPTIONS,
            "seed": seed,
            "events": events,
        },
    )
    assert result["view"] == result["served"], f"game {seed}: the phone and the server disagree"
    return result["offline"], result["online"]


def boot(page: Any) -> float:
    ok, ms = page.evaluate(BOOT)
    assert ok, "the referee did not start"
    return float(ms) / 1000


def first_boot(browser: Any, base: str) -> float:
    """A fresh phone, nothing cached and no service worker: download and compile everything."""
    context = browser.new_context(**PHONE, service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(base + QUIET_PAGE)
    seconds = boot(page)
    context.close()
    return seconds


def install(context: Any, base: str) -> None:
    """Open the app once, wait until its service worker has cached the referee (and the app's own
    referee has booted), then let the phone settle: the next cold start of a real phone comes long
    after the install, not while the install's background work (caching, compiling) still runs."""
    page = context.new_page()
    page.goto(base + "/")
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not page.evaluate(CACHED, WASM):
        assert time.monotonic() < deadline, "the service worker never cached Pyodide"
        time.sleep(0.2)
    page.evaluate(READY_SINCE_NAVIGATION)
    page.close()
    time.sleep(SETTLE_SECONDS)


def cached_boot(context: Any, base: str) -> tuple[float, bool]:
    """A new page of an installed phone: startReferee() from call to resolution."""
    page = context.new_page()
    wasm_from_worker: list[bool] = []
    page.on(
        "response",
        lambda response: (
            wasm_from_worker.append(response.from_service_worker) if response.url.endswith(WASM) else None
        ),
    )
    page.goto(base + QUIET_PAGE)
    assert page.evaluate("navigator.serviceWorker.controller !== null"), "page not under the worker"
    seconds = boot(page)
    page.close()
    return seconds, bool(wasm_from_worker) and all(wasm_from_worker)


def app_ready(context: Any, base: str) -> float:
    """A new page opening the app itself (which boots the referee after its first paint): seconds
    from navigation to a ready referee."""
    page = context.new_page()
    page.goto(base + "/")
    ok, ms = page.evaluate(READY_SINCE_NAVIGATION)
    assert ok, "the referee did not start"
    page.close()
    return float(ms) / 1000


def measure(base: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        uncached = first_boot(browser, base)
        context = browser.new_context(**PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        install(context, base)
        boots = [cached_boot(context, base) for _ in range(COLD_STARTS)]
        opened = [app_ready(context, base) for _ in range(3)]

        page = context.new_page()
        page.goto(base + QUIET_PAGE)
        boot(page)
        play(page, base, 1)  # warm-up: the first taps compile the rules' code paths on both sides
        offline: list[float] = []
        online: list[float] = []
        for seed in range(2, 2 + GAMES):
            taps_offline, taps_online = play(page, base, seed)
            offline += taps_offline
            online += taps_online
        browser_version = browser.version
        browser.close()
    return {
        "browser": browser_version,
        "offline": offline,
        "online": online,
        "uncached": uncached,
        "cached": [seconds for seconds, _ in boots],
        "from_cache": all(hit for _, hit in boots),
        "opened": opened,
        "load": os.getloadavg()[0],
    }


def report(m: dict[str, Any]) -> None:
    offline, online = m["offline"], m["online"]
    off_med, off_p90 = statistics.median(offline), percentile(offline, 0.9)
    on_med, on_p90 = statistics.median(online), percentile(online, 0.9)
    pyodide = sum((PYODIDE_DIR / name).stat().st_size for name in PYODIDE_FILES)
    total = referee_bytes()
    cached = m["cached"]
    print(f"Offline referee vs server — Chromium {m['browser']}, 360×740 phone, loopback gunicorn + SQLite")
    print(f"Mahé, physical chance: {len(offline)} taps over {GAMES} whole games (after a warm-up game)")
    print(f"machine: {os.cpu_count()} cores, load average {m['load']:.2f} at the end of the run")
    print()
    print(f"{'':44}{'median':>10}{'p90':>10}")
    print(f"{'(a) tap offline: ask apply commit':44}{off_med:>7.2f} ms{off_p90:>7.2f} ms")
    print(f"{'(b) tap online: POST …/events (loopback)':44}{on_med:>7.2f} ms{on_p90:>7.2f} ms")
    ratios = f"{off_med / on_med:>10.3f}{off_p90 / on_p90:>10.3f}"
    print(f"{'    ratio offline/online (target ≤ 0.20)':44}{ratios}")
    print()
    print(
        f"(c) cold start of the cached referee: startReferee() median {statistics.median(cached):.2f} s, "
        f"max {max(cached):.2f} s over {len(cached)} new pages (target ≤ 3 s)"
    )
    print(f"    (the phone settled {SETTLE_SECONDS} s after the install before the first of them)")
    print(f"    each, in order: {', '.join(f'{s:.2f}' for s in cached)} s")
    served = "yes" if m["from_cache"] else "NO"
    print(f"    pyodide.asm.wasm served by the service worker each time: {served}")
    print(f"    app opened → referee ready (cached): median {statistics.median(m['opened']):.2f} s")
    print(
        f"    first boot ever, nothing cached (download over loopback included): {m['uncached']:.2f} s "
        f"(cached/uncached {statistics.median(cached) / m['uncached']:.2f})"
    )
    print()
    print(
        f"(d) downloaded once for the referee: {total:,} bytes ({total / 2**20:.1f} MiB): "
        f"Pyodide {pyodide:,} + its standard library cut to the rules' needs"
        f" + rules.zip {len(rules_zip()):,} "
        "(uncompressed; on the wire: `make first-visit`)"
    )


def main() -> None:
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        log = Path(tmp) / "gunicorn.log"
        args = ("--access-logfile", "/dev/null")
        with GunicornProcess(url, log, env=NO_LIMITS, extra_args=args) as server:
            measured = measure(server.base)
    report(measured)


if __name__ == "__main__":
    main()
