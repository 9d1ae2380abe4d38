// Check a Kibitz game record with nothing but a JavaScript engine: Node 20 or later, or a browser
// page served over https:// (or from localhost). No package to install: SHA-256 and Ed25519 come
// from WebCrypto, RFC 8785 canonical JSON is the few lines below. docs/records.md is the
// specification this follows; docs/verify_record.py is the same check in Python.
//
//   node examples/verify_record.mjs kibitz-XXXX.json record-key.json
//
// prints one word, a colon and why, and exits with the word's code:
//   valid       0  every entry follows from the ones before it and the server signed the record
//   invalid     1  an entry was changed, removed or moved, a field was edited, or the signature does
//                  not match (or another server signed it)
//   unsigned    2  the record carries no signature: nobody vouches for it
//   unsupported 3  a format-2 record holding an integer past 2^53 - 1, which a JavaScript number
//                  cannot hold exactly: export it again (format 3 writes such integers as strings)
//
// In a page:
//   import { verifyRecord } from "./verify_record.mjs";
//   const { verdict, why } = await verifyRecord(await (await fetch(exportUrl)).json(),
//                                               await (await fetch("/api/record-key")).json());

const CHAIN_HEADER_FORMAT = "kibitz-record/1";
const WHOLE_SIGNED = ["kibitz-record/2", "kibitz-record/3"];
const DIGITS = /^(0|[1-9][0-9]{0,18})$/;

/**
 * RFC 8785 (JCS): object members sorted by their names' UTF-16 code units, no whitespace, strings
 * and numbers exactly as ECMAScript's JSON.stringify writes them. A BigInt (the chain's seeds) is
 * written in full decimal: the one place the chain's hashing differs from JCS.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalize(value) {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("JCS has no NaN or Infinity");
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    if (!value.isWellFormed()) throw new TypeError("JCS refuses a lone surrogate");
    return JSON.stringify(value);
  }
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(",")}]`;
  if (typeof value === "object") {
    const object = /** @type {Record<string, unknown>} */ (value);
    const names = Object.keys(object).filter((name) => object[name] !== undefined).sort();
    return `{${names.map((name) => `${canonicalize(name)}:${canonicalize(object[name])}`).join(",")}}`;
  }
  throw new TypeError(`JCS cannot write a ${typeof value}`);
}

/** @param {string} text @returns {Uint8Array} */
const utf8 = (text) => new TextEncoder().encode(text);

