"""The self-contained record of a finished game, and its verification by replay."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from typing import Any

from rfc8785 import IntegerDomainError

from api.errors import ApiProblem
from api.rules.errors import RuleError
from api.rules.replay import replay
from api.tables.chain import (
    CHAIN_ALGORITHM,
    RECORD_FORMAT,
    RECORD_FORMAT_1,
    RECORD_FORMAT_2,
    SIGNATURE_ALGORITHM,
    RecordKey,
    as_integer,
    canonical,
    exact_event,
    hashes,
    jcs,
)
from api.tables.chain import genesis as chain_genesis
from api.tables.store import TableRow, require_game


def require_finished(table: TableRow) -> None:
    if not table.finished:
        raise ApiProblem(
            409,
            "game-not-finished",
            "Only a finished game can be exported; the log so far is at /events.",
        )


def genesis(record: Mapping[str, Any]) -> str:
    return chain_genesis(record)


def chain(record: Mapping[str, Any], entries: list[Mapping[str, Any]]) -> list[str]:
    """Each entry's hash: SHA-256 over the previous hash and the entry's own canonical content, so
    changing, removing or reordering any entry breaks every hash from it on (api.tables.chain)."""
    return hashes(genesis(record), ((entry["seq"], entry["event"]) for entry in entries))


def build_record(table: TableRow, entries: list[dict[str, Any]], key: RecordKey) -> dict[str, Any]:
    """The record of a finished game (format 3): its entries with the hashes stored when they were
    appended (the store checked them on reading), the head it is — the table's version, its number
    of entries and the time of the last one — and the server's signature over all of it.

    Format 3 writes the seed and an undo's fresh seed as decimal strings (up to 2**62: past what a
    JavaScript number holds exactly) and signs RFC 8785 (JCS). A table made before integers were
    bounded may hold another integer past 2**53 - 1 (which JCS cannot write exactly): its record
    is format 2, signed over `canonical`, as before.

    Nothing in it is "now": the same table version exports the same bytes, signature included
    (Ed25519 is deterministic), so re-exports and ETags agree."""
    game = require_game(table.game)
    result = game.result(game.load(table.state))
    last_at = entries[-1]["at"] if entries else table.created_at
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": table.game,
        "table_id": table.id,
        "players": table.players,
        "options": table.options,
        "seed": str(table.seed),
        "events": [{"seq": e["seq"], "event": _written(e["event"]), "hash": e["hash"]} for e in entries],
        "result": result,
        "created_at": table.created_at.isoformat(),
        "finished_at": table.updated_at.isoformat(),
        "head": {"version": table.version, "entries": len(entries), "at": last_at.isoformat()},
        "chain": {
            "algorithm": CHAIN_ALGORITHM,
            "length": len(entries),
            "head": entries[-1]["hash"] if entries else genesis(table.__dict__),
        },
        "signature": {"algorithm": SIGNATURE_ALGORITHM, "key_id": key.key_id},
    }
    try:
        message = signed_bytes(record)
    except IntegerDomainError:
        record = {
            **record,
            "format": RECORD_FORMAT_2,
            "seed": table.seed,
            "events": [{"seq": e["seq"], "event": e["event"], "hash": e["hash"]} for e in entries],
            "signature": {"algorithm": SIGNATURE_ALGORITHM, "key_id": key.key_id},
        }
        message = signed_bytes(record)
    record["signature"]["value"] = key.sign_bytes(message)
    return record


def _written(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event as a format-3 record writes it: an undo's integer `reseed` as a decimal string."""
    reseed = event.get("reseed")
    if event.get("type") == "undo" and isinstance(reseed, int) and not isinstance(reseed, bool):
        return {**event, "reseed": str(reseed)}
    return dict(event)


