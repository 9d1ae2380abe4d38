"""Issue 31, holes 2 and 7: a group's history and exports come a page at a time (keyset on the
table's place in the group, `Link: rel=next` as the table log pages), a group holds a stated number
of tables, and the smaller holes: CSV cells escaped (a table id may start with `-`), `abandoned` a
strict boolean, head-to-head of a player with themselves refused."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

import api.groups.store as group_store
import api.tables.store as table_store
from tests.api.group_builder import end, file_finished, mhing_table, new_group, stores
from tests.api.test_groups_http import bearer


def walk(client: FlaskClient, path: str) -> list[Any]:
    """Every page from `path` on, by the `Link` header; each page's body (JSON or text)."""
    pages: list[Any] = []
    while path:
        response = client.get(path)
        assert response.status_code == 200, response.get_data(as_text=True)
        pages.append(response.get_json() if response.is_json else response.get_data(as_text=True))
        link = response.headers.get("Link")
        path = re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1) if link else ""  # type: ignore[union-attr]
    return pages


@pytest.fixture
def club(any_db_client: FlaskClient) -> tuple[FlaskClient, str, str, list[str], list[str]]:
    """A group of 7 tables, oldest first: 5 finished Mhing games and 2 still playing."""
    client = any_db_client
    tables, groups = stores(client.application)
    gid, token, players = new_group(groups, 3)
    ids = []
    for i in range(7):
        seats = [players[i % 3], players[(i + 1) % 3]]
        if i in (2, 5):
            table_id, table_token, _ = mhing_table(tables, [(0, 2)], 2)
            groups.add_table(gid, token, table_id, table_token, seats)
        else:
            table_id = file_finished(groups, gid, token, seats, [(i % 2, 8)])
        ids.append(table_id)
    return client, gid, token, players, ids


def test_history_pages_newest_first_with_filters(club: Any) -> None:
    client, gid, _token, players, ids = club
    pages = walk(client, f"/api/groups/{gid}/history?limit=3")
    assert [len(p["entries"]) for p in pages] == [3, 3, 1]
    assert [e["table_id"] for p in pages for e in p["entries"]] == ids[::-1]
    assert pages[0]["next"] == f"/api/groups/{gid}/history?before=5&limit=3" and pages[-1]["next"] is None
    whole = client.get(f"/api/groups/{gid}/history").get_json()
    assert [e["table_id"] for e in whole["entries"]] == ids[::-1] and whole["next_before"] is None
    mine = walk(client, f"/api/groups/{gid}/history?limit=2&player={players[0]}")
    seated = [i for i, _ in enumerate(ids) if players[0] in (players[i % 3], players[(i + 1) % 3])]
    assert [e["table_id"] for p in mine for e in p["entries"]] == [ids[i] for i in seated[::-1]]
    assert all(f"player={players[0]}" in p["next"] for p in mine[:-1])
    assert client.get(f"/api/groups/{gid}/history?game=mahe").get_json()["entries"] == []
    # A player id with LIKE's wildcard `_` matches nobody rather than everyone; `%` is no id at all.
    assert client.get(f"/api/groups/{gid}/history?player=_").get_json()["entries"] == []
    assert client.get(f"/api/groups/{gid}/history?player=________").get_json()["entries"] == []
    for bad in (
        "limit=0",
        "limit=201",
        "before=0",
        "before=x",
        "player=%25",
        "player=%00",
        "player=" + "a" * 17,
    ):
        assert client.get(f"/api/groups/{gid}/history?{bad}").status_code in (400, 422), bad


def test_exports_page_oldest_first_and_add_up_to_the_group(club: Any) -> None:
    client, gid, _token, _players, ids = club
    pages = walk(client, f"/api/groups/{gid}/export?limit=3")
    assert [len(p["memberships"]) for p in pages] == [3, 3, 1]
    assert [m["table_id"] for p in pages for m in p["memberships"]] == ids
    assert [r["table_id"] for p in pages for r in p["records"]] == [
        t for i, t in enumerate(ids) if i not in (2, 5)
    ]
    assert all(p["statistics"]["counted_tables"] == 5 and p["group"]["tables"] == 7 for p in pages)
    assert pages[0]["next_after"] == 3 and pages[-1]["next"] is None
    assert client.get(f"/api/groups/{gid}/export?limit=26").status_code == 422
    csv_pages = walk(client, f"/api/groups/{gid}/export.csv?limit=4")
    rows = [row for page in csv_pages for row in csv.DictReader(io.StringIO(page))]
    assert len(csv_pages) == 2 and len(rows) == 14  # two seats per table, a header on each page
    assert [r["table_id"].lstrip("'") for r in rows[::2]] == ids


