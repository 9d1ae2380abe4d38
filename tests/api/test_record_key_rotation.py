"""Key rotation (docs/records.md, "Rotating the key"): GET /api/record-key lists every accepted
public key by id, new heads and records are signed with the newest, and what a retired key signed —
stored heads and exported records alike — keeps verifying, online and offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask.testing import FlaskClient

from tests.api.table_client import TableDriver
from tests.api.test_record_signature import run_offline as offline_run
from tests.conftest import make_test_app

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "verify_record.py"


def typed(winner: int, points: int) -> dict[str, Any]:
    return {"type": "round_points", "winner": winner, "points": points, "discarder": None}




def public_pem(private_path: Path, public_path: Path) -> Path:
    private = serialization.load_pem_private_key(private_path.read_bytes(), password=None)
    assert isinstance(private, Ed25519PrivateKey)
    public_path.write_bytes(
        private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return public_path


def test_a_rotated_key_keeps_old_records_and_tables_verifying(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_key, new_key = tmp_path / "old.pem", tmp_path / "new.pem"
    monkeypatch.setenv("KIBITZ_RECORD_KEY", str(old_key))
    monkeypatch.delenv("KIBITZ_RECORD_RETIRED_KEYS", raising=False)
    before: FlaskClient = make_test_app(sqlite_url).test_client()
    t = TableDriver.create(before, game="mhing", players=[{"name": n} for n in ("Eva", "Tom", "Ada")])
    t.play(typed(0, 512))
    old_record = before.get(f"/api/tables/{t.id}/export").get_json()
    old_id = before.get("/api/record-key").get_json()["key_id"]
    assert old_record["signature"]["key_id"] == old_id

    # Rotate: a new signing key; the old one kept as a public PEM only (its private half may go).
    monkeypatch.setenv("KIBITZ_RECORD_KEY", str(new_key))
    monkeypatch.setenv("KIBITZ_RECORD_RETIRED_KEYS", str(public_pem(old_key, tmp_path / "old.pub.pem")))
    after: FlaskClient = make_test_app(sqlite_url).test_client()
    published = after.get("/api/record-key").get_json()
    new_id = published["key_id"]
    assert new_id != old_id
    assert [(k["key_id"], k["current"]) for k in published["keys"]] == [(new_id, True), (old_id, False)]

    # The table signed by the old key reads as whole; its old export is valid and current.
    assert after.get(f"/api/tables/{t.id}").status_code == 200
    assert after.get(f"/api/tables/{t.id}/events").status_code == 200
    verdict = after.post("/api/verify", json=old_record).get_json()
    assert verdict["valid"] and verdict["currency"] == "current", verdict
    assert offline(tmp_path, old_record, published) == 0

    # New heads are signed with the newest key: reopen, finish again, export.
    t.client = after
    t.undo()
    t.play(typed(1, 512))
    new_record = after.get(f"/api/tables/{t.id}/export").get_json()
    assert new_record["signature"]["key_id"] == new_id
    assert after.post("/api/verify", json=new_record).get_json()["currency"] == "current"
    old_now = after.post("/api/verify", json=old_record).get_json()
    assert old_now["valid"] and old_now["currency"] == "superseded"
    assert offline(tmp_path, new_record, published) == 0 and offline(tmp_path, old_record, published) == 0

    # Once the old key is no longer listed, what it signed is not vouched for.
    monkeypatch.setenv("KIBITZ_RECORD_RETIRED_KEYS", "")
    forgetful: FlaskClient = make_test_app(sqlite_url).test_client()
    dropped = forgetful.post("/api/verify", json=old_record).get_json()
    assert not dropped["valid"] and dropped["currency"] == "unknown-table"


def offline(tmp_path: Path, record: dict[str, Any], key: dict[str, Any]) -> int:
    """The offline verifier's exit code (tests.api.test_record_signature runs it)."""
    return offline_run(tmp_path, record, key)[0]
