"""Pagination and ETags wherever a list or a resource can grow (issue 35): the sheet library pages
like a group's history (`Link: rel=next`), and every polled read — a group, its statistics, history
and exports, the library, a sheet, a finished game's record and log — answers 304 to its own ETag
while nothing changed, and a new ETag once something did. Through the app's real HTTP handling."""

from __future__ import annotations

import copy
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api.http.conditional import ETAGGED
from tests.api.group_builder import file_finished, new_group, stores
from tests.api.test_sheet_library_http import create_sheet, publish
from tests.openapi_document import openapi_document
from tests.rules.magellan_support import test_sheet as full_sheet


def distinct_sheet(number: int) -> dict[str, Any]:
    """A complete test sheet whose first field says `number` crowns: each number its own publication."""
    sheet = copy.deepcopy(full_sheet())
    node: Any = sheet["explorers"]
    while "crowns" not in node:
        node = node[sorted(node)[0]] if isinstance(node, dict) else node[0]
    node["crowns"] = 50 + number
    return sheet


def follow(client: FlaskClient, url: str) -> list[dict[str, Any]]:
    """Every page from `url` on, by the Link header, checking it names the body's `next`."""
    pages = []
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        pages.append(body)
        link = answer.headers.get("Link")
        assert (link is None) == (body["next"] is None), (link, body["next"])
        url = re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1) if link else ""  # type: ignore[union-attr]
        assert not url or url == body["next"]
    return pages


def test_the_library_pages_by_link(client: FlaskClient) -> None:
    ids = []
    for number in range(5):
        sheet_id, token = create_sheet(client, distinct_sheet(number))
        answer = publish(client, sheet_id, token, "Club edition" if number < 3 else f"Edition {number}")
        assert answer.status_code == 201, answer.get_json()
        ids.append(answer.get_json()["publication"]["id"])
    # One edition, two publications a page: 2 + 1.
    pages = follow(client, "/api/sheets/library?game=magellan&edition=Club%20edition&limit=2")
    assert [len(p["editions"][0]["publications"]) for p in pages] == [2, 1]
    listed = [pub["id"] for p in pages for pub in p["editions"][0]["publications"]]
    assert sorted(listed) == sorted(ids[:3])
    # The whole game, one edition a page: three editions, each once.
    pages = follow(client, "/api/sheets/library?game=magellan&limit=1")
    assert [len(p["editions"]) for p in pages] == [1, 1, 1]
    assert len({p["editions"][0]["edition"] for p in pages}) == 3
    assert pages[-1]["next_after"] is None
    # Without paging parameters: everything on one page, as the phone asks.
    whole = client.get("/api/sheets/library?game=magellan").get_json()
    assert len(whole["editions"]) == 3 and whole["next"] is None


def assert_conditional(client: FlaskClient, url: str) -> str:
    """200 with an ETag; the same request with If-None-Match: 304, no body, the same tag."""
    first = client.get(url)
    assert first.status_code == 200, (url, first.get_data()[:200])
    etag = first.headers["ETag"]
    assert etag.startswith('W/"'), etag
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag, url
    other = client.get(url, headers={"If-None-Match": 'W/"something-else"'})
    assert other.status_code == 200 and other.headers["ETag"] == etag
    return str(etag)


def test_polled_reads_answer_304_until_they_change(app: Flask, client: FlaskClient) -> None:
    tables, groups = stores(app)
    group_id, token, players = new_group(groups, 3)
    table_id = file_finished(groups, group_id, token, players[:2], [(0, 64), (1, 32)])
    sheet_id, _ = create_sheet(client, distinct_sheet(1))
    urls = {
        "getGroup": f"/api/groups/{group_id}",
        "getGroupStats": f"/api/groups/{group_id}/stats",
        "getGroupHeadToHead": f"/api/groups/{group_id}/head-to-head?a={players[0]}&b={players[1]}",
        "getGroupHistory": f"/api/groups/{group_id}/history?limit=1",
        "getGroupTableProgress": f"/api/groups/{group_id}/tables/{table_id}/progress",
        "exportGroupCsv": f"/api/groups/{group_id}/export.csv",
        "listSheetLibrary": "/api/sheets/library?game=magellan",
        "getSheet": f"/api/sheets/{sheet_id}",
        "exportRecord": f"/api/tables/{table_id}/export",
        "exportCsv": f"/api/tables/{table_id}/export.csv",
        "exportBgStats": f"/api/tables/{table_id}/export/bgstats",
        "getRecordKey": "/api/record-key",
        "getLog": f"/api/tables/{table_id}/events",
    }
    assert set(urls) == ETAGGED  # every tagged operation is tried here (a group's JSON export says
    # when it was made, `exported_at`: a download, not something polled, so it carries no tag)
    tags = {operation: assert_conditional(client, url) for operation, url in urls.items()}
    # The group changes (another finished game): its reads answer anew, with new tags.
    file_finished(groups, group_id, token, players[1:], [(0, 16)])
    for operation in ("getGroup", "getGroupStats", "getGroupHistory", "exportGroupCsv"):
        answer = client.get(urls[operation], headers={"If-None-Match": tags[operation]})
        assert answer.status_code == 200 and answer.headers["ETag"] != tags[operation], operation
    # Compressed or not, one answer has one (weak) tag, and it is honoured either way.
    packed = client.get(urls["exportRecord"], headers={"Accept-Encoding": "br"})
    assert packed.headers.get("Content-Encoding") == "br" and packed.headers["ETag"] == tags["exportRecord"]
    again = client.get(
        urls["exportRecord"], headers={"Accept-Encoding": "br", "If-None-Match": tags["exportRecord"]}
    )
    assert again.status_code == 304


def test_the_document_says_so_on_every_tagged_read() -> None:
    doc = openapi_document()
    operations = {
        operation["operationId"]: operation
        for item in doc["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    for operation_id in ETAGGED:
        operation = operations[operation_id]
        assert {"$ref": "#/components/parameters/IfNoneMatch"} in operation["parameters"], operation_id
        assert "ETag" in operation["responses"]["200"]["headers"], operation_id
        assert "304" in operation["responses"], operation_id
