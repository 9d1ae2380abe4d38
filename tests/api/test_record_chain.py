"""Records anyone can trust: every exported entry carries a SHA-256 over the previous entry's hash
and its own canonical content. Change any entry, delete one, swap two or cut the end off, and
POST /api/verify names the first entry that no longer follows."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.finished_game import play_short_game

RECORD: dict[str, Any] = {}


@pytest.fixture
def record(client: FlaskClient) -> dict[str, Any]:
    if not RECORD:
        RECORD.update(client.get(f"/api/tables/{play_short_game(client).id}/export").get_json())
    return copy.deepcopy(RECORD)


def verdict(client: FlaskClient, record: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/verify", json=record)
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json())


def test_the_chain_is_what_the_document_says(record: dict[str, Any]) -> None:
    """Recomputed here from its definition alone, as a third party would."""
    # The chain's header keeps format 1's name in every record format (docs/records.md).
    header = {"format": "kibitz-record/1", **{k: record[k] for k in ("game", "players", "options")}}
    header["seed"] = int(record["seed"])  # format 3 carries it as decimal digits; the chain an integer
    canon = lambda v: json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()  # noqa: E731
    previous = hashlib.sha256(canon(header)).hexdigest()
    for entry in record["events"]:
        content = canon({"seq": entry["seq"], "event": entry["event"]})
        previous = hashlib.sha256(previous.encode() + b"\n" + content).hexdigest()
        assert entry["hash"] == previous
    signature = record["signature"]
    assert record["chain"] == {"algorithm": "sha256", "length": len(record["events"]), "head": previous}
    assert signature["algorithm"] == "Ed25519"  # checked in tests/hostile/test_record_tamper.py


def flip(value: Any) -> Any:
    """The smallest change of one value: one digit, one letter, one truth value."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("b" if value[-1:] != "b" else "c")
    return value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_changed_entry_is_named(client: FlaskClient, record: dict[str, Any], data: st.DataObject) -> None:
    record = copy.deepcopy(record)  # one fixture for every example: each changes its own copy
    index = data.draw(st.integers(0, len(record["events"]) - 1))
    entry = record["events"][index]
    field = data.draw(st.sampled_from(sorted(entry["event"])))
    entry["event"][field] = flip(entry["event"][field])
    answer = verdict(client, record)
    assert not answer["valid"] and answer["problem"]["code"] == "record-tampered"
    assert answer["chain"] == {
        "intact": False,
        "index": index,
        "seq": entry["seq"],
        "reason": "changed-removed-or-reordered",
    }


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_deleted_or_swapped_entry_is_named(
    client: FlaskClient, record: dict[str, Any], data: st.DataObject
) -> None:
    record = copy.deepcopy(record)
    events = record["events"]
    index = data.draw(st.integers(0, len(events) - 2))
    if data.draw(st.booleans()):
        del events[index]
    else:
        events[index], events[index + 1] = events[index + 1], events[index]
    answer = verdict(client, record)
    assert not answer["valid"] and answer["chain"]["index"] == index


def test_a_changed_header_or_cut_end_is_caught(client: FlaskClient, record: dict[str, Any]) -> None:
    players = copy.deepcopy(record)
    players["players"][0]["name"] = "Mallory"
    assert verdict(client, players)["chain"]["index"] == 0  # the first entry builds on the header
    cut = copy.deepcopy(record)
    cut["events"] = cut["events"][:-3]
    assert verdict(client, cut)["chain"] == {
        "intact": False,
        "index": len(cut["events"]),
        "seq": None,
        "reason": "entries-missing-at-the-end",
    }
    assert verdict(client, record)["valid"]
