"""Exports signed by the server (docs/records.md): anyone checks one offline with the published key
and docs/verify_record.py. A record edited with its chain recomputed is not valid (the signature
fails); a record without a signature is "unsigned", never valid."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.tables.chain import genesis, link
from tests.api.finished_game import play_short_game

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "verify_record.py"
RECORD: dict[str, Any] = {}


@pytest.fixture
def record(client: FlaskClient) -> dict[str, Any]:
    if not RECORD:
        RECORD.update(client.get(f"/api/tables/{play_short_game(client).id}/export").get_json())
    return copy.deepcopy(RECORD)


def run_offline(tmp_path: Path, record: dict[str, Any], key: dict[str, Any]) -> tuple[int, str]:
    """docs/verify_record.py, run as a third party would: a file, the published key, no server;
    its exit code and everything it printed."""
    (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "key.json").write_text(json.dumps(key), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "record.json"), str(tmp_path / "key.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout


def offline(tmp_path: Path, record: dict[str, Any], key: dict[str, Any]) -> tuple[int, str]:
    """The verifier's exit code and its verdict word (what it printed before the first colon)."""
    code, printed = run_offline(tmp_path, record, key)
    return code, printed.split(":")[0]


def recomputed(record: dict[str, Any]) -> dict[str, Any]:
    """The chain made to follow again from the (edited) entries, as anyone can: no key needed."""
    previous = genesis(record)
    for entry in record["events"]:
        previous = entry["hash"] = link(previous, entry["seq"], entry["event"])
    record["chain"]["head"] = previous
    return record


def test_the_published_key_checks_an_export_offline(
    client: FlaskClient, record: dict[str, Any], tmp_path: Path
) -> None:
    key = client.get("/api/record-key").get_json()
    assert key["algorithm"] == "Ed25519" and record["signature"]["key_id"] == key["key_id"]
    assert key["public_key_pem"].startswith("-----BEGIN PUBLIC KEY-----")
    assert offline(tmp_path, record, key) == (0, "valid")
    verdict = client.post("/api/verify", json=record).get_json()
    assert verdict["valid"] is True and verdict["signature"] == "valid"


def test_an_edited_export_with_its_chain_recomputed_is_not_valid(
    client: FlaskClient, record: dict[str, Any], tmp_path: Path
) -> None:
    """Two dice of one move swapped (2, 1 → 1, 2): the game replays to the same result and the
    recomputed chain is whole — only the signature tells."""
    events = record["events"]
    assert [events[1]["event"], events[2]["event"]] == [
        {"type": "die", "value": 2},
        {"type": "die", "value": 1},
    ]
    events[1]["event"], events[2]["event"] = events[2]["event"], events[1]["event"]
    forged = recomputed(record)
    verdict = client.post("/api/verify", json=forged).get_json()
    assert verdict["chain"]["intact"] is True and verdict["claimed_result_matches"] is True
    assert verdict["valid"] is False and verdict["signature"] == "invalid"
    assert verdict["problem"]["code"] == "record-signature-invalid"
    assert offline(tmp_path, forged, client.get("/api/record-key").get_json()) == (1, "invalid")


def test_a_changed_table_id_or_another_key_is_not_valid(
    client: FlaskClient, record: dict[str, Any], tmp_path: Path
) -> None:
    elsewhere = {**record, "table_id": "AAAAAAAAAAAAAAAA"}
    assert client.post("/api/verify", json=elsewhere).get_json()["signature"] == "invalid"
    key = client.get("/api/record-key").get_json()
    other = {**key, "key_id": "0" * 16, "keys": [{**k, "key_id": "0" * 16} for k in key["keys"]]}
    assert offline(tmp_path, record, other) == (1, "invalid")


@pytest.mark.parametrize("strip", ["signature", "chain", "everything"])
def test_a_stripped_record_is_unsigned_never_valid(
    client: FlaskClient, record: dict[str, Any], tmp_path: Path, strip: str
) -> None:
    if strip == "signature":
        del record["signature"]
    else:
        del record["chain"], record["signature"]
    if strip == "everything":
        record["events"] = [{"seq": e["seq"], "event": e["event"]} for e in record["events"]]
    verdict = client.post("/api/verify", json=record).get_json()
    assert verdict["signature"] == "unsigned" and verdict["valid"] is False
    assert verdict["problem"]["code"] == "record-unsigned"
    assert verdict["claimed_result_matches"] is True  # the replay itself is fine: nobody vouches for it
    assert offline(tmp_path, record, client.get("/api/record-key").get_json()) == (2, "unsigned")
