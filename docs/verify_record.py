"""Check a Kibitz game record offline: is it whole, and did the Kibitz server sign it?

    python verify_record.py kibitz-XXXX.json record-key.json

`record-key.json` is what GET /api/record-key answers (fetch it once, from the server you trust).
Needs only Python 3.11 and the `cryptography` package. Prints one word and exits with its code:
    valid     (0)  every entry follows from the ones before it and the server signed the head
    unsigned  (2)  the record carries no signature: nobody vouches for it
    invalid   (1)  an entry was changed, removed or moved, or the signature does not match
The algorithm (docs/records.md):
    h0   = SHA-256(canonical({"format", "game", "players", "options", "seed"}))   as lowercase hex
    h(n) = SHA-256(h(n-1) as ASCII + "\\n" + canonical({"seq": n, "event": event}))
    canonical = JSON with sorted keys, no spaces, UTF-8
    signed message = "kibitz-record/1\\n<table_id>\\n<number of entries>\\n<head hash>" (ASCII),
    Ed25519 with the published public key; the signature is base64url without padding.
It checks the record's integrity and origin; POST /api/verify also replays the game by its rules.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check(record: dict[str, Any], key: dict[str, Any]) -> tuple[str, str]:
    header = {name: record.get(name) for name in ("format", "game", "players", "options", "seed")}
    head = hashlib.sha256(canonical(header)).hexdigest()
    for number, entry in enumerate(record.get("events", []), start=1):
        if entry.get("seq") != number:
            return "invalid", f"entry {number} is missing or out of place"
        content = canonical({"seq": entry["seq"], "event": entry["event"]})
        head = hashlib.sha256(head.encode("ascii") + b"\n" + content).hexdigest()
        if "hash" in entry and entry["hash"] != head:
            return "invalid", f"entry {number} was changed: its hash does not follow"
    chain = record.get("chain") or {}
    signature = chain.get("signature") or {}
    if not signature.get("value"):
        return "unsigned", "the record carries no signature"
    length = len(record.get("events", []))
    if chain.get("length") != length or chain.get("head") != head:
        return "invalid", "the chain's length or head does not match the entries"
    if signature.get("key_id") != key["key_id"]:
        return "invalid", "signed with another key"
    message = f"{record['format']}\n{record['table_id']}\n{length}\n{head}".encode("ascii")
    try:
        Ed25519PublicKey.from_public_bytes(unb64(key["public_key"])).verify(
            unb64(signature["value"]), message
        )
    except (InvalidSignature, ValueError):
        return "invalid", "the signature does not match"
    return "valid", f"{length} entries, head {head}"


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as record_file, open(argv[2], encoding="utf-8") as key_file:
        verdict, why = check(json.load(record_file), json.load(key_file))
    print(f"{verdict}: {why}")
    return {"valid": 0, "invalid": 1, "unsigned": 2}[verdict]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
