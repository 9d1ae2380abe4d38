"""Unguessable table ids and write tokens; only a hash of the token is stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_table_id() -> str:
    return secrets.token_urlsafe(12)


def new_write_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Constant-time comparison, so response timing tells nothing about the stored token."""
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_seed() -> int:
    return secrets.randbits(62)
