"""Which head a record is (issue 31, hole 3): a format-2 record names its head (version, entries,
time of the last entry) and its signature binds every field; POST /api/verify says whether it is
still its table's record here (`currency`: current | superseded | unknown-table); the offline
verifier says what a file alone can tell. Mhing tables (MH-9 variant 1: 500 points end the game)
finish in one typed round, so finish → undo → finish is quick to script."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.db.migrate import upgrade
from api.tables.chain import RecordKey
from api.tables.record import signed_bytes
from tests.api.table_client import TableDriver
from tests.api.test_record_signature import run_offline as offline
from tests.conftest import make_test_app

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "verify_record.py"
NAMES = ["Eva", "Tom", "Ada"]


def typed(winner: int, points: int) -> dict[str, Any]:
    """MH-8: a round's points typed in (no hand); 512 takes the winner past MH-9's 500."""
    return {"type": "round_points", "winner": winner, "points": points, "discarder": None}


def mhing(client: FlaskClient) -> TableDriver:
    return TableDriver.create(client, game="mhing", players=[{"name": n} for n in NAMES], options={})


def export(t: TableDriver) -> dict[str, Any]:
    answer = t.client.get(f"/api/tables/{t.id}/export")
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json())


def verify(client: FlaskClient, record: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/verify", json=record)
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json())


def test_the_issue_eva_then_tom(client: FlaskClient, tmp_path: Path) -> None:
    """Eva wins, export; undo twice; Tom wins: the old export is valid but superseded, the new one
    current; offline both check out and the script says only the server knows which is current."""
    t = mhing(client)
    t.play(typed(1, 64), typed(0, 512))
    assert t.table["result"]["winners"] == [0]
    eva = export(t)
    assert eva["head"] == {"version": 2, "entries": 2, "at": eva["head"]["at"]}
    t.undo()
    t.undo()
    t.play(typed(1, 512))
    assert t.table["result"]["winners"] == [1] and t.table["version"] == 5
    tom = export(t)
    assert tom["head"]["entries"] == 5 and tom["events"][:2] == eva["events"]  # a prefix: append-only

    old = verify(client, eva)
    assert old["valid"] and old["signature"] == "valid"
    assert old["currency"] == "superseded" and old["current_head"] == {"version": 5, "entries": 5}
    new = verify(client, tom)
    assert new["valid"] and new["currency"] == "current" and new["current_head"]["entries"] == 5

    key = client.get("/api/record-key").get_json()
    code, said = offline(tmp_path, eva, key)
    assert code == 0 and said.startswith("valid:") and "only the server can say" in said


def test_the_export_is_deterministic(client: FlaskClient) -> None:
    """Nothing in an export is "now": the same table version exports the same bytes."""
    t = mhing(client)
    t.play(typed(0, 512))
    first = client.get(f"/api/tables/{t.id}/export").get_data()
    assert client.get(f"/api/tables/{t.id}/export").get_data() == first


@st.composite
def cycles(draw: st.DrawFn) -> list[tuple[list[tuple[int, int]], int, int]]:
    """Finish/undo/finish: each cycle plays a few rounds, finishes with a winner and, unless it is
    the last, undoes some of the entries in effect (at least the finishing one)."""
    count = draw(st.integers(1, 3))
    out = []
    for _ in range(count):
        rounds = draw(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([32, 64])), max_size=2))
        out.append((rounds, draw(st.integers(0, 2)), draw(st.integers(1, 3))))
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=cycles())
def test_any_finish_undo_finish_leaves_older_exports_superseded(
    client: FlaskClient, plan: list[tuple[list[tuple[int, int]], int, int]]
) -> None:
    """Property: after any sequence of finish / undo / finish on one table, every earlier export
    verifies as valid and `superseded` with the table's current entry count, and the last export as
    valid and `current`."""
    t = mhing(client)
    in_effect = 0
    exports = []
    for number, (rounds, winner, undos) in enumerate(plan):
        t.play(*(typed(w, p) for w, p in rounds), typed(winner, 512))
        in_effect += len(rounds) + 1
        exports.append(export(t))
        if number < len(plan) - 1:
            for _ in range(min(undos, in_effect)):
                t.undo()
                in_effect -= 1
    final = t.table["version"]
    verdicts = [verify(client, record) for record in exports]
    assert all(v["valid"] and v["signature"] == "valid" for v in verdicts), verdicts
    assert [v["currency"] for v in verdicts] == ["superseded"] * (len(plan) - 1) + ["current"]
    assert all(v["current_head"] == {"version": final, "entries": final} for v in verdicts)
    assert [r["head"]["entries"] for r in exports] == sorted({r["head"]["entries"] for r in exports})


def test_unknown_table_here_and_another_installations_key(client: FlaskClient, tmp_path: Path) -> None:
    """The same key on another database (a restored key, a table not here): valid, unknown-table.
    Another installation's key: not this server's signature, and its table is unknown here."""
    t = mhing(client)
    t.play(typed(2, 512))
    record = export(t)
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    upgrade(url)
    elsewhere = make_test_app(url).test_client()
    here_not = verify(elsewhere, record)
    assert here_not["valid"] and here_not["currency"] == "unknown-table" and here_not["current_head"] is None

    other = RecordKey(Ed25519PrivateKey.generate())
    foreign = copy.deepcopy(record)
    foreign["signature"] = {"algorithm": "Ed25519", "key_id": other.key_id}
    foreign["signature"]["value"] = other.sign_bytes(signed_bytes(foreign))
    verdict = verify(client, foreign)
    assert not verdict["valid"] and verdict["signature"] == "invalid"
    assert verdict["currency"] == "unknown-table" and verdict["problem"]["code"] == "record-signature-invalid"


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: each key or index down to every leaf (the signature's own
    value excepted: it is what is checked)."""
    out = [here] if here else []
    if isinstance(value, dict):
        for key, inner in value.items():
            if here + (key,) != ("signature", "value"):
                out += paths(inner, here + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            out += paths(inner, here + (index,))
    return out


def edited(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, None]
    if isinstance(value, dict):
        return {**value, "added": True}
    return "was-null"


RECORD: dict[str, Any] = {}


@pytest.fixture
def record(client: FlaskClient) -> dict[str, Any]:
    if not RECORD:
        t = mhing(client)
        t.play(typed(1, 64), {"type": "round_drawn"}, typed(0, 512))
        RECORD.update(export(t))
    return copy.deepcopy(RECORD)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_of_a_format_3_record_breaks_its_signature(
    client: FlaskClient, record: dict[str, Any], data: st.DataObject
) -> None:
    """Property: change any field anywhere in a format-3 record (`created_at`, `finished_at`, the
    head, the result, an event, the signature's key id …), or add a top-level field, and it is no
    longer valid — and the offline verifier agrees on what it checks (the signature)."""
    record = copy.deepcopy(record)
    where = data.draw(st.sampled_from([*paths(record), ("added-field",)]))
    holder: Any = record
    for step in where[:-1]:
        holder = holder[step]
    holder[where[-1]] = edited(holder.get(where[-1]) if isinstance(holder, dict) else holder[where[-1]])
    answer = client.post("/api/verify", json=record)
    if answer.status_code == 422:  # no longer a record at all (a field of the wrong type)
        return
    verdict = answer.get_json()
    assert not verdict["valid"] and verdict["signature"] != "valid", (where, verdict)


def test_edited_times_and_added_fields_offline(
    client: FlaskClient, record: dict[str, Any], tmp_path: Path
) -> None:
    key = client.get("/api/record-key").get_json()
    assert offline(tmp_path, record, key)[0] == 0
    for change in ({"created_at": "2020-01-01T00:00:00+00:00"}, {"finished_at": "x"}, {"note": "mine"}):
        code, said = offline(tmp_path, {**record, **change}, key)
        assert code == 1 and said.startswith("invalid:"), (change, said)


def format_1(record: dict[str, Any], key: RecordKey) -> dict[str, Any]:
    """What a format-1 export of the same table looked like: the head's signature in `chain`."""
    old = {k: v for k, v in record.items() if k not in ("head", "signature")}
    old["format"] = "kibitz-record/1"
    old["seed"] = int(old["seed"])  # formats 1 and 2 wrote it as a JSON integer
    chain = old["chain"]
    value = key.sign(old["table_id"], chain["length"], chain["head"])
    old["chain"] = {**chain, "signature": {"algorithm": "Ed25519", "key_id": key.key_id, "value": value}}
    return old


def test_a_format_1_record_is_checked_as_before_and_says_what_it_does_not_bind(
    client: FlaskClient, tmp_path: Path
) -> None:
    """Exports made before format 2 keep verifying, reported as format 1 with the fields their
    signature leaves open; their currency is known too (the head they sign is their table's)."""
    key: RecordKey = client.application.extensions["kibitz.store"].key
    t = mhing(client)
    t.play(typed(0, 512))
    old = format_1(export(t), key)
    verdict = verify(client, old)
    assert verdict["valid"] and verdict["format"] == "kibitz-record/1" and verdict["currency"] == "current"
    assert verdict["unbound"] == ["created_at", "finished_at", "result"]
    moved = verify(client, {**old, "created_at": "2001-01-01T00:00:00+00:00"})
    assert moved["valid"] and "created_at" in moved["unbound"]  # format 1's known gap, said plainly
    code, said = offline(tmp_path, old, client.get("/api/record-key").get_json())
    assert code == 0 and "does not bind created_at, finished_at, result" in said
