"""Issue 31, hole 1: no `Last-Event-ID` makes a group's stream do more than the group holds.

Properties (hypothesis, over ids drawn from the documented pattern `outcomes.ID_PATTERN`):
* decoding an id for a group of n tables materialises at most n statuses, and clipping it there
  changes nothing a stream says (tables past the group's end never matter);
* a resume reads the statuses once, then three reads per chunk of 10 changes (the group, the chunk's
  memberships, their tables' shown columns) and never a table's log: its work is O(changes since),
  whatever the id names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.db.migrate import upgrade
from api.groups import outcomes
from api.groups.store import GroupStore
from api.http.groups import STREAM_CHUNK
from api.tables.store import TableStore
from tests.api.group_builder import end, mhing_table, new_group, stores
from tests.api.test_group_stream import parse
from tests.conftest import make_test_app

IDS = st.from_regex(outcomes.ID_PATTERN, fullmatch=True).filter(lambda s: len(s) <= outcomes.MAX_ID)
STATUSES = st.lists(st.sampled_from(["finished", "abandoned", "playing"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(IDS, STATUSES)
def test_an_id_is_decoded_no_further_than_the_group_and_that_changes_nothing(
    event_id: str, statuses: list[str]
) -> None:
    n = len(statuses)
    clipped = outcomes.decode(event_id, limit=n)
    assert len(clipped) <= n
    full = outcomes.decode(event_id)  # as before: up to MAX_TABLES
    assert clipped == full[:n]
    now = [(f"t{i}", s) for i, s in enumerate(statuses)]
    said = list(outcomes.changes(list(clipped), now))
    assert said == list(outcomes.changes(list(full), now))
    assert len(said) <= n


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 999_999), st.sampled_from("fap"), st.integers(1, 1365))
def test_the_largest_ids_cost_the_group_not_the_id(count: int, letter: str, runs: int) -> None:
    """`999999a` repeated to the 4,096-character limit names ~585 million tables: 3 are read."""
    event_id = f"{count}{letter}" * runs
    if len(event_id) > outcomes.MAX_ID:
        event_id = event_id[: outcomes.MAX_ID - outcomes.MAX_ID % len(f"{count}{letter}")]
    assert len(outcomes.decode(event_id, limit=3)) <= 3


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str, list[tuple[str, str]]]]:
    """A group of 12 tables: 5 finished, 2 of them abandoned later, 1 abandoned unfinished, 6 playing."""
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('cost')) / 'kibitz.sqlite3'}"
    upgrade(url)
    app = make_test_app(url)
    tables, groups = stores(app)
    gid, token, players = new_group(groups, 4)
    for i in range(12):
        table_id, table_token, version = mhing_table(tables, [(i % 2, 4)], 2)
        groups.add_table(gid, token, table_id, table_token, [players[i % 4], players[(i + 1) % 4]])
        if i % 2 == 0 and i < 10:
            end(tables, table_id, table_token, version)
        if i in (2, 6, 11):
            groups.set_abandoned(gid, token, table_id, True)
    yield app, gid, groups.outcomes(gid)


class Reads:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: Counter[str] = Counter()
        for owner, name in (
            (GroupStore, "get"),
            (GroupStore, "membership"),
            (GroupStore, "memberships_of"),
            (GroupStore, "memberships"),
            (GroupStore, "outcomes"),
            (GroupStore, "table_facts"),
            (TableStore, "get"),
            (TableStore, "log"),
        ):
            monkeypatch.setattr(owner, name, self.counted(f"{owner.__name__}.{name}", getattr(owner, name)))

    def counted(self, key: str, method: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.counts[key] += 1
            return method(*args, **kwargs)

        return wrapper


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(IDS)
def test_a_resume_reads_o1_rows_per_change_and_never_a_log(
    built: tuple[Flask, str, list[tuple[str, str]]], monkeypatch: pytest.MonkeyPatch, event_id: str
) -> None:
    app, gid, now = built
    with monkeypatch.context() as patch:
        reads = Reads(patch)
        response = app.test_client().get(f"/api/groups/{gid}/stream", headers={"Last-Event-ID": event_id})
        assert response.status_code == 200
        events = parse(response.get_data(as_text=True))
    expected = list(outcomes.changes(outcomes.decode(event_id, limit=len(now)), now))
    assert [(e["event"], e["data"]["entry"]["table_id"]) for e in events] == [(k, t) for _, t, k in expected]
    counts = reads.counts
    assert counts["TableStore.log"] == 0 and counts["GroupStore.memberships"] == 0
    assert counts["GroupStore.outcomes"] <= 2  # the statuses, once (again when a table joined)
    chunks = -(-len(events) // STREAM_CHUNK)
    for read in ("GroupStore.memberships_of", "GroupStore.table_facts"):
        assert counts[read] == chunks, read
    assert counts["GroupStore.membership"] == counts["TableStore.get"] == 0
    assert counts["GroupStore.get"] == 1 + chunks  # the 404 check, then one per chunk
