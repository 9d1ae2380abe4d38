"""deploy/ on this machine: Caddy (`tls internal`, HTTP/2) in front of two app servers, PostgreSQL
and Redis, as deploy/kibitz_deploy.py writes it and deploy/supervise.py runs it (conftest.py).

Through Caddy over HTTPS: the probes and metrics; a stream gets each change within 250 ms; one app
server killed (kill -9) mid-game and a rolling upgrade, while phones stream and append — every
phone ends with every entry exactly once; backup → wipe (database and record key) → restore → every
table back, every record verifying under the same public key; a hall of 300 phones on 60 tables
behind one address, all served, while a hostile client from another address opens streams past
its ceiling and is refused only for the excess.
"""

from __future__ import annotations

import asyncio
import json
import re
import ssl
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import requests

from docs.verify_record import check
from tests.deploy.conftest import Deployment

T = TypeVar("T")

pytestmark = pytest.mark.deploy

PLAYERS = [
    {"name": "Martin", "colours": ["red"]},
    {"name": "Eva", "colours": ["yellow"]},
    {"name": "David", "colours": ["darkblue"]},
    {"name": "Andrea", "colours": ["green"]},
]


def in_own_thread(work: Callable[[], T]) -> T:
    """Run `work` in a fresh thread and hand back its result or raise its error there: asyncio.run
    and Playwright's sync API refuse to start where an event loop already runs (a test worker that
    ran the browser suite before keeps Playwright's loop running in its main thread)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]

def create_table(base: str) -> dict[str, Any]:
    body = {"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
    answer = requests.post(f"{base}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def next_move(table: dict[str, Any], turn: int = 0) -> dict[str, Any]:
    """A legal Mahé entry whatever the phase (MA-3 dice, MA-7 cards, MA-9 turtles)."""
    actions = table["legal_actions"]["actions"]
    action = actions[turn % len(actions)]
    if action["type"] == "reveal_card":
        return {"type": "reveal_card", "value": 1 + turn % 6}
    if action["type"] == "die":
        return {"type": "die", "value": 1 + (turn * 7) % 6}
    if action["type"] == "choose_turtle":
        return {"type": "choose_turtle", "turtle": action["turtles"][turn % len(action["turtles"])]}
    return {"type": action["type"]}


class Appender:
    """A phone that records entries, retrying each with its Idempotency-Key until it is answered:
    a request lost with a dying server is applied once, never twice."""

    def __init__(self, base: str, created: dict[str, Any]) -> None:
        self.base, self.id = base, created["id"]
        self.table: dict[str, Any] = created["table"]
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {created['write_token']}"
        self.retries = 0

    def append(self, turn: int) -> int:
        body = {"expected_version": self.table["version"], "event": next_move(self.table, turn)}
        key = str(uuid.uuid4())
        for _ in range(100):
            try:
                answer = self.session.post(
                    f"{self.base}/api/tables/{self.id}/events",
                    json=body,
                    headers={"Idempotency-Key": key},
                    timeout=10,
                )
            except requests.RequestException:
                answer = None
            if answer is not None and answer.status_code == 201:
                self.table = answer.json()["table"]
                return int(answer.json()["seq"])
            assert answer is None or answer.status_code >= 500, answer.text  # 502/503 while one dies
            self.retries += 1
            time.sleep(0.1)
        raise AssertionError("an append was never answered")


class Phone:
    """A phone following a table's stream through Caddy, reconnecting with Last-Event-ID whenever
    its stream breaks (as the app's EventSource does), keeping every entry it was sent."""

    def __init__(self, base: str, table_id: str) -> None:
        self.url = f"{base}/api/tables/{table_id}/stream"
        self.version = -1
        self.seqs: list[int] = []
        self.arrivals: dict[int, float] = {}
        self.reconnects = -1
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped.is_set():
            self.reconnects += 1
            headers = {"Last-Event-ID": str(self.version)} if self.version >= 0 else {}
            try:
                with requests.get(self.url, headers=headers, stream=True, timeout=(5, 20)) as response:
                    if response.status_code != 200:
                        time.sleep(0.2)
                        continue
                    data: list[str] = []
                    for line in response.iter_lines(decode_unicode=True):
                        if self.stopped.is_set():
                            return
                        if line.startswith("data:"):
                            data.append(line[5:].strip())
                        elif line == "" and data:
                            message = json.loads("".join(data))
                            data = []
                            now = time.monotonic()
                            for entry in message["entries"]:
                                self.seqs.append(entry["seq"])
                            self.version = message["version"]
                            self.arrivals[self.version] = now
            except (requests.RequestException, ValueError):
                time.sleep(0.2)

    def wait_for(self, version: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.version >= version, f"phone at {self.version}, table at {version}"

    def stop(self) -> None:
        self.stopped.set()


def test_probes_http2_metrics_and_structured_logs(deployment: Deployment) -> None:
    root = str(deployment.root_cert)
    ready = requests.get(f"{deployment.base}/api/health/ready", timeout=5)
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    assert requests.get(f"{deployment.base}/api/health/live", timeout=5).json() == {"status": "ok"}
    # HTTP/2 to the phones (curl speaks it; Chromium's is checked in the browser test).
    version = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_version}", "--http2", "--cacert", root,
         f"{deployment.base}/api/health/live"],
        capture_output=True, text=True, check=True, timeout=10,
    ).stdout  # fmt: skip
    assert version == "2"
    # Plain HTTP is redirected to HTTPS.
    # /metrics is not public: Caddy answers 404; each app server answers on its loopback port.
    assert requests.get(f"{deployment.base}/metrics", timeout=5).status_code == 404
    requests.get(f"{deployment.base}/api/tables/nope", timeout=5)
    metrics = "".join(
        requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text for port in deployment.app_ports
    )
    for name in ("kibitz_request_seconds_bucket", "kibitz_open_streams", "kibitz_appends_total",
                 "kibitz_fanout_lag_seconds", "kibitz_record_checks_total"):  # fmt: skip
        assert name in metrics
    assert 'kibitz_refusals_total{code="table-not-found",status="404"}' in metrics
    # Structured access logs: one JSON object a request, with the client's address as Caddy saw it.
    lines = [json.loads(line) for line in deployment.log("app-1").splitlines() if line.startswith("{")]
    assert any(line["path"] == "/api/health/ready" and line["status"] == 200 for line in lines)


