"""A record that proves itself: each log entry keeps its chain hash and the server's signature.

The hash is SHA-256 over the previous entry's hash (the first: the table header's), the entry's
sequence number and its event; the signature is the server's Ed25519 signature of the log as far as
that entry, with the key from KIBITZ_RECORD_KEY (never in the database). Existing logs are hashed
and signed here, in order, as they are.

Self-contained: the chain's definitions as they were at this revision are copied in (frozen) from
api.tables.chain, so a later change there cannot change what this migration writes
(tests/contract/test_rooms.py checks that no migration imports the application).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

import base64
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import op
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("payload", sa.JSON),
    sa.column("hash", sa.String),
    sa.column("signature", sa.String),
)
game_tables = sa.table(
    "game_tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("players", sa.JSON),
    sa.column("options", sa.JSON),
    sa.column("seed", sa.BigInteger),
)

# Frozen from api.tables.chain (format 1 of the stored chain).
CHAIN_FORMAT = "kibitz-record/1"
HEADER_FIELDS = ("game", "players", "options", "seed")
KEY_ENV = "KIBITZ_RECORD_KEY"
DEFAULT_KEY = Path(__file__).resolve().parents[4] / "var" / "record-key.pem"  # api.config.ROOT / var


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def as_integer(value: Any) -> Any:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        return int(value)
    return value


def genesis(header: Mapping[str, Any]) -> str:
    fields = {"format": CHAIN_FORMAT, **{k: header.get(k) for k in HEADER_FIELDS}}
    fields["seed"] = as_integer(fields["seed"])
    return hashlib.sha256(canonical(fields)).hexdigest()


def link(previous: str, seq: int, event: Mapping[str, Any]) -> str:
    if event.get("type") == "undo" and isinstance(event.get("reseed"), str):
        event = {**event, "reseed": as_integer(event["reseed"])}
    content = canonical({"seq": seq, "event": event})
    return hashlib.sha256(previous.encode("ascii") + b"\n" + content).hexdigest()


def signing_key() -> Ed25519PrivateKey:
    """The server's key (KIBITZ_RECORD_KEY, else var/record-key.pem), made here if there is none yet,
    exactly as the server would make it on first use (O_EXCL: a server starting beside keeps its own
    only if it made it first)."""
    configured = os.environ.get(KEY_ENV, "").strip()
    path = Path(configured) if configured else DEFAULT_KEY
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
            os.link(partial, path)
        except FileExistsError:
            pass
        finally:
            partial.unlink()
    loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(loaded, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return loaded


def sign(key: Ed25519PrivateKey, table_id: str, length: int, head: str) -> str:
    message = f"{CHAIN_FORMAT}\n{table_id}\n{length}\n{head}".encode("ascii")
    return base64.urlsafe_b64encode(key.sign(message)).rstrip(b"=").decode("ascii")


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("signature", sa.String(100), nullable=True))

    bind = op.get_bind()
    tables = bind.execute(sa.select(game_tables)).mappings().all()
    if not tables:
        return
    key = signing_key()
    for table in tables:
        previous = genesis(table)
        rows = bind.execute(
            sa.select(events.c.id, events.c.seq, events.c.payload)
            .where(events.c.table_id == table["id"])
            .order_by(events.c.seq)
        ).all()
        for row in rows:
            previous = link(previous, row.seq, row.payload)
            signature = sign(key, table["id"], row.seq, previous)
            bind.execute(
                events.update().where(events.c.id == row.id).values(hash=previous, signature=signature)
            )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("signature")
        batch.drop_column("hash")