def exact(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record with the integers format 3 writes as strings (`seed`, `reseed`) read back as
    integers: what the chain hashes and the rules replay."""
    out = dict(record)
    out["seed"] = as_integer(record.get("seed"))
    if isinstance(record.get("events"), list):
        out["events"] = [
            {**entry, "event": exact_event(entry["event"])}
            if isinstance(entry, Mapping) and isinstance(entry.get("event"), Mapping)
            else entry
            for entry in record["events"]
        ]
    return out


def signed_bytes(record: Mapping[str, Any]) -> bytes:
    """What a format-2 or -3 signature signs: the canonical form of the whole record with only the
    signature's own `value` left out (every other field, known or not, is bound) — RFC 8785 in
    format 3, `canonical` in format 2."""
    signature = record.get("signature")
    unsigned = (
        {k: v for k, v in signature.items() if k != "value"} if isinstance(signature, Mapping) else signature
    )
    whole = {**record, "signature": unsigned}
    return jcs(whole) if record.get("format") == RECORD_FORMAT else canonical(whole)


# What a format-1 signature binds (the head: table, number of entries, last hash → every entry and
# the header). Anything else in a format-1 record can be edited without its signature noticing.
WHOLE_SIGNED = (RECORD_FORMAT_2, RECORD_FORMAT)
FORMAT_1_BOUND = frozenset({"format", "table_id", "game", "players", "options", "seed", "events", "chain"})


def unbound(record: Mapping[str, Any]) -> list[str]:
    """The top-level fields a valid signature does not vouch for: none in format 2."""
    if record.get("format") != RECORD_FORMAT_1:
        return []
    return sorted(k for k in record if k not in FORMAT_1_BOUND)


def record_head(record: Mapping[str, Any]) -> tuple[int, str]:
    """The head a record is: its number of entries and the chain's last hash."""
    chain_info = record.get("chain") or {}
    return int(chain_info.get("length", len(record["events"]))), str(chain_info.get("head", ""))


def signer(record: Mapping[str, Any]) -> str | None:
    """The key id a record says signed it."""
    signature = record.get("signature") if record.get("format") in WHOLE_SIGNED else None
    if record.get("format") == RECORD_FORMAT_1:
        signature = (record.get("chain") or {}).get("signature")
    key_id = signature.get("key_id") if isinstance(signature, Mapping) else None
    return key_id if isinstance(key_id, str) else None


HeadLookup = Callable[[str], "tuple[int, str | None] | None"]


def currency(
    record: Mapping[str, Any], signature: str, key: RecordKey, lookup: HeadLookup
) -> tuple[str | None, dict[str, int] | None]:
    """Whether a record is its table's current one here: "current" (the table's head is the
    record's), "superseded" (the table exists here and its head differs: the log is append-only and
    an undo is itself an entry, so a later head always has more entries), "unknown-table" (no such
    table here, or another installation's key signed it); None when nothing can be said (a record
    unsigned, or not signed by this key). With the table's current head when it is known."""
    if signature != "valid":
        said = signer(record)
        foreign = said is not None and not key.knows(said)
        return ("unknown-table", None) if foreign else (None, None)
    table_id = record.get("table_id")
    found = lookup(table_id) if isinstance(table_id, str) else None
    if found is None:
        return "unknown-table", None
    version, last_hash = found
    current_head = {"version": version, "entries": version}
    return ("current" if (version, last_hash) == record_head(record) else "superseded"), current_head


def check_chain(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where the record's hash chain first breaks: None when it is whole (or the record has none).

    An entry changed or moved fails at its own position, a removed one at the position it left;
    entries cut off the end are caught by the chain's length and head.
    """
    entries = list(record["events"])
    stated = record.get("chain") or None
    if stated is None and not any(entry.get("hash") for entry in entries):
        return None  # a record written by hand, without a chain: only the replay checks it
    recomputed = chain(record, entries)
    for index, (entry, digest) in enumerate(zip(entries, recomputed, strict=True)):
        if entry.get("hash") != digest:
            return {"index": index, "seq": entry.get("seq"), "reason": "changed-removed-or-reordered"}
    if stated is not None:
        head = recomputed[-1] if recomputed else genesis(record)
        if stated.get("length") != len(entries) or stated.get("head") != head:
            return {"index": len(entries), "seq": None, "reason": "entries-missing-at-the-end"}
    return None


def record_csv(record: Mapping[str, Any]) -> str:
    """Standings, one player a row, with the game's own score columns."""
    ranking = (record.get("result") or {}).get("ranking", [])
    winners = set((record.get("result") or {}).get("winners", []))
    score_keys = [k for k in (ranking[0] if ranking else {}) if k not in {"seat", "name", "place"}]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "seat", "name", *score_keys, "winner"])
    for entry in ranking:
        writer.writerow(
            [
                entry["place"],
                entry["seat"],
                spreadsheet_safe(entry["name"]),
                *(entry.get(k) for k in score_keys),
                entry["seat"] in winners,
            ]
        )
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs: a leading ' defuses =HYPERLINK(…) and friends
    (OWASP's advice on CSV injection)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def check_signature(record: Mapping[str, Any], key: RecordKey, raw: Mapping[str, Any] | None = None) -> str:
    """ "valid" when this server signed the record; "unsigned" without a signature (anyone can
    compute a hash chain: it proves nothing about who wrote the record); else "invalid". Format 2:
    the signature over the whole record as sent (`raw`, before any defaults were filled in);
    format 1: the signature of its head only."""
    entries = list(record["events"])
    head = chain(record, entries)[-1] if entries else genesis(record)
    stated = record.get("chain") or {}
    if stated.get("length") != len(entries) or stated.get("head") != head:
        return "invalid" if _signature_value(record) else "unsigned"
    if record.get("format") in WHOLE_SIGNED:
        whole = raw if raw is not None else record
        signature = whole.get("signature")
        if not isinstance(signature, Mapping) or not signature.get("value"):
            return "unsigned"
        said = whole.get("head")
        if (
            not key.knows(signature.get("key_id"))
            or signature.get("algorithm") != SIGNATURE_ALGORITHM
            or not isinstance(said, Mapping)
            or said.get("entries") != len(entries)
            or said.get("version") != len(entries)
        ):
            return "invalid"
        try:
            message = signed_bytes(whole)
        except (IntegerDomainError, TypeError, ValueError):  # not JCS-writable: nothing signed it
            return "invalid"
        good = key.verifies_bytes(str(signature["value"]), message, str(signature["key_id"]))
        return "valid" if good else "invalid"
    signature = stated.get("signature") or {}
    if not signature.get("value"):
        return "unsigned"
    table_id = record.get("table_id")
    if not key.knows(signature.get("key_id")) or not isinstance(table_id, str):
        return "invalid"
    if not key.verifies(str(signature["value"]), table_id, len(entries), head):
        return "invalid"
    return "valid"


def _signature_value(record: Mapping[str, Any]) -> bool:
    holder = (
        record.get("signature")
        if record.get("format") in WHOLE_SIGNED
        else (record.get("chain") or {}).get("signature")
    )
    return isinstance(holder, Mapping) and bool(holder.get("value"))


SIGNATURE_PROBLEMS = {
    "unsigned": (
        "record-unsigned",
        "The record carries no signature: nobody vouches for it. Export it again from the server.",
    ),
    "invalid": (
        "record-signature-invalid",
        "The record's signature does not match it: it was changed after the server signed it, or "
        "another server signed it.",
    ),
}
# The codes a verdict's `problem` has besides the rules' own refusals (a replay the rules refuse).
VERDICT_CODES = (
    "record-tampered",
    "result-mismatch",
    "game-not-finished",
    *(code for code, _ in SIGNATURE_PROBLEMS.values()),
)


def verify_record(
    record: Mapping[str, Any], key: RecordKey, raw: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Check the record's hash chain and the server's signature (formats 2 and 3: of the whole record as
    sent, `raw`; format 1: of its head), then replay its log from its seed and compare the outcome
    with the one it claims. Valid only when all three hold. Whether it is the table's current record
    is the caller's to add (`currency`: it reads the table). Format 3's decimal strings (`seed`,
    `reseed`) are read as the integers they are for the chain and the replay."""
    record = exact(record)
    verdict = _verify_replay(record)
    signature = "invalid" if not verdict["chain"]["intact"] else check_signature(record, key, raw)
    verdict["signature"] = signature
    verdict["format"] = record.get("format")
    verdict["unbound"] = unbound(raw if raw is not None else record)
    if signature != "valid":
        verdict["valid"] = False
        if verdict["problem"] is None:
            code, detail = SIGNATURE_PROBLEMS[signature]
            verdict["problem"] = {"code": code, "detail": detail, "rule": None}
    return verdict


def _verify_replay(record: Mapping[str, Any]) -> dict[str, Any]:
    game = require_game(str(record["game"]))
    broken = check_chain(record)
    if broken is not None:
        where = (
            f"Entry {broken['index'] + 1} (seq {broken['seq']}) was changed, removed or moved: its hash "
            "does not follow from the entries before it."
            if broken["seq"] is not None
            else "Entries were cut off the end: the chain's length or head does not match."
        )
        return {
            "valid": False,
            "finished": False,
            "result": None,
            "claimed_result_matches": False,
            "chain": {"intact": False, **broken},
            "problem": {"code": "record-tampered", "detail": where, "rule": None},
        }
    events = [entry["event"] for entry in record["events"]]
    try:
        options = game.normalize_options(record.get("options") or {})
        state = replay(game, record["players"], options, int(record["seed"]), events)
    except RuleError as error:
        return {
            "valid": False,
            "finished": False,
            "result": None,
            "claimed_result_matches": False,
            "chain": {"intact": True, "index": None, "seq": None, "reason": None},
            "problem": {"code": error.code, "detail": error.detail, "rule": error.rule},
        }
    result = game.result(state)
    claimed = record.get("result")
    matches = claimed is None or claimed == result
    return {
        "chain": {"intact": True, "index": None, "seq": None, "reason": None},
        "valid": result is not None and matches,
        "finished": result is not None,
        "result": result,
        "claimed_result_matches": matches,
        "problem": None
        if result is not None and matches
        else {
            "code": "result-mismatch" if result is not None else "game-not-finished",
            "detail": "The recorded result differs from the replayed one."
            if result is not None
            else "The log does not reach the end of the game.",
            "rule": None,
        },
    }