def test_a_stream_through_caddy_gets_each_change_within_250_ms(deployment: Deployment) -> None:
    created = create_table(deployment.base)
    phone = Phone(deployment.base, created["id"])
    phone.wait_for(0)
    appender = Appender(deployment.base, created)
    lags: list[float] = []
    for turn in range(20):
        sent = time.monotonic()
        version = appender.append(turn)
        phone.wait_for(version, timeout=5)
        lags.append(phone.arrivals[version] - sent)
        time.sleep(0.05)
    phone.stop()
    print(
        f"append → stream through Caddy: median {sorted(lags)[10] * 1000:.0f} ms, "
        f"max {max(lags) * 1000:.0f} ms"
    )
    assert max(lags) < 0.25, lags
    assert phone.seqs == list(range(1, 21))


@pytest.mark.parametrize("disruption", ["kill -9 one app server", "rolling upgrade"])
def test_phones_carry_on_through_the_other_server(deployment: Deployment, disruption: str) -> None:
    """Phones (streams spread over both servers by Caddy) and an appender keep playing while one
    app server dies (or each is replaced in turn): every phone ends with entries 1..N exactly once."""
    created = create_table(deployment.base)
    phones = [Phone(deployment.base, created["id"]) for _ in range(6)]
    for phone in phones:
        phone.wait_for(0)
    appender = Appender(deployment.base, created)
    total = 40
    for turn in range(total):
        if turn == 12:
            if disruption.startswith("kill"):
                import os
                import signal

                os.killpg(deployment.pid("app-1"), signal.SIGKILL)
            else:
                upgrade = threading.Thread(target=deployment.tool, args=("supervise.py", "upgrade"))
                upgrade.start()
        appender.append(turn)
        time.sleep(0.05)
    if not disruption.startswith("kill"):
        upgrade.join(120)
    final = appender.table["version"]
    assert final == total
    for phone in phones:
        phone.wait_for(final)
        phone.stop()
    log = requests.get(f"{deployment.base}/api/tables/{created['id']}/events", timeout=5).json()["events"]
    assert [entry["seq"] for entry in log] == list(range(1, total + 1)), "an entry lost or doubled"
    for phone in phones:
        assert phone.seqs == list(range(1, total + 1))
    assert sum(phone.reconnects for phone in phones) >= 1  # some phone was on the server that went
    print(f"{disruption}: {appender.retries} append retries, {sum(p.reconnects for p in phones)} reconnects")


