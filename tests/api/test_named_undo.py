"""An undo names the entry it takes back (issue 21, failure 2): `{"type": "undo", "undoes": seq}` is
refused unless that entry is the last one in effect, so an undo made on one phone never takes back
another phone's entry; a bare undo keeps meaning the last entry at `expected_version`. The phone's
referee (api.rules.referee) refuses alike."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.referee import Referee
from tests.api.table_client import STOP, TableDriver, die, four_players, reveal
from tests.api.test_tables_http import assert_problem, log_length


def test_a_named_undo_takes_back_only_the_entry_it_names(any_db_client: FlaskClient) -> None:
    t = TableDriver.create(any_db_client, **four_players())
    t.play(reveal(4), die(2))  # entries 1 and 2
    t.play(STOP)  # entry 3: another phone's Stop
    # A phone meant its die (entry 2): refused, the Stop stays and nothing is stored.
    body = assert_problem(t.post({"type": "undo", "undoes": 2}), 422, "undo-not-last")
    assert "2" in body["detail"] and "3" in body["detail"]
    assert log_length(any_db_client, t.id) == 3 and t.refresh()["version"] == 3
    t.play({"type": "undo", "undoes": 3})
    t.play({"type": "undo", "undoes": 2})  # entry 2 is the last in effect again
    log = any_db_client.get(f"/api/tables/{t.id}/events").get_json()["events"]
    assert [(e["kind"], e["undoes"]) for e in log[3:]] == [("undo", 3), ("undo", 2)]
    assert log[3]["event"] == {"type": "undo", "undoes": 3}  # the log shows what was named
    assert_problem(t.post({"type": "undo", "undoes": 2}), 422, "undo-not-last")  # not twice
    t.play({"type": "undo"})  # bare: the last in effect at expected_version (entry 1)
    assert_problem(t.post({"type": "undo", "undoes": 1}), 422, "nothing-to-undo")


@pytest.mark.parametrize("target", [0, -1, "2", True, 2.5, None])
def test_a_bad_target_is_refused(client: FlaskClient, target: object) -> None:
    t = TableDriver.create(client, **four_players())
    t.play(reveal(4), die(2))
    response = t.post({"type": "undo", "undoes": target})
    if target is None:  # null reads as left out: a bare undo
        assert response.status_code == 201
        return
    assert_problem(response, 422, "invalid-undo-target")
    assert_problem(t.post({"type": "undo", "what": 2}), 422, "undo-takes-no-fields")
    assert log_length(client, t.id) == 2


def _referee_answer(events: list[dict]) -> dict:
    request = {
        "op": "open",
        "id": "t",
        "game": "mhing",
        "players": [{"name": n} for n in ("Eva", "Tom", "Ann")],
        "options": {},
        "seed": 0,
        "events": events,
    }
    return dict(json.loads(Referee().handle(json.dumps(request))))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.just("round"), st.integers(min_value=1, max_value=8)), max_size=10))
def test_the_phone_referee_checks_named_undos_as_the_server_does(steps: list) -> None:
    """Rounds and undos naming random entries: the phone's referee accepts exactly those logs in
    which every named undo names the last entry in effect (the server's rule, by log position)."""
    events: list[dict] = []
    stack: list[int] = []
    expected_ok = True
    for step in steps:
        if step == "round":
            events.append({"type": "round_drawn"})
            stack.append(len(events))
        else:
            events.append({"type": "undo", "undoes": step})
            if not stack or stack[-1] != step:
                expected_ok = False
                break
            stack.pop()
    answer = _referee_answer(events)
    assert answer["ok"] is expected_ok, (events, answer)
    if not expected_ok:
        assert answer["index"] == len(events) - 1
        assert answer["error"]["code"] in ("undo-not-last", "nothing-to-undo")
