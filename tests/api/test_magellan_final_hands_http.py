"""Issue 33 item 6 through the HTTP API, on SQLite and PostgreSQL: every hand typed in goes in as ONE
entry (`final_hands`, MG-10). A refused hand (the third would make more than seven 3s, MG-1) leaves
the table exactly as it was — no hand stored, no log entry, the same version — and the same hands
corrected are stored together in one log entry."""

from __future__ import annotations

from typing import Any

from tests.api.table_client import TableDriver
from tests.api.test_magellan_examples_http import BLUE, GREEN, RED, play_the_example_game
from tests.conftest import make_test_app


def log(t: TableDriver) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = t.client.get(f"/api/tables/{t.id}/events").get_json()["events"]
    return events


def entered(t: TableDriver) -> list[bool]:
    table = t.client.get(f"/api/tables/{t.id}").get_json()
    return [p["final_hand_entered"] for p in table["state"]["players"]]


def test_all_hands_or_none(db_url: str) -> None:
    client = make_test_app(db_url).test_client()
    t = play_the_example_game(client)
    assert t.legal["step"] == "final_hand"
    before_log, before_version = log(t), t.table["version"]
    bad = {str(RED): [8], str(BLUE): [1, 1, 1, 2, 2, 2, 3, 3, 3], str(GREEN): [3, 3, 3, 3, 3, 3, 3]}
    refused = t.post({"type": "final_hands", "hands": bad})
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["code"] == "too-many-copies"
    assert "Green" in refused.get_json()["detail"]
    assert log(t) == before_log
    assert entered(t) == [False, False, False]
    assert client.get(f"/api/tables/{t.id}").get_json()["version"] == before_version

    good = {str(RED): [8], str(BLUE): [1, 1, 1, 2, 2, 2, 3, 3, 3], str(GREEN): [7]}
    t.play({"type": "final_hands", "hands": good})
    assert entered(t) == [True, True, True]
    added = log(t)[len(before_log) :]
    assert len(added) == 1 and "final_hands" in str(added[0])
    # One entry: one undo takes every hand back (the table is as before the sheet).
    t.undo()
    assert entered(t) == [False, False, False]


def test_a_malformed_hands_object_is_a_clear_422(client: Any) -> None:
    t = play_the_example_game(client)
    answer = t.post({"type": "final_hands", "hands": {"seven": [1]}})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid-hands"
    assert answer.headers["Content-Type"].startswith("application/problem+json")
