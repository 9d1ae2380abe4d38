"""Check a Kibitz game record offline: is it whole, and did the Kibitz server sign it?

    python verify_record.py kibitz-XXXX.json record-key.json

`record-key.json` is what GET /api/record-key answers (fetch it once, from the server you trust):
its `keys` list every key the server accepts (a rotated key's older records keep verifying); the
record's `key_id` picks one.
Needs Python 3.11 and the `cryptography` and `rfc8785` packages. Prints one word, a colon and why, and exits
with the word's code:
    valid     (0)  every entry follows from the ones before it and the server signed the record
    unsigned  (2)  the record carries no signature: nobody vouches for it
    invalid   (1)  an entry was changed, removed or moved, a field was edited, or the signature does
                   not match (or another server signed it)
The algorithm (docs/records.md, "The specification"):
    JCS  = RFC 8785 canonical JSON
    canonical = JCS, except that integers are written in full decimal (JCS writes numbers as
           doubles): the two differ only for integers beyond 2**53 - 1, i.e. seeds
    h0   = SHA-256(canonical({"format": "kibitz-record/1", "game", "players", "options", "seed"}))
           as lowercase hex (the chain keeps format 1's header in every format); the seed, and an
           undo's `reseed`, as integers (format 3 writes them as decimal strings)
    h(n) = SHA-256(h(n-1) as ASCII + "\\n" + canonical({"seq": n, "event": event}))
    kibitz-record/3: Ed25519 over JCS(the whole record, its "signature" without "value"):
           every field is bound, `created_at`, `finished_at` and `head` included.
    kibitz-record/2: the same over canonical(...) (seeds are JSON integers there).
    kibitz-record/1: Ed25519 over "kibitz-record/1\\n<table_id>\\n<entries>\\n<head hash>" (ASCII): it
           binds the table, the header and the entries only; the rest of the record is not vouched
           for (said on the line printed).
    Signatures are base64url without padding, checked with the published public key.

What no file can tell: whether this record is still its table's *current* record. A finished game
can be reopened with an undo and finished again; the older export then stays a valid record of an
earlier head (`head.entries` entries), superseded by the table's newer one. Only the server knows its
table's head now: ask it with

    curl -s -X POST -H 'Content-Type: application/json' --data @kibitz-XXXX.json \\
        https://kibitz.example/api/verify          # "currency": current | superseded | unknown-table

(or compare `head.version` with the `version` of GET /api/tables/<table_id>). POST /api/verify
also replays the game by its rules.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

CHAIN_HEADER_FORMAT = "kibitz-record/1"
WHOLE_SIGNED = ("kibitz-record/2", "kibitz-record/3")


def canonical(value: Any) -> bytes:
    """JCS with integers in full decimal: byte for byte RFC 8785 for every value within 2**53 - 1."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def integer(value: Any) -> Any:
    """Format 3's decimal string of a seed, as the integer the chain hashes."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else value


def hashed_event(event: Any) -> Any:
    if isinstance(event, dict) and event.get("type") == "undo" and "reseed" in event:
        return {**event, "reseed": integer(event["reseed"])}
    return event


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verified(key: dict[str, Any], signature: str, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(unb64(key["public_key"])).verify(unb64(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def check(record: dict[str, Any], key: dict[str, Any]) -> tuple[str, str]:
    """The verdict and why; a record broken past reading (a field of the wrong kind) is invalid."""
    try:
        return checked(record, key)
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        return "invalid", f"the record is not a readable Kibitz record ({type(error).__name__}: {error})"


def checked(record: dict[str, Any], key: dict[str, Any]) -> tuple[str, str]:
    fmt = record.get("format")
    if fmt not in ("kibitz-record/1", *WHOLE_SIGNED):
        return "invalid", f"not a Kibitz record format this script knows: {fmt!r}"
    header = {name: record.get(name) for name in ("game", "players", "options", "seed")}
    header["seed"] = integer(header["seed"])
    head = hashlib.sha256(canonical({"format": CHAIN_HEADER_FORMAT, **header})).hexdigest()
    events = record.get("events", [])
    for number, entry in enumerate(events, start=1):
        if entry.get("seq") != number:
            return "invalid", f"entry {number} is missing or out of place"
        content = canonical({"seq": entry["seq"], "event": hashed_event(entry["event"])})
        head = hashlib.sha256(head.encode("ascii") + b"\n" + content).hexdigest()
        if "hash" in entry and entry["hash"] != head:
            return "invalid", f"entry {number} was changed: its hash does not follow"
    chain = record.get("chain") or {}
    signature = (record.get("signature") if fmt in WHOLE_SIGNED else chain.get("signature")) or {}
    if not isinstance(signature, dict) or not signature.get("value"):
        return "unsigned", "the record carries no signature"
    length = len(events)
    if chain.get("length") != length or chain.get("head") != head:
        return "invalid", "the chain's length or head does not match the entries"
    listed = {entry["key_id"]: entry for entry in key.get("keys", [])} or {key["key_id"]: key}
    if signature.get("key_id") not in listed:
        return "invalid", "signed with a key the server does not list (another server's?)"
    key = listed[signature["key_id"]]
    if fmt in WHOLE_SIGNED:
        said = record.get("head") or {}
        if not isinstance(said, dict) or said.get("entries") != length or said.get("version") != length:
            return "invalid", "the record's head does not match its entries"
        unsigned = {k: v for k, v in signature.items() if k != "value"}
        whole = {**record, "signature": unsigned}
        try:
            signed = rfc8785.dumps(whole) if fmt == "kibitz-record/3" else canonical(whole)
        except rfc8785.CanonicalizationError:
            return "invalid", "the record holds a value RFC 8785 cannot write: nothing signed it"
        if not verified(key, signature["value"], signed):
            return "invalid", "the signature does not match: a field was changed after signing"
        return "valid", (
            f"{length} entries (table {record.get('table_id')} version {said['version']}, last entry "
            f"{said.get('at')}), head {head}; whether it is the table's current record only the server "
            "can say (POST /api/verify: currency)"
        )
    message = f"kibitz-record/1\n{record.get('table_id')}\n{length}\n{head}".encode()
    if not verified(key, signature["value"], message):
        return "invalid", "the signature does not match"
    bound = {"format", "table_id", "game", "players", "options", "seed", "events", "chain"}
    loose = ", ".join(sorted(k for k in record if k not in bound)) or "nothing else"
    return "valid", (
        f"{length} entries, head {head} (format 1: the signature does not bind {loose}; "
        "whether it is the table's current record only the server can say)"
    )


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as record_file, open(argv[2], encoding="utf-8") as key_file:
        verdict, why = check(json.load(record_file), json.load(key_file))
    print(f"{verdict}: {why}")
    return {"valid": 0, "invalid": 1, "unsigned": 2}[verdict]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