def play_to_the_end(appender: Appender) -> None:
    """Martin takes all 20 cards and passes the beach; the others bust (MA-3, MA-6, MA-8)."""
    post = appender.session.post

    def play(event: dict[str, Any]) -> None:
        body = {"expected_version": appender.table["version"], "event": event}
        answer = post(f"{appender.base}/api/tables/{appender.id}/events", json=body, timeout=10)
        assert answer.status_code == 201, answer.text
        appender.table = answer.json()["table"]

    play({"type": "reveal_card", "value": 3})
    for index in range(21):
        for value in (2, 1, 4):
            play({"type": "die", "value": value})
        if index < 19:
            play({"type": "reveal_card", "value": 1 + index % 6})
        if index < 20:
            for _ in range(3):
                play({"type": "die", "value": 6})
                play({"type": "die", "value": 6})
    assert appender.table["finished"]


def test_backup_wipe_restore_every_record_verifies(deployment: Deployment) -> None:
    base = deployment.base
    finished = Appender(base, create_table(base))
    play_to_the_end(finished)
    running = []
    for _ in range(3):
        appender = Appender(base, create_table(base))
        for turn in range(7):
            appender.append(turn)
        running.append(appender)
    key = requests.get(f"{base}/api/record-key", timeout=5).json()
    record = requests.get(f"{base}/api/tables/{finished.id}/export", timeout=5).json()
    assert check(record, key)[0] == "valid"
    logs = {
        a.id: requests.get(f"{base}/api/tables/{a.id}/events", timeout=5).json() for a in [finished, *running]
    }

    backup = deployment.tool("backup.py").strip()
    # Wipe: the database dropped, the record key gone.
    env = deployment.env()
    from deploy.pgurl import split_database

    admin, name = split_database(env["DATABASE_URL"])
    drop = f'DROP DATABASE "{name}" WITH (FORCE)'
    subprocess.run([f"{env['KIBITZ_PG_BIN']}/psql", "-q", admin, "-c", drop],
                   check=True)  # fmt: skip
    (deployment.prefix / "keys" / "record-key.pem").unlink()
    # Neither server is ready now: Caddy sends no phone to them (readiness says why).
    for port in deployment.app_ports:
        assert requests.get(f"http://127.0.0.1:{port}/api/health/ready", timeout=10).status_code == 503

    deployment.tool("restore.py", backup)
    for n in range(len(deployment.app_ports)):  # the servers read the key at start
        deployment.tool("supervise.py", "restart", f"app-{n + 1}")

    assert requests.get(f"{base}/api/record-key", timeout=5).json() == key
    restored = requests.get(f"{base}/api/tables/{finished.id}/export", timeout=5).json()
    assert restored == record and check(restored, key)[0] == "valid"
    for table_id, log in logs.items():
        # A read checks the stored chain and its signed head under the server's key.
        assert requests.get(f"{base}/api/tables/{table_id}/events", timeout=5).json() == log
    # …and play goes on where it stopped.
    running[0].append(99)


