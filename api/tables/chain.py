"""The record's hash chain and the server's signature over its head (docs/records.md).

Each log entry's hash is SHA-256 over the previous entry's hash (the first builds on the hash of the
table's header: format, game, players, options, seed), a newline, and the entry's canonical content
`{"seq": n, "event": …}`. The hash is stored with the entry when it is appended; every read of the
log recomputes it, so an entry changed, removed, swapped or moved in the database is named.

The head is signed with the server's Ed25519 key, which never lives in the database (a key file:
KIBITZ_RECORD_KEY, default var/record-key.pem, made on first use). Whoever edits the database and
recomputes the hashes still cannot sign the new head; whoever edits an export cannot either. The
public key is served at GET /api/record-key.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from api.config import ROOT

# The stored chain and its per-entry head signatures keep format 1's definitions: the genesis header
# names "kibitz-record/1" whatever the export's own format (the hashes stored since then stay good).
CHAIN_FORMAT = "kibitz-record/1"
RECORD_FORMAT_1 = CHAIN_FORMAT
# Format 2: the export carries its `head` and one signature over the whole record (docs/records.md),
# over `canonical` (integers of any size in full decimal).
RECORD_FORMAT_2 = "kibitz-record/2"
# Format 3: the same, signed over RFC 8785 (JCS) proper; the integers JavaScript cannot hold exactly
# (`seed`, an undo's `reseed`) are decimal strings, so any JSON parser reads the record losslessly.
RECORD_FORMAT = "kibitz-record/3"
RECORD_FORMATS = (RECORD_FORMAT_1, RECORD_FORMAT_2, RECORD_FORMAT)
# The fields a format-3 record writes as decimal strings; the chain hashes them as integers.
BIG_FIELDS = ("seed", "reseed")
HEADER_FIELDS = ("format", "game", "players", "options", "seed")
CHAIN_ALGORITHM = "sha256"
SIGNATURE_ALGORITHM = "Ed25519"
KEY_ENV = "KIBITZ_RECORD_KEY"
DEFAULT_KEY = ROOT / "var" / "record-key.pem"
VERIFIED_KEPT = 4096  # signatures found good, remembered per process


def canonical(value: Any) -> bytes:
    """One byte string per JSON value — the only place the canonical form is written, for the chain's
    hashes and for the record's signature alike (docs/records.md, "Canonical JSON"): object keys
    sorted by code point, separators `,` and `:` with no whitespace, strings as UTF-8 with only `"`,
    `\\` and control characters escaped (`\\b \\f \\n \\r \\t`, others `\\u00xx` in lowercase
    hex), integers in plain decimal. For what Kibitz writes (integers, strings, booleans, null,
    ASCII keys) this is byte for byte RFC 8785 (JCS); moving to JCS proper is a change here only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def jcs(value: Any) -> bytes:
    """RFC 8785 (JCS) canonical JSON, what a format-3 record's signature signs: numbers as
    ECMAScript writes them, so an integer beyond 2**53 - 1 is refused (IntegerDomainError) rather
    than written as a double nobody can check. The `rfc8785` package: one maintained
    implementation of the standard instead of our own."""
    return rfc8785.dumps(value)


def as_integer(value: Any) -> Any:
    """A format-3 record's decimal string (`seed`, `reseed`) as the integer the chain hashes;
    anything else unchanged."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        return int(value)
    return value


def exact_event(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """An event as the chain hashes it: an undo's `reseed` as an integer."""
    if event.get("type") == "undo" and isinstance(event.get("reseed"), str):
        return {**event, "reseed": as_integer(event["reseed"])}
    return event


def genesis(header: Mapping[str, Any]) -> str:
    """What the first entry's hash builds on: the game, its players, options and seed (an integer,
    also when a format-3 record carries it as a decimal string)."""
    fields = {"format": CHAIN_FORMAT, **{k: header.get(k) for k in HEADER_FIELDS if k != "format"}}
    fields["seed"] = as_integer(fields["seed"])
    return hashlib.sha256(canonical(fields)).hexdigest()


def link(previous: str, seq: int, event: Mapping[str, Any]) -> str:
    """One entry's hash: over the previous hash, its sequence number and its event."""
    content = canonical({"seq": seq, "event": exact_event(event)})
    return hashlib.sha256(previous.encode("ascii") + b"\n" + content).hexdigest()


def hashes(start: str, entries: Iterable[tuple[int, Mapping[str, Any]]]) -> list[str]:
    out: list[str] = []
    previous = start
    for seq, event in entries:
        previous = link(previous, seq, event)
        out.append(previous)
    return out


def signed_message(table_id: str, length: int, head: str) -> bytes:
    """What the server signs: the record format, the table, how many entries, the head hash."""
    return f"{CHAIN_FORMAT}\n{table_id}\n{length}\n{head}".encode("ascii")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


_KEYS: dict[tuple[Path, tuple[Path, ...]], RecordKey] = {}
_LOCK = threading.Lock()
RETIRED_ENV = "KIBITZ_RECORD_RETIRED_KEYS"


