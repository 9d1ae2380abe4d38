// The phones of the push benchmark, for either system, in one node process (so the clients cost
// little next to the server): N phones follow ONE table (Kibitz: Server-Sent Events over plain
// HTTP/1.1 sockets) or ONE match (boardgame.io: socket.io-client spectators, one connection
// each), while one mover changes it every INTERVAL ms. Each phone notes when it first held each
// version; the latency of a change is that moment minus the moment the change was sent.
//
// node phones.js kibitz|bgio BASE_URL PHONES CHANGES INTERVAL_MS [STREAM_QUERY]
// STREAM_QUERY: how Kibitz's phones open the stream (default `view=log`, the phone's own once its
// referee holds the table; `patches=true` before that; `` for whole tables, as third parties may).
// Prints {"phase":"ready"} once every phone has the table, then one JSON line of results.
//
// The crowded table (benchmarks/push/crowded.py) splits the two roles over two processes, so that
// the appender's round trips never wait behind the phones' own event loop:
// node phones.js follow BASE_URL PHONES TABLE_ID — the phones only; a JSON line when stdin closes
// node phones.js append BASE_URL TABLE_ID WRITE_TOKEN APPENDS — appends back to back, then their times
'use strict';
const http = require('http');
const net = require('net');
const { performance } = require('perf_hooks');

const [system, base, phonesArg, changesArg, intervalArg, queryArg] = process.argv.slice(2);
const QUERY = queryArg ?? 'view=log';
const PHONES = Number(phonesArg);
const CHANGES = Number(changesArg);
const INTERVAL = Number(intervalArg);
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

class Phone {
  constructor() {
    this.version = -1;
    this.seenAt = new Map();
    this.bytes = 0;
    this.messages = 0;
  }
  saw(version) {
    const now = performance.now();
    this.messages += 1;
    for (let v = this.version + 1; v <= version; v++) this.seenAt.set(v, now);
    if (version > this.version) this.version = version;
  }
}

function post(path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: 'POST', agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': data.length, ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode >= 300) reject(new Error(`${res.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      });
    req.on('error', reject);
    req.end(data);
  });
}

// -- Kibitz ----------------------------------------------------------------------------------
const ID = Buffer.from('\nid: ');

function ssePhone(phone, tableId, query = 'patches=true') {
  // Reads bytes as they come and looks only for the `id:` lines (native Buffer search, no text
  // decoding of the events): the phone's own cost stays small next to the server's.
  return new Promise((resolve) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let tail = Buffer.alloc(0);
    sock.on('connect', () => sock.write(`GET /api/tables/${tableId}/stream?${query} HTTP/1.1\r\nHost: bench\r\n\r\n`));
    sock.on('data', (chunk) => {
      phone.bytes += chunk.length;
      const data = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      let at = 0;
      for (;;) {
        const found = data.indexOf(ID, at);
        if (found < 0) break;
        const end = data.indexOf(10, found + 5);
        if (end < 0) { at = found; break; }
        phone.saw(Number(data.toString('latin1', found + 5, end)));
        resolve();
        at = end;
      }
      // Keep only what may hold the start of an id line cut in two.
      tail = data.subarray(Math.max(at, data.length - 16));
    });
    sock.on('error', () => resolve());
    phone.close = () => sock.destroy();
  });
}

function nextMove(table) {
  const phase = table.legal_actions.phase;
  if (phase === 'reveal_card') return { type: 'reveal_card', value: 3 };
  return phase === 'decide' ? { type: 'stop' } : { type: 'die', value: 1 };
}

async function kibitz(phones) {
  const players = ['red', 'green', 'yellow', 'purple'].map((c, i) => ({ name: `P${i}`, colours: [c] }));
  const created = await post('/api/tables', { game: 'mahe', players, options: { chance: 'physical' } });
  const id = created.id;
  const auth = { Authorization: `Bearer ${created.write_token}` };
  await Promise.all(phones.map((p) => ssePhone(p, id, QUERY)));
  let table = created.table;
  return {
    async change(version) {
      const answer = await post(`/api/tables/${id}/events`, { expected_version: version, event: nextMove(table) }, auth);
      table = answer.table;
    },
  };
}

