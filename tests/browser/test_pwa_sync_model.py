"""The phone's sync as a model (issue 21): random interleavings, against a real server.

Two or three phones on one Mhing table (drawn rounds and undos: every round looks the same, so a
phone cannot tell its own entry from another's by looking — the hardest case) run the very steps
the app runs (pwa/js/sync/merge.js: tap, stream catch-up, stored, refused, the players' choice) in
a seeded random order: taps, stream messages, answers delivered or lost, reloads (the record
round-trips through JSON as through IndexedDB, the answer in flight is lost), going offline and
coming back, and conflict decisions. At quiescence every phone shows exactly the server's log
(and the phone's referee makes the server's state of it), nothing waits, and no tap is stored twice:
each is stored once or was dropped by the players' choice.
"""

from __future__ import annotations

from typing import Any

import pytest

MODEL = r"""
async ({ seed, phones, steps }) => {
  const M = await import("/js/sync/merge.js");
  const { ask } = await import("/js/referee/client.js");
  let state = seed >>> 0;
  const random = () => {  // mulberry32: the same seed, the same run
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (items) => items[Math.floor(random() * items.length)];
  let keys = 0;
  const newKey = () => `model-${seed}-${++keys}`;

  const players = [{ name: "Eva" }, { name: "Tom" }, { name: "Ann" }];
  const created = await (await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: "mhing", players, options: {} }),
  })).json();
  const id = created.id;
  const token = created.write_token;
  const serverLog = async () => (await fetch(`/api/tables/${id}/events`)).json();

  const stored = new Map(); // origin → times the server stored it (201, not replayed)
  const madeAt = new Map(); // origin → the log position its tap was made at
  const storedAt = new Map(); // origin → the position the server stored it at
  const movedByChoice = new Set(); // origins the players chose to keep after (or behind) others
  const tapped = new Set();
  const dropped = new Set();
  const trace = [];

  // The only rule of drawn rounds: an undo names the last entry in effect (the referee's check).
  const fits = (events) => {
    const stack = [];
    for (const [index, event] of events.entries()) {
      if (event.type !== "undo") stack.push(index + 1);
      else if (!stack.length || stack[stack.length - 1] !== event.undoes) return false;
      else stack.pop();
    }
    return true;
  };

  class Phone {
    constructor(name) {
      this.name = name;
      this.rec = { serverEvents: [], serverVersion: 0, queue: [], conflict: null };
      this.online = true;
      this.inflight = null;
    }
    shown() {
      return M.reconcile(this.rec.serverEvents, this.rec.queue, { conflict: !!this.rec.conflict }).shown;
    }
    tap() {
      const event = random() < 0.7 ? { type: "round_drawn" } : { type: "undo" };
      const key = newKey();
      const answer = M.tapped(this.rec, event, key, this.shown().length);
      if (answer.refused || !fits([...answer.shown, answer.item.event])) return;
      this.rec.queue.push({ ...answer.item, origin: key });
      tapped.add(key);
      madeAt.set(key, answer.item.base);
    }
    async pull() {
      M.replaced(this.rec, await serverLog());
    }
    async send() {
      const next = M.nextToSend(this.rec); // the app's own choice of what and where
      if (!this.online || this.inflight || !next) return;
      const { item, expectedVersion } = next;
      const res = await fetch(`/api/tables/${id}/events`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          "Idempotency-Key": item.key,
        },
        body: JSON.stringify({ expected_version: expectedVersion, event: item.event }),
      });
      const body = await res.json();
      if (res.status === 201 && !body.replayed) {
        stored.set(item.origin, (stored.get(item.origin) || 0) + 1);
        storedAt.set(item.origin, body.seq - 1);
      }
      this.inflight = { item, status: res.status, body };
    }
    async deliver(lose) {
      const flight = this.inflight;
      this.inflight = null;
      if (!flight || lose) return;
      if (flight.status === 201) {
        if (!M.stored(this.rec, flight.item, flight.body.seq)) await this.pull();
      } else if (flight.body.code === "stale-version") {
        if (this.rec.queue[0] === flight.item) {
          await this.pull();
          M.refused(this.rec, flight.item);
        }
      } else {
        M.refused(this.rec, flight.item, flight.body);
      }
      M.noteMet(this.rec);
    }
    async stream() {
      if (!this.online) return;
      const log = await serverLog();
      const from = this.rec.serverVersion;
      if (!M.extended(this.rec, log.events.slice(from), from, log.version)) M.replaced(this.rec, log);
      M.noteMet(this.rec);
    }
    reload() {
      this.rec = JSON.parse(JSON.stringify(this.rec)); // as IndexedDB keeps it
      this.inflight = null; // the answer in flight is lost with the page
      M.noteMet(this.rec);
    }
    decide() {
      const conflict = this.rec.conflict;
      if (!conflict) return false;
      const choices = conflict.refused ? ["drop"] : ["after", "back", "drop"];
      for (const choice of [pick(choices), "drop"]) {
        const queue = M.resolved(this.rec.serverEvents, this.rec.queue, choice, newKey);
        if (!queue || !fits([...this.rec.serverEvents, ...queue.map((item) => item.event)])) continue;
        if (choice === "drop") this.rec.queue.forEach((item) => dropped.add(item.origin));
        else this.rec.queue.forEach((item) => movedByChoice.add(item.origin));
        queue.forEach((item) => {
          if (!item.origin) {
            item.origin = item.key; // an undo of theirs: a new entry the players chose
            tapped.add(item.key);
          }
        });
        this.rec.queue = queue;
        this.rec.conflict = null;
        M.noteMet(this.rec);
        trace.push(`${this.name} ${choice}`);
        return true;
      }
      return false;
    }
  }

  const all = Array.from({ length: phones }, (_, n) => new Phone(`p${n}`));
  for (let step = 0; step < steps; step++) {
    const phone = pick(all);
    const roll = random();
    if (roll < 0.3) phone.tap();
    else if (roll < 0.5) await phone.send();
    else if (roll < 0.68) await phone.deliver(random() < 0.25);
    else if (roll < 0.82) await phone.stream();
    else if (roll < 0.9) phone.online = !phone.online;
    else if (roll < 0.93) phone.reload();
    else phone.decide();
  }

  // Quiescence: everyone back online, every answer delivered, every conflict decided.
  all.forEach((phone) => (phone.online = true));
  for (let round = 0; round < 400; round++) {
    for (const phone of all) {
      await phone.deliver(false);
      await phone.stream();
      phone.decide();
      await phone.send();
      await phone.deliver(false);
    }
    const quiet = all.every((phone) => !phone.rec.queue.length && !phone.rec.conflict && !phone.inflight);
    if (quiet) break;
  }
  await Promise.all(all.map((phone) => phone.stream()));
  const log = await serverLog();
  const events = log.events.map((entry) => entry.event);
  const table = await (await fetch(`/api/tables/${id}`)).json();
  const scratch = `model-${seed}`;
  const events0 = all[0].shown();
  const opening = { op: "open", id: scratch, game: "mhing", players, options: {}, seed: 0 };
  const opened = await ask({ ...opening, events: events0 });
  await ask({ op: "close", id: scratch });
  return {
    events,
    phones: all.map((phone) => ({
      shown: phone.shown(),
      queue: phone.rec.queue.length,
      conflict: phone.rec.conflict,
    })),
    stored: [...stored.entries()],
    // Stored somewhere else than where it was made, without the players' choice (a silent rebase).
    displaced: [...storedAt.entries()].filter(
      ([origin, at]) => !movedByChoice.has(origin) && madeAt.has(origin) && madeAt.get(origin) !== at,
    ),
    tapped: [...tapped],
    dropped: [...dropped],
    sameState: opened.ok && JSON.stringify(opened.view.state) === JSON.stringify(table.state),
    trace,
  };
}
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_random_interleavings_end_in_the_servers_game(live_server: str, new_phone: Any, seed: int) -> None:
    page = new_phone()
    page.goto(f"{live_server}/")
    page.evaluate("async () => (await import('/js/referee/client.js')).startReferee()")
    run = page.evaluate(MODEL, {"seed": seed, "phones": 2 + seed % 2, "steps": 160})
    for phone in run["phones"]:
        assert phone["queue"] == 0 and phone["conflict"] is None, run
        assert phone["shown"] == run["events"], run  # every phone shows the server's log
    assert run["sameState"], run  # and the phone's referee makes the server's state of it
    stored = dict(run["stored"])
    assert all(times == 1 for times in stored.values()), run  # no tap stored twice
    for origin in run["tapped"]:  # each tap stored once, or dropped by the players' choice
        assert stored.get(origin, 0) == 1 or origin in run["dropped"], (origin, run)
    assert not set(stored) & set(run["dropped"]), run
    assert run["displaced"] == [], run  # an entry stands where it was made, unless the players moved it
    assert len(run["events"]) == len(stored)  # the log holds exactly the stored taps
    # The run met what it is about: entries of two phones at one position, decided by the players.
    assert run["trace"] and len(run["events"]) >= 5, run