def key_id_of(public: Ed25519PublicKey) -> str:
    """First 16 hex digits of SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(
        public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    ).hexdigest()[:16]


def _published(public: Ed25519PublicKey) -> dict[str, Any]:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return {
        "algorithm": SIGNATURE_ALGORITHM,
        "key_id": key_id_of(public),
        "public_key": b64(raw),
        "public_key_pem": pem.decode("ascii"),
    }


class RecordKey:
    """The server's signing key (private part in a file outside the database), and the public
    halves of the keys it replaced (`retired`): new heads and records are signed with the newest
    only; what an older key signed keeps verifying as long as that key is listed."""

    def __init__(self, private: Ed25519PrivateKey, retired: Sequence[Ed25519PublicKey] = ()) -> None:
        self.private = private
        self.public: Ed25519PublicKey = private.public_key()
        self.public_raw = self.public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.key_id = key_id_of(self.public)
        # Newest first: the signing key's public half, then the retired ones in the order given.
        self.publics: dict[str, Ed25519PublicKey] = {self.key_id: self.public}
        for public in retired:
            self.publics.setdefault(key_id_of(public), public)
        self._verified: dict[tuple[str, str, int, str], None] = {}

    def knows(self, key_id: object) -> bool:
        return isinstance(key_id, str) and key_id in self.publics

    def sign(self, table_id: str, length: int, head: str) -> str:
        return b64(self.private.sign(signed_message(table_id, length, head)))

    def sign_bytes(self, message: bytes) -> str:
        """A signature of any message (Ed25519 is deterministic: the same message, the same value)."""
        return b64(self.private.sign(message))

    def verifies_bytes(self, signature: str | None, message: bytes, key_id: str | None = None) -> bool:
        """Whether `signature` over `message` is the key `key_id`'s (default: the signing key's)."""
        public = self.publics.get(key_id or self.key_id)
        return public is not None and _good(public, signature, message)

    def verifies(self, signature: str | None, table_id: str, length: int, head: str) -> bool:
        """Whether `signature` is one of these keys' over the log's head (a stored entry does not
        say which key signed it: the newest is tried first). A signature once found good is
        remembered (bounded): every live stream of a table re-reads the same head after each change,
        and one check per process is enough for an exact (message, signature) pair."""
        if not signature:
            return False
        seen = (signature, table_id, length, head)
        if seen in self._verified:
            return True
        message = signed_message(table_id, length, head)
        if not any(_good(public, signature, message) for public in self.publics.values()):
            return False
        with _LOCK:
            self._verified[seen] = None
            while len(self._verified) > VERIFIED_KEPT:
                del self._verified[next(iter(self._verified))]
        return True

    def published(self) -> dict[str, Any]:
        """The signing key's public half (as before rotation existed), and under `keys` every key
        whose signatures this server accepts, the signing one first (`current`)."""
        keys = [
            {**_published(public), "current": key_id == self.key_id}
            for key_id, public in self.publics.items()
        ]
        return {**_published(self.public), "keys": keys}


def _good(public: Ed25519PublicKey, signature: str | None, message: bytes) -> bool:
    if not signature:
        return False
    try:
        public.verify(unb64(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def key_path() -> Path:
    configured = os.environ.get(KEY_ENV, "").strip()
    return Path(configured) if configured else DEFAULT_KEY


def retired_paths() -> tuple[Path, ...]:
    """KIBITZ_RECORD_RETIRED_KEYS: the files of the keys the signing key replaced, separated by the
    system's path separator (`:`), newest first; each a public or a private PEM."""
    configured = os.environ.get(RETIRED_ENV, "")
    return tuple(Path(part) for part in configured.split(os.pathsep) if part.strip())


def record_key(path: Path | None = None, retired: Sequence[Path] | None = None) -> RecordKey:
    """The signing key at `path` (default: KIBITZ_RECORD_KEY, else var/record-key.pem), made on first
    use, with the retired keys' public halves (default: KIBITZ_RECORD_RETIRED_KEYS). Made with
    O_EXCL, so two workers starting together end up with the same one."""
    path = path or key_path()
    older = tuple(retired) if retired is not None else retired_paths()
    with _LOCK:
        if (path, older) not in _KEYS:
            _KEYS[(path, older)] = RecordKey(_load_or_create(path), [_load_public(p) for p in older])
        return _KEYS[(path, older)]


def _load_public(path: Path) -> Ed25519PublicKey:
    data = path.read_bytes()
    loaded: Any
    if b"PRIVATE KEY" in data:
        loaded = serialization.load_pem_private_key(data, password=None)
        loaded = loaded.public_key() if isinstance(loaded, Ed25519PrivateKey) else None
    else:
        loaded = serialization.load_pem_public_key(data)
    if not isinstance(loaded, Ed25519PublicKey):
        raise ValueError(f"{path} does not hold an Ed25519 key")
    return loaded


def _load_or_create(path: Path) -> Ed25519PrivateKey:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = Ed25519PrivateKey.generate()
        pem = fresh.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        try:
            os.link(partial, path)  # fails if another process made it first: theirs is kept
        except FileExistsError:
            pass
        finally:
            partial.unlink()
    loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(loaded, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return loaded
