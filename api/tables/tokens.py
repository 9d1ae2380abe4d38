"""Unguessable table ids and write tokens; only a hash of the token is stored."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from api.rules.common.seeds import SEED_BITS

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")


def new_table_id() -> str:
    """96 random bits, 16 URL-safe characters (also used for board sheets)."""
    return secrets.token_urlsafe(12)


def is_our_id(candidate: str) -> bool:
    """Could this be an id we made? Anything else is answered 404 without asking the database."""
    return ID_PATTERN.fullmatch(candidate) is not None


def new_write_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Constant-time comparison, so response timing tells nothing about the stored token."""
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_seed() -> int:
    """Below 2^53, so that every client reads it exactly (api.rules.common.seeds)."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    return secrets.token_hex(16)


def derived_token(key: str, salt: str, purpose: str) -> str:
    """A token made from a creation's Idempotency-Key and the table's secret salt: a retried creation
    answers the same tokens although only their hashes are stored (the key is stored hashed too)."""
    digest = hmac.new(key.encode("utf-8"), f"{salt}:{purpose}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")