async def _stream_phone(
    port: int, path: str, context: ssl.SSLContext, source: str, seen: dict[int, int], index: int,
    statuses: dict[int, int], stop: asyncio.Event,
) -> None:  # fmt: skip
    """One phone's stream over its own TLS connection; records the newest `id:` it got."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, ssl=context, server_hostname="127.0.0.1", local_addr=(source, 0)
    )
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status_line = await reader.readline()
    statuses[index] = int(status_line.split()[1])
    tail = b""
    try:
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.5)
            except TimeoutError:
                continue
            if not data:
                return
            tail = (tail + data)[-8192:]
            ids = re.findall(rb"\nid: (\d+)\n", tail)
            if ids:
                seen[index] = max(seen.get(index, -1), int(ids[-1]))
    finally:
        writer.close()


def test_a_hall_behind_one_address_and_a_hostile_client(deployment: Deployment) -> None:
    """300 phones on 60 tables from 127.0.0.1 (a hall behind one public address) all stream and
    hear every append, while a hostile client at 127.0.0.2 holds streams up to its ceiling
    (--client-streams per app server) and is refused past it; nobody else is."""
    base, port = deployment.base, deployment.https_port
    tables = [create_table(base) for _ in range(60)]
    context = ssl.create_default_context(cafile=str(deployment.root_cert))
    context.set_alpn_protocols(["http/1.1"])
    ceiling = int(deployment.env()["KIBITZ_CLIENT_STREAMS"]) * len(deployment.app_ports)

    async def hall() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        stop = asyncio.Event()
        seen: dict[int, int] = {}
        statuses: dict[int, int] = {}
        hostile_statuses: dict[int, int] = {}
        hostile = [
            asyncio.create_task(
                _stream_phone(
                    port,
                    f"/api/tables/{tables[0]['id']}/stream",
                    context,
                    "127.0.0.2",
                    {},
                    n,
                    hostile_statuses,
                    stop,
                )  # fmt: skip
            )
            for n in range(ceiling + 200)
        ]
        # The hostile client takes all it can first; then the hall arrives.
        deadline = time.monotonic() + 90
        while len(hostile_statuses) < len(hostile) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        phones = []
        for n in range(300):
            path = f"/api/tables/{tables[n % 60]['id']}/stream"
            phones.append(
                asyncio.create_task(_stream_phone(port, path, context, "127.0.0.1", seen, n, statuses, stop))
            )
        deadline = time.monotonic() + 90
        while len(statuses) < 300 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)

        # Each table: five appends, one after another, tables all at once.
        def play(created: dict[str, Any]) -> None:
            appender = Appender(base, created)
            for turn in range(5):
                appender.append(turn)

        await asyncio.gather(*(asyncio.to_thread(play, created) for created in tables))
        while time.monotonic() < deadline and not all(seen.get(n, -1) >= 5 for n in range(300)):
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*phones, *hostile, return_exceptions=True)
        return seen, statuses, hostile_statuses

    started = time.monotonic()
    seen, statuses, hostile_statuses = in_own_thread(lambda: asyncio.run(hall()))
    served = sorted(statuses.values())
    assert served == [200] * 300, {s: served.count(s) for s in set(served)}
    behind = [n for n in range(300) if seen.get(n, -1) < 5]
    assert not behind, f"{len(behind)} phones missed changes"
    refused = sum(1 for s in hostile_statuses.values() if s == 429)
    held = sum(1 for s in hostile_statuses.values() if s == 200)
    print(f"hall: 300 phones on 60 tables served in {time.monotonic() - started:.1f} s; "
          f"hostile: {held} streams held, {refused} refused")  # fmt: skip
    assert held <= ceiling and refused >= 100


@pytest.mark.browser
def test_chromium_over_https_installs_the_app_and_plays_offline_and_back(
    deployment: Deployment, tmp_path: Path
) -> None:
    """Chromium trusts Caddy's internal CA through a throwaway NSS database (no certificate errors
    ignored): the name is a secure context, the service worker registers over HTTP/2, and a table
    plays on offline and syncs back through Caddy."""
    import os
    import shutil

    from playwright.sync_api import expect, sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
    from tests.browser.test_pwa_offline import (
        MAHE_PLAYERS,
        badge,
        mahe_move,
        open_local,
        phone_log,
    )

    from .conftest import NAME

    if not Path(CHROMIUM).exists() or shutil.which("certutil") is None:
        from tests.conftest import unavailable

        unavailable("no Chromium, or no certutil (libnss3-tools) for its certificate store")
    home = tmp_path / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "kibitz-test-ca",
                    "-i", str(deployment.root_cert)], check=True)  # fmt: skip
    created = requests.post(
        f"{deployment.base}/api/tables",
        json={"game": "mahe", "players": MAHE_PLAYERS, "options": {"chance": "physical"}},
        timeout=10,
    ).json()
    link = f"{deployment.public}{created['join_path']}"
    def play() -> None:
        """In a thread of its own: a worker that ran the browser suite before holds a running
        Playwright loop in its main thread, and the sync API refuses to start inside it."""
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
                env={**os.environ, "HOME": str(home)},
            )
            try:
                context = browser.new_context(**PHONE)
                context.set_default_timeout(10_000)
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                open_local(page, link)  # the service worker is ready and holds the app and the referee
                assert page.evaluate("window.isSecureContext")
                assert page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
                scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
                assert scope == f"{deployment.public}/"
                expect(badge(page)).to_have_text("Online")

                context.set_offline(True)
                expect(badge(page)).to_have_text("Offline")
                for _ in range(6):
                    mahe_move(page)
                expect(badge(page)).to_have_text("6 moves waiting to sync")

                context.set_offline(False)
                expect(badge(page)).to_have_text("Online", timeout=20_000)
                kept = phone_log(page, created["id"])
                log = requests.get(f"{deployment.base}/api/tables/{created['id']}/events", timeout=5).json()
                assert kept["queue"] == []
                assert [entry["event"] for entry in log["events"]] == kept["serverEvents"]
                assert len(kept["serverEvents"]) == 6
                assert not errors, errors
            finally:
                browser.close()

    in_own_thread(play)
