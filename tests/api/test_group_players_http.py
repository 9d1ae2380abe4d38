"""Issue 33, item 9 over HTTP: a page per player (streaks and records with the table they happened
at), the date filter on history and statistics, and plays with "last played" per game — on SQLite
and PostgreSQL, read with the group's id alone (the read link)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import update

from api.db.schema import game_tables
from tests.api.group_builder import end, file_finished, mhing_table, new_group, stores, undo


def started(groups: Any, table_id: str, when: datetime) -> None:
    """Move a table's start (and last entry) to a given day, as if it was played then."""
    with groups.engine.begin() as conn:
        conn.execute(
            update(game_tables).where(game_tables.c.id == table_id).values(created_at=when, updated_at=when)
        )


def test_a_players_page_has_streaks_and_records_with_their_tables(any_db_client: FlaskClient) -> None:
    client = any_db_client
    tables, groups = stores(client.application)
    gid, token, (ann, ben, cid) = new_group(groups, 3)
    # Ann wins, wins, loses, wins, wins, wins (MH-8 points decide; MH-9 ends each game).
    results = [(0, 8), (0, 32), (1, 16), (0, 4), (0, 64), (0, 2)]
    filed = []
    for winner, points in results:
        table_id, table_token, version = mhing_table(tables, [(winner, points)], 2)
        filed.append((table_id, table_token, end(tables, table_id, table_token, version)))
        groups.add_table(gid, token, table_id, table_token, [ann, ben])
    ids = [table_id for table_id, _, _ in filed]
    for day, table_id in enumerate(ids, start=1):
        started(groups, table_id, datetime(2026, 11, day, 20, tzinfo=UTC))
    page = client.get(f"/api/groups/{gid}/players/{ann}")
    assert page.status_code == 200, page.get_json()
    body = page.get_json()
    assert (body["games"], body["wins"], body["win_rate"]) == (6, 5, 0.8333)
    assert body["streaks"] == {"current": 3, "longest": 3}
    assert body["by_game"]["mhing"]["best_score"] == 64 and body["by_game"]["mhing"]["biggest_hand"] == 64
    assert body["records"] == [
        {
            "game": "mhing",
            "kind": "biggest_hand",
            "value": 64,
            "table_id": ids[4],
            "at": "2026-11-05T20:00:00+00:00",
        }
    ]
    assert body["last_played_at"] == "2026-11-06T20:00:00+00:00"
    assert body["last_played"] == [{"game": "mhing", "at": "2026-11-06T20:00:00+00:00"}]
    ben_page = client.get(f"/api/groups/{gid}/players/{ben}").get_json()
    assert ben_page["streaks"] == {"current": 0, "longest": 1}
    assert ben_page["records"][0]["table_id"] == ids[2] and ben_page["records"][0]["value"] == 16
    cid_page = client.get(f"/api/groups/{gid}/players/{cid}").get_json()
    assert (cid_page["games"], cid_page["records"], cid_page["last_played_at"]) == (0, [], None)

    # The record goes with its game: the end of table 5 undone (MH-9), the record and streak move.
    undo(tables, *filed[4])
    body = client.get(f"/api/groups/{gid}/players/{ann}").get_json()
    assert body["records"][0]["value"] == 32 and body["records"][0]["table_id"] == ids[1]
    assert body["streaks"] == {"current": 2, "longest": 2}

    # A window: 2–4 November (the whole last day in).
    window = client.get(f"/api/groups/{gid}/players/{ann}?from=2026-11-02&to=2026-11-04").get_json()
    assert (window["games"], window["wins"], window["streaks"]) == (3, 2, {"current": 1, "longest": 1})
    assert client.get(f"/api/groups/{gid}/players/nobody").status_code == 404
    assert client.get(f"/api/groups/{gid}/players/nobody").get_json()["code"] == "player-not-found"


def test_history_and_statistics_filtered_by_dates(any_db_client: FlaskClient) -> None:
    client = any_db_client
    tables, groups = stores(client.application)
    gid, token, (ann, ben) = new_group(groups, 2)
    days = {}
    for day, winner in ((3, 0), (10, 1), (20, 0)):
        table_id = file_finished(groups, gid, token, [ann, ben], [(winner, 8)])
        started(groups, table_id, datetime(2026, 11, day, 23, 30, tzinfo=UTC))
        days[day] = table_id
    history = client.get(f"/api/groups/{gid}/history?from=2026-11-04&to=2026-11-20").get_json()
    assert [e["table_id"] for e in history["entries"]] == [days[20], days[10]]
    # A phone's own midnight: 21 November 00:00 at +01:00 is 20 November 23:00 UTC, before 23:30.
    local = client.get(
        f"/api/groups/{gid}/history", query_string={"to": "2026-11-21T00:00:00+01:00"}
    ).get_json()
    assert [e["table_id"] for e in local["entries"]] == [days[10], days[3]]
    paged = client.get(f"/api/groups/{gid}/history?from=2026-11-01&limit=1").get_json()
    assert (
        paged["next"].startswith(f"/api/groups/{gid}/history?before=") and "from=2026-11-01" in paged["next"]
    )
    following = client.get(paged["next"]).get_json()
    assert [e["table_id"] for e in following["entries"]] == [days[10]]
    stats = client.get(f"/api/groups/{gid}/stats?from=2026-11-05").get_json()
    assert stats["counted_tables"] == 2
    assert {p["name"]: p["wins"] for p in stats["players"]} == {"Friend 0": 1, "Friend 1": 1}
    assert client.get(f"/api/groups/{gid}/stats").get_json()["counted_tables"] == 3
    for bad in ("2026-13-01", "yesterday", "2026-11-01T10:00:00"):
        answer = client.get(f"/api/groups/{gid}/history", query_string={"from": bad})
        assert answer.status_code == 422, bad
        assert answer.content_type == "application/problem+json"


def test_the_group_says_how_often_and_when_each_game_was_played(any_db_client: FlaskClient) -> None:
    client = any_db_client
    tables, groups = stores(client.application)
    gid, token, (ann, ben) = new_group(groups, 2)
    assert client.get(f"/api/groups/{gid}").get_json()["plays"] == []
    first = file_finished(groups, gid, token, [ann, ben], [(0, 8)])
    second = file_finished(groups, gid, token, [ben, ann], [(1, 4)])
    started(groups, first, datetime(2026, 11, 1, 20, tzinfo=UTC))
    started(groups, second, datetime(2026, 11, 7, 21, tzinfo=UTC))
    open_id, open_token, _ = mhing_table(tables, [(0, 2)], 2)  # still playing: not a play yet
    groups.add_table(gid, token, open_id, open_token, [ann, ben])
    assert client.get(f"/api/groups/{gid}").get_json()["plays"] == [
        {"game": "mhing", "games": 2, "last_played_at": "2026-11-07T21:00:00+00:00"}
    ]
    end(tables, open_id, open_token, tables.get(open_id).version)
    plays = client.get(f"/api/groups/{gid}").get_json()["plays"]
    assert plays[0]["games"] == 3 and plays[0]["last_played_at"] > "2026-11-07T21:00:00+00:00"
