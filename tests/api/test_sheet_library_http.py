"""The library of board sheets (MG-2): a sheet typed in at one table is published for its edition,
other tables pick it and confirm it against their own board; counts are distinct tables.

MG-2 Decision: the software never invents printed values — every number here is test data that a
"player" typed in (made up for the test), passed on unchanged.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .table_client import TableDriver
from .test_sheets_http import blank, filled

PLAYERS = [{"name": n} for n in ("Eva", "Tom", "Ann", "Bob")]


def create_sheet(client: FlaskClient, data: dict[str, Any], name: str = "Our board") -> tuple[str, str]:
    created = client.post("/api/sheets", json={"game": "magellan", "name": name, "data": data})
    assert created.status_code == 201, created.get_json()
    return created.get_json()["id"], created.get_json()["edit_token"]


def publish(client: FlaskClient, sheet_id: str, token: str | None, edition: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/sheets/{sheet_id}/publish", json={"edition": edition}, headers=headers)


def table_with(client: FlaskClient, data: dict[str, Any] | None) -> TableDriver:
    options: dict[str, Any] = {"sides": {}, "depth": "outcomes", "chance": "physical"}
    if data is not None:
        options["board_sheet"] = data
    return TableDriver.create(client, game="magellan", players=PLAYERS, options=options)


def confirm(client: FlaskClient, publication_id: str, table: TableDriver, token: str | None = "own") -> Any:
    auth = table.token if token == "own" else token
    headers = {"Authorization": f"Bearer {auth}"} if auth else {}
    return client.post(
        f"/api/sheets/library/{publication_id}/confirm", json={"table_id": table.id}, headers=headers
    )


def library(client: FlaskClient, edition: str | None = None) -> dict[str, Any]:
    query = {"game": "magellan", **({"edition": edition} if edition else {})}
    response = client.get("/api/sheets/library", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def partial(client: FlaskClient) -> dict[str, Any]:
    """What one game needed: a few entries typed in (test numbers), the rest still null (MG-2)."""
    data = blank(client)
    for explorer in ("columbus", "cook", "magellan"):
        data["explorers"][explorer]["A"]["I"]["bags"] = 2
        data["explorers"][explorer]["A"]["III"]["bags"] = 4
    data["explorers"]["cook"]["A"]["III"]["crowns"] = 7
    return data


def test_publish_list_and_confirm_once_per_table(any_db_client: FlaskClient) -> None:
    """MG-2: published numbers are the typed ones; a table counts once however often it confirms."""
    client = any_db_client
    edition = f"Test edition {uuid.uuid4().hex[:6]}"
    data = partial(client)
    sheet_id, token = create_sheet(client, data)
    first = publish(client, sheet_id, token, edition)
    assert first.status_code == 201 and first.get_json()["created"] is True
    publication = first.get_json()["publication"]
    assert publication["data"] == data  # nothing filled in by the server (MG-2)
    assert publication["filled"] == 7 and publication["confirmations"] == 0
    assert publication["last_confirmed_at"] is None
    # Published again, however the edition is spelt: the same publication (200), not a twin.
    again = publish(client, sheet_id, token, "  " + edition.upper().replace(" ", "   ") + " ")
    assert again.status_code == 200 and again.get_json()["created"] is False
    assert again.get_json()["publication"]["id"] == publication["id"]

    tables = [table_with(client, data) for _ in range(3)]
    for table in tables:
        answer = confirm(client, publication["id"], table)
        assert answer.status_code == 200 and answer.get_json()["counted"] is True
    for table in tables[:2]:  # again: counted once per table
        answer = confirm(client, publication["id"], table)
        assert answer.status_code == 200 and answer.get_json()["counted"] is False
        assert answer.get_json()["publication"]["confirmations"] == 3
    listed = library(client, edition.lower())
    assert [e["edition"] for e in listed["editions"]] == [edition]
    [entry] = listed["editions"]
    assert entry["confirmations"] == 3 and entry["disagreements"] == []
    assert [(p["id"], p["confirmations"]) for p in entry["publications"]] == [(publication["id"], 3)]
    assert entry["publications"][0]["last_confirmed_at"] is not None
    assert any(e["edition"] == edition for e in library(client)["editions"])


def test_conflicting_publications_are_kept_apart(any_db_client: FlaskClient) -> None:
    """Two tables typed a different number for one entry: two publications, each its own numbers
    and count, and the entry named — never merged, never decided by the server (MG-2)."""
    client = any_db_client
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    ours = filled(blank(client), 3)
    theirs = copy.deepcopy(ours)
    theirs["explorers"]["cook"]["B"]["II"]["crowns"] = 5
    ours_id = publish(client, *create_sheet(client, ours), edition).get_json()["publication"]["id"]
    theirs_id = publish(client, *create_sheet(client, theirs), edition.lower()).get_json()["publication"][
        "id"
    ]
    assert ours_id != theirs_id
    for _ in range(2):
        assert confirm(client, ours_id, table_with(client, ours)).status_code == 200
    assert confirm(client, theirs_id, table_with(client, theirs)).status_code == 200
    # A table with our numbers cannot confirm theirs: the differing entry is named.
    refused = confirm(client, theirs_id, table_with(client, ours))
    assert refused.status_code == 409 and refused.get_json()["code"] == "sheet-disagrees"
    assert refused.get_json()["entries"] == ["Cook side B field II: crowns"]
    [entry] = library(client, edition)["editions"]
    assert entry["edition"] == edition  # as first published
    assert entry["disagreements"] == ["Cook side B field II: crowns"]
    by_id = {p["id"]: p for p in entry["publications"]}
    assert (by_id[ours_id]["confirmations"], by_id[theirs_id]["confirmations"]) == (2, 1)
    assert by_id[ours_id]["data"] == ours and by_id[theirs_id]["data"] == theirs
    assert [p["id"] for p in entry["publications"]] == [ours_id, theirs_id]  # most confirmed first
    assert entry["confirmations"] == 3


def test_tokens_are_required(any_db_client: FlaskClient) -> None:
    client = any_db_client
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    data = partial(client)
    sheet_id, token = create_sheet(client, data)
    assert publish(client, sheet_id, None, edition).status_code == 401
    refused = publish(client, sheet_id, "wrong", edition)
    assert refused.status_code == 403 and refused.get_json()["code"] == "bad-edit-token"
    assert library(client, edition)["editions"] == []
    publication_id = publish(client, sheet_id, token, edition).get_json()["publication"]["id"]
    table = table_with(client, data)
    assert confirm(client, publication_id, table, token=None).status_code == 401
    assert confirm(client, publication_id, table, token="wrong").status_code == 403
    # The sheet's edit token is not the table's write token.
    assert confirm(client, publication_id, table, token=token).status_code == 403
    # A seat's own link does not speak for the whole table either.
    assert confirm(client, publication_id, table, token=table.seats[0]["token"]).status_code == 403
    [entry] = library(client, edition)["editions"]
    assert entry["publications"][0]["confirmations"] == 0


@pytest.mark.parametrize(
    ("edition", "status"),
    [
        ("", 422),
        ("   ", 422),
        ("x" * 81, 422),
        (7, 422),
        (None, 422),
        ("Edition\u202e", 400),  # a bidi override (api.http.strict.Name)
        ("Edition\u0000", 400),
    ],
)
def test_bad_publications_leave_the_library_untouched(client: FlaskClient, edition: Any, status: int) -> None:
    data = partial(client)
    sheet_id, token = create_sheet(client, data)
    before = library(client)
    assert publish(client, sheet_id, token, edition).status_code == status
    assert library(client) == before
    # A sheet without a single number has nothing to share (MG-2: nothing is invented).
    empty_id, empty_token = create_sheet(client, blank(client))
    refused = publish(client, empty_id, empty_token, "Some edition")
    assert refused.status_code == 422 and refused.get_json()["code"] == "empty-sheet"
    assert refused.mimetype == "application/problem+json"
    assert library(client) == before
    assert client.post("/api/sheets/nope/publish", json={"edition": "x"}).status_code == 404


def test_bad_confirmations_leave_counts_untouched(client: FlaskClient) -> None:
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    data = partial(client)
    publication_id = publish(client, *create_sheet(client, data), edition).get_json()["publication"]["id"]
    table = table_with(client, data)
    url = f"/api/sheets/library/{publication_id}/confirm"
    auth = {"Authorization": f"Bearer {table.token}"}
    assert client.post(url, json={}, headers=auth).status_code == 422
    assert client.post(url, json={"table_id": 5}, headers=auth).status_code == 422
    assert client.post(url, json={"table_id": "nope"}, headers=auth).status_code == 404
    missing = client.post("/api/sheets/library/nope/confirm", json={"table_id": table.id}, headers=auth)
    assert missing.status_code == 404 and missing.get_json()["code"] == "publication-not-found"
    # A table playing without these numbers (it typed none) cannot vouch for them.
    bare = table_with(client, None)
    refused = confirm(client, publication_id, bare)
    assert refused.status_code == 409 and len(refused.get_json()["entries"]) == 7
    # Another game's table has no board sheet at all.
    mhing = TableDriver.create(client, game="mhing", players=PLAYERS, options={})
    wrong = confirm(client, publication_id, mhing)
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "wrong-game"
    assert client.get("/api/sheets/library?game=mahe").status_code == 422
    assert client.get("/api/sheets/library").status_code == 422
    assert client.get("/api/sheets/library?game=magellan&edition=%1D").status_code == 400
    [entry] = library(client, edition)["editions"]
    assert entry["publications"][0]["confirmations"] == 0


def test_publishing_is_rate_limited_like_creation(sqlite_url: str) -> None:
    from tests.conftest import make_test_app

    client = make_test_app(sqlite_url, KIBITZ_CREATE_LIMIT="3 per minute").test_client()
    data = partial(client)
    sheet_id, token = create_sheet(client, data)  # 1 creation
    assert publish(client, sheet_id, token, "One").status_code == 201  # 2
    assert publish(client, sheet_id, token, "Two").status_code == 201  # 3
    limited = publish(client, sheet_id, token, "Three")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert [e["edition"] for e in library(client)["editions"]] == ["One", "Two"]


# A sequence of requests: ("publish", variant) or ("confirm", variant published, table).
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("publish"), st.integers(0, 1)),
        st.tuples(st.just("confirm"), st.integers(0, 1), st.integers(0, 3)),
    ),
    max_size=12,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_counts_are_distinct_confirming_tables(client: FlaskClient, steps: list[tuple[Any, ...]]) -> None:
    """For any sequence of publish and confirm requests, a publication's count is the number of
    distinct tables whose confirmation was accepted (a table with other numbers is refused)."""
    edition = f"Property {uuid.uuid4().hex}"
    variants = [filled(blank(client), 1), filled(blank(client), 1)]
    variants[1]["explorers"]["vasco"]["A"]["I"]["bags"] = 2
    sheets = [create_sheet(client, data) for data in variants]
    tables = [table_with(client, variants[k % 2]) for k in range(4)]  # tables 0, 2 play variant 0
    published: dict[int, str] = {}
    confirmed: dict[int, set[int]] = {0: set(), 1: set()}
    for step in steps:
        if step[0] == "publish":
            answer = publish(client, *sheets[step[1]], edition)
            assert answer.status_code == (200 if step[1] in published else 201)
            published[step[1]] = answer.get_json()["publication"]["id"]
        elif step[1] in published:
            variant, k = step[1], step[2]
            answer = confirm(client, published[variant], tables[k])
            if k % 2 == variant:
                assert answer.status_code == 200
                assert answer.get_json()["counted"] is (k not in confirmed[variant])
                confirmed[variant].add(k)
            else:
                assert answer.status_code == 409
    editions = library(client, edition)["editions"]
    counts = {p["id"]: p["confirmations"] for e in editions for p in e["publications"]}
    assert counts == {published[v]: len(confirmed[v]) for v in published}