// -- boardgame.io ----------------------------------------------------------------------------
async function bgio(phones) {
  const { io } = require('socket.io-client');
  const matchID = `bench-${process.pid}-${Date.now()}`;
  const connect = () => io(`${base}/bench`, { transports: ['websocket'], forceNew: true, reconnection: false });
  await Promise.all(phones.map((phone) => new Promise((resolve) => {
    const socket = connect();
    socket.io.on('open', () => socket.io.engine.on('data', (d) => { phone.bytes += d.length; }));
    socket.on('connect', () => socket.emit('sync', matchID, null, undefined, 2));
    socket.on('sync', (_m, info) => { phone.saw(info.state.G.n); resolve(); });
    socket.on('update', (_m, state) => phone.saw(state.G.n));
    socket.on('connect_error', () => resolve());
    phone.close = () => socket.close();
  })));
  const mover = connect();
  let stateID = 0;
  let acked = null;
  await new Promise((resolve) => {
    mover.on('connect', () => mover.emit('sync', matchID, '0', undefined, 2));
    mover.on('sync', (_m, info) => { stateID = info.state._stateID; resolve(); });
  });
  mover.on('update', (_m, state) => {
    stateID = state._stateID;
    if (acked) acked();
  });
  return {
    change() {
      const action = { type: 'MAKE_MOVE', payload: { type: 'change', args: [], playerID: '0' } };
      const done = new Promise((resolve) => { acked = resolve; });
      mover.emit('update', action, stateID, matchID, '0');
      return done; // the mover's own copy of the change: the round trip of a move
    },
    close() { mover.close(); },
  };
}

function percentile(values, q) {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function follow() {
  const [, , phonesCount, tableId] = process.argv.slice(2);
  const phones = Array.from({ length: Number(phonesCount) }, () => new Phone());
  await Promise.all(phones.map((p) => ssePhone(p, tableId)));
  console.log(JSON.stringify({ phase: 'ready', held: phones.filter((p) => p.version >= 0).length }));
  process.stdin.resume();
  process.stdin.on('end', () => {
    const versions = phones.map((p) => p.version);
    console.log(JSON.stringify({
      phase: 'done', phones: phones.length, lowest_version: Math.min(...versions), highest_version: Math.max(...versions),
      messages: phones.reduce((s, p) => s + p.messages, 0), bytes: phones.reduce((s, p) => s + p.bytes, 0),
    }));
    process.exit(0);
  });
}

async function append() {
  const [, , tableId, token, countArg] = process.argv.slice(2);
  const auth = { Authorization: `Bearer ${token}` };
  let table = await new Promise((resolve, reject) => {
    http.get(`${base}/api/tables/${tableId}`, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    }).on('error', reject);
  });
  const times = [];
  for (let k = 0; k < Number(countArg); k++) {
    const sent = performance.now();
    const answer = await post(`/api/tables/${tableId}/events`, { expected_version: table.version, event: nextMove(table) }, auth);
    times.push(performance.now() - sent);
    table = answer.table;
  }
  console.log(JSON.stringify({
    phase: 'done', appends: times.length, version: table.version,
    append_p50_ms: percentile(times, 0.5), append_p99_ms: percentile(times, 0.99),
  }));
  process.exit(0);
}

async function main() {
  if (system === 'follow') return follow();
  if (system === 'append') return append();
  // Bounded in time whatever happens: connecting, the changes, the last arrivals.
  setTimeout(() => { console.error('phones: out of time'); process.exit(2); }, 180000 + CHANGES * INTERVAL).unref();
  const phones = Array.from({ length: PHONES }, () => new Phone());
  const game = system === 'kibitz' ? await kibitz(phones) : await bgio(phones);
  const held = phones.filter((p) => p.version >= 0).length;
  const before = phones.reduce((sum, p) => sum + p.messages, 0);
  const bytesBefore = phones.reduce((sum, p) => sum + p.bytes, 0);
  console.log(JSON.stringify({ phase: 'ready' }));
  const sentAt = new Map();
  const appends = [];
  let version = 0; // a new table, a new match
  const began = performance.now();
  for (let k = 0; k < CHANGES; k++) {
    const due = began + k * INTERVAL;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    sentAt.set(version + 1, sent);
    await game.change(version);
    appends.push(performance.now() - sent);
    version += 1;
  }
  // Let the last changes arrive (bounded).
  const deadline = performance.now() + 10000;
  while (performance.now() < deadline && phones.some((p) => p.version < version)) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const latencies = [];
  let missed = 0;
  for (const phone of phones) {
    for (const [v, sent] of sentAt) {
      const seen = phone.seenAt.get(v);
      if (seen === undefined) missed += 1;
      else latencies.push(seen - sent);
    }
  }
  const delivered = phones.reduce((sum, p) => sum + p.messages, 0) - before;
  const bytes = phones.reduce((sum, p) => sum + p.bytes, 0) - bytesBefore;
  for (const phone of phones) phone.close();
  if (game.close) game.close();
  console.log(JSON.stringify({
    phase: 'done', system, phones: PHONES, held, changes: CHANGES,
    latency_p50_ms: percentile(latencies, 0.5), latency_p99_ms: percentile(latencies, 0.99),
    missed, delivered, bytes_per_message: delivered ? Math.round(bytes / delivered) : null,
    append_p50_ms: percentile(appends, 0.5), append_p99_ms: percentile(appends, 0.99),
  }));
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