def test_csv_cells_a_spreadsheet_would_run_are_escaped(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table id is URL-safe base64 and may start with `-` (or a name with `=`): never a formula."""
    tables, groups = stores(client.application)
    gid, token, players = new_group(groups, 2)
    monkeypatch.setattr(table_store, "new_table_id", lambda: "-2-3" + "a" * 12)
    table_id, table_token, version = mhing_table(tables, [(0, 4)], 2)
    monkeypatch.undo()
    end(tables, table_id, table_token, version)
    groups.add_table(gid, token, table_id, table_token, players)
    group = client.get(f"/api/groups/{gid}").get_json()
    renamed = [
        {**p, "name": "=HYPERLINK(1)" if i == 0 else p["name"]} for i, p in enumerate(group["players"])
    ]
    body = {"name": "Club", "players": renamed, "expected_version": 1}
    assert client.put(f"/api/groups/{gid}", json=body, headers=bearer(token)).status_code == 200
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/groups/{gid}/export.csv").get_data(as_text=True)))
    )
    assert {r["table_id"] for r in rows} == {"'" + table_id}
    assert rows[0]["player"] == "'=HYPERLINK(1)"
    for row in rows:
        assert not any(cell[:1] in ("=", "+", "-", "@") for cell in row.values() if cell)


def test_abandoned_is_a_strict_boolean(client: FlaskClient) -> None:
    tables, groups = stores(client.application)
    gid, token, players = new_group(groups, 2)
    table_id, table_token, _ = mhing_table(tables, [], 2)
    groups.add_table(gid, token, table_id, table_token, players)
    path = f"/api/groups/{gid}/tables/{table_id}"
    for bad in ("yes", 1, 0, "false", "true", None, [], {}):
        response = client.patch(path, json={"abandoned": bad}, headers=bearer(token))
        assert response.status_code == 422, bad
    assert groups.membership(gid, table_id).abandoned is False  # type: ignore[union-attr]
    assert client.patch(path, json={"abandoned": True}, headers=bearer(token)).get_json()["abandoned"] is True


def test_head_to_head_of_a_player_with_themselves_is_refused(client: FlaskClient) -> None:
    _tables, groups = stores(client.application)
    gid, _token, players = new_group(groups, 2)
    response = client.get(f"/api/groups/{gid}/head-to-head?a={players[0]}&b={players[0]}")
    assert response.status_code == 422 and response.get_json()["code"] == "same-player"
    assert client.get(f"/api/groups/{gid}/head-to-head?a={players[0]}&b={players[1]}").status_code == 200


def test_a_full_group_refuses_another_table(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tables, groups = stores(client.application)
    monkeypatch.setattr(group_store, "MAX_TABLES", 2)
    gid, token, players = new_group(groups, 2)
    made = [mhing_table(tables, [], 2) for _ in range(3)]
    for table_id, table_token, _ in made[:2]:
        groups.add_table(gid, token, table_id, table_token, players)
    table_id, table_token, _ = made[2]
    body = {"table_id": table_id, "table_token": table_token, "seats": players}
    response = client.post(f"/api/groups/{gid}/tables", json=body, headers=bearer(token))
    assert response.status_code == 422 and response.get_json()["code"] == "group-full"
    assert "2 tables" in response.get_json()["detail"] and groups.count(gid) == 2
    again = {"table_id": made[0][0], "table_token": made[0][1], "seats": players}  # already in: fine
    assert client.post(f"/api/groups/{gid}/tables", json=again, headers=bearer(token)).status_code == 201


def test_the_group_view_reads_one_table_per_game(club: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, gid, _token, _players, ids = club
    tables, _groups = stores(client.application)
    read: list[str] = []
    original = type(tables).get
    monkeypatch.setattr(
        type(tables), "get", lambda self, table_id: read.append(table_id) or original(self, table_id)
    )
    group = client.get(f"/api/groups/{gid}").get_json()
    assert group["tables"] == 7 and [s["table_id"] for s in group["last_seating"]] == [ids[-1]]
    assert read == [ids[-1]]