/** @param {string} text @returns {Promise<string>} lowercase hex */
async function sha256hex(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** @param {string} text base64url without padding @returns {Uint8Array} */
function unbase64url(text) {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * @param {string} publicKey base64url raw 32-byte Ed25519 key
 * @param {string} signature base64url
 * @param {string} message signed text (UTF-8)
 */
async function verified(publicKey, signature, message) {
  try {
    const key = await crypto.subtle.importKey("raw", unbase64url(publicKey), { name: "Ed25519" }, false, [
      "verify",
    ]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, unbase64url(signature), utf8(message));
  } catch {
    return false;
  }
}

/** A seed as the chain hashes it: format 3's decimal string as a BigInt, an integer as itself. */
function seedOf(/** @type {unknown} */ value) {
  return typeof value === "string" && DIGITS.test(value) ? BigInt(value) : value;
}

/** An event as the chain hashes it: an undo's `reseed` as an integer. */
function hashedEvent(/** @type {any} */ event) {
  if (event && typeof event === "object" && event.type === "undo" && "reseed" in event) {
    return { ...event, reseed: seedOf(event.reseed) };
  }
  return event;
}

/** Whether a value parsed by JSON.parse holds a number JavaScript may have rounded. */
function unsafeNumber(/** @type {unknown} */ value) {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value && typeof value === "object") return Object.values(value).some(unsafeNumber);
  return false;
}

/**
 * Check a record against the published key document (GET /api/record-key).
 * @param {any} record the record, as JSON.parse read it
 * @param {any} keyDocument what GET /api/record-key answers
 * @returns {Promise<{verdict: "valid" | "invalid" | "unsigned" | "unsupported", why: string}>}
 */
export async function verifyRecord(record, keyDocument) {
  const format = record?.format;
  if (format !== CHAIN_HEADER_FORMAT && !WHOLE_SIGNED.includes(format)) {
    return { verdict: "invalid", why: `not a Kibitz record format this script knows: ${JSON.stringify(format)}` };
  }
  if (format !== "kibitz-record/3" && unsafeNumber(record)) {
    return {
      verdict: "unsupported",
      why: "this older record holds an integer past 2^53 - 1, which JavaScript cannot read exactly; export it again",
    };
  }
  const header = {
    format: CHAIN_HEADER_FORMAT,
    game: record.game,
    players: record.players,
    options: record.options,
    seed: seedOf(record.seed),
  };
  let head = await sha256hex(canonicalize(header));
  const events = Array.isArray(record.events) ? record.events : [];
  for (let number = 1; number <= events.length; number += 1) {
    const entry = events[number - 1];
    if (entry?.seq !== number) return { verdict: "invalid", why: `entry ${number} is missing or out of place` };
    head = await sha256hex(`${head}\n${canonicalize({ seq: entry.seq, event: hashedEvent(entry.event) })}`);
    if ("hash" in entry && entry.hash !== head) {
      return { verdict: "invalid", why: `entry ${number} was changed: its hash does not follow` };
    }
  }
  const chain = record.chain ?? {};
  const signature = (WHOLE_SIGNED.includes(format) ? record.signature : chain.signature) ?? {};
  if (typeof signature !== "object" || !signature.value) {
    return { verdict: "unsigned", why: "the record carries no signature" };
  }
  const length = events.length;
  if (chain.length !== length || chain.head !== head) {
    return { verdict: "invalid", why: "the chain's length or head does not match the entries" };
  }
  const listed = new Map((keyDocument.keys ?? [keyDocument]).map((/** @type {any} */ key) => [key.key_id, key]));
  const key = listed.get(signature.key_id);
  if (!key) return { verdict: "invalid", why: "signed with a key the server does not list (another server's?)" };
  if (WHOLE_SIGNED.includes(format)) {
    const said = record.head ?? {};
    if (said.entries !== length || said.version !== length) {
      return { verdict: "invalid", why: "the record's head does not match its entries" };
    }
    const { value, ...unsigned } = signature;
    let signed;
    try {
      signed = canonicalize({ ...record, signature: unsigned });
    } catch (error) {
      return { verdict: "invalid", why: `the record holds a value RFC 8785 cannot write: ${error}` };
    }
    if (!(await verified(key.public_key, value, signed))) {
      return { verdict: "invalid", why: "the signature does not match: a field was changed after signing" };
    }
    return {
      verdict: "valid",
      why:
        `${length} entries (table ${record.table_id} version ${said.version}, last entry ${said.at}), head ${head}; ` +
        "whether it is the table's current record only the server can say (POST /api/verify: currency)",
    };
  }
  const message = `kibitz-record/1\n${record.table_id}\n${length}\n${head}`;
  if (!(await verified(key.public_key, signature.value, message))) {
    return { verdict: "invalid", why: "the signature does not match" };
  }
  return {
    verdict: "valid",
    why: `${length} entries, head ${head} (format 1: the signature binds the table and its entries only)`,
  };
}

const CODES = { valid: 0, invalid: 1, unsigned: 2, unsupported: 3 };

/** Node: `verify_record.mjs RECORD KEY`, or `--lines`: one `{"record", "key"}` a line on standard
 * input, one `{"verdict", "why", "roundtrip"}` a line out (`roundtrip`: the record after
 * JSON.parse and JSON.stringify, as a JavaScript client would store it). */
async function main(/** @type {string[]} */ args) {
  const { readFile } = await import("node:fs/promises");
  if (args[0] === "--lines") {
    const { createInterface } = await import("node:readline");
    for await (const line of createInterface({ input: process.stdin })) {
      if (!line.trim()) continue;
      const { record, key } = JSON.parse(line);
      const answer = await verifyRecord(record, key);
      process.stdout.write(`${JSON.stringify({ ...answer, roundtrip: JSON.stringify(record) })}\n`);
    }
    return 0;
  }
  if (args.length !== 2) {
    process.stderr.write("usage: node verify_record.mjs RECORD.json RECORD-KEY.json\n");
    return 64;
  }
  const [record, key] = await Promise.all(args.map(async (path) => JSON.parse(await readFile(path, "utf8"))));
  const { verdict, why } = await verifyRecord(record, key);
  process.stdout.write(`${verdict}: ${why}\n`);
  return CODES[verdict];
}

if (typeof process !== "undefined" && process.argv?.[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"))) {
  process.exitCode = await main(process.argv.slice(2));
}
