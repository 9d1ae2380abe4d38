"""The library of board sheets (MG-2): a sheet typed in at one table is published for its edition,
other tables pick it and confirm it against their own board. A confirmation counts once its table
reached the end of scoring with the numbers (MG-10), each table once, one client once per edition
(issue 31, hole 4): `confirmations` counts distinct clients, `tables` tables.

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

from .magellan_finish import play_to_the_end
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


def confirm(
    client: FlaskClient,
    publication_id: str,
    table: TableDriver,
    token: str | None = "own",
    address: str = "127.0.0.1",
) -> Any:
    """POST …/confirm with the table's write token, as a client at `address`."""
    auth = table.token if token == "own" else token
    headers = {"Authorization": f"Bearer {auth}"} if auth else {}
    return client.post(
        f"/api/sheets/library/{publication_id}/confirm",
        json={"table_id": table.id},
        headers=headers,
        environ_base={"REMOTE_ADDR": address},
    )


def scored_table(client: FlaskClient, data: dict[str, Any]) -> TableDriver:
    """A table that played `data` (a complete sheet) to the end of scoring (MG-10)."""
    table = table_with(client, data)
    play_to_the_end(table)
    assert table.table["finished"]
    return table


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
    """MG-2: published numbers are the typed ones; a table scored with them counts once however
    often it confirms, and each client once (issue 31)."""
    client = any_db_client
    edition = f"Test edition {uuid.uuid4().hex[:6]}"
    data = filled(blank(client), 2)
    sheet_id, token = create_sheet(client, data)
    first = publish(client, sheet_id, token, edition)
    assert first.status_code == 201 and first.get_json()["created"] is True
    publication = first.get_json()["publication"]
    assert publication["data"] == data  # nothing filled in by the server (MG-2)
    assert (publication["confirmations"], publication["tables"]) == (0, 0)
    assert publication["last_confirmed_at"] is None
    # Published again, however the edition is spelt: the same publication (200), not a twin.
    again = publish(client, sheet_id, token, "  " + edition.upper().replace(" ", "   ") + " ")
    assert again.status_code == 200 and again.get_json()["created"] is False
    assert again.get_json()["publication"]["id"] == publication["id"]

    tables = [scored_table(client, data) for _ in range(3)]
    for n, table in enumerate(tables):
        answer = confirm(client, publication["id"], table, address=f"10.0.0.{n + 1}")
        assert answer.status_code == 200 and answer.get_json()["counted"] is True
    for n, table in enumerate(tables[:2]):  # again: counted once per table
        answer = confirm(client, publication["id"], table, address=f"10.0.0.{n + 1}")
        assert answer.status_code == 200 and answer.get_json()["counted"] is True
        assert answer.get_json()["publication"]["confirmations"] == 3
    # A fourth scored table from the first client's address: one more table, no more confirmation.
    answer = confirm(client, publication["id"], scored_table(client, data), address="10.0.0.1")
    assert answer.get_json()["counted"] is True
    assert (
        answer.get_json()["publication"]["confirmations"],
        answer.get_json()["publication"]["tables"],
    ) == (3, 4)
    listed = library(client, edition.lower())
    assert [e["edition"] for e in listed["editions"]] == [edition]
    [entry] = listed["editions"]
    assert entry["confirmations"] == 3 and entry["disagreements"] == []
    assert [(p["id"], p["confirmations"], p["tables"]) for p in entry["publications"]] == [
        (publication["id"], 3, 4)
    ]
    assert entry["publications"][0]["last_confirmed_at"] is not None
    assert any(e["edition"] == edition for e in library(client)["editions"])


def test_a_confirmation_counts_once_its_table_is_scored_with_the_numbers(any_db_client: FlaskClient) -> None:
    """Confirmed during the game: recorded, not counted; counted when the table reaches the end of
    scoring with the numbers (MG-10). A table that changed its sheet before the end never counts."""
    client = any_db_client
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    data = filled(blank(client), 2)
    publication_id = publish(client, *create_sheet(client, data), edition).get_json()["publication"]["id"]
    playing, changing = table_with(client, data), table_with(client, data)
    for n, table in enumerate((playing, changing)):
        answer = confirm(client, publication_id, table, address=f"10.1.0.{n}")
        assert answer.status_code == 200 and answer.get_json()["counted"] is False
        assert answer.get_json()["publication"]["confirmations"] == 0
    other = copy.deepcopy(data)
    other["explorers"]["cook"]["A"]["II"]["crowns"] = 3
    changing.play({"type": "set_board_sheet", "sheet": other})  # MG-2: the sheet replaced mid-game
    play_to_the_end(playing)
    play_to_the_end(changing)
    [entry] = library(client, edition)["editions"]
    assert [(p["confirmations"], p["tables"]) for p in entry["publications"]] == [(1, 1)]
    again = confirm(client, publication_id, playing, address="10.1.0.0")
    assert again.get_json()["counted"] is True
    # The changed table is over with other numbers: it is refused now and never counts.
    refused = confirm(client, publication_id, changing, address="10.1.0.1")
    assert refused.status_code == 409 and refused.get_json()["entries"] == ["Cook side A field II: crowns"]
    assert library(client, edition)["editions"][0]["confirmations"] == 1


def test_22_never_played_tables_confirm_nothing(client: FlaskClient) -> None:
    """Issue 31, hole 4, attack 1: one client made 22 never-played tables and confirmed with each —
    22 confirmations in a second. Now they are 0: none of the tables reached the scoring."""
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    data = filled(blank(client), 2)
    publication_id = publish(client, *create_sheet(client, data), edition).get_json()["publication"]["id"]
    for _ in range(22):
        answer = confirm(client, publication_id, table_with(client, data), address="203.0.113.9")
        assert answer.status_code == 200 and answer.get_json()["counted"] is False
    [entry] = library(client, edition)["editions"]
    assert entry["confirmations"] == 0
    assert [(p["confirmations"], p["tables"]) for p in entry["publications"]] == [(0, 0)]


def test_one_clients_scored_tables_do_not_outrank_three_clients(client: FlaskClient) -> None:
    """Issue 31, hole 4, attack 2: a bogus publication confirmed 10 times was listed above the
    genuine one confirmed 3 times. Even with 10 tables played to the end from one address (an IPv6
    client by its /64: ten addresses of one prefix) it counts once, below three clients' three."""
    edition = f"Edition {uuid.uuid4().hex[:6]}"
    genuine = filled(blank(client), 2)
    bogus = filled(blank(client), 4)
    genuine_id = publish(client, *create_sheet(client, genuine), edition).get_json()["publication"]["id"]
    bogus_id = publish(client, *create_sheet(client, bogus), edition).get_json()["publication"]["id"]
    for n in range(10):
        answer = confirm(client, bogus_id, scored_table(client, bogus), address=f"2001:db8:1:2::{n + 1}")
        assert answer.status_code == 200 and answer.get_json()["counted"] is True
    for address in ("198.51.100.1", "198.51.100.2", "2001:db8:9:9::1"):
        assert confirm(client, genuine_id, scored_table(client, genuine), address=address).status_code == 200
    [entry] = library(client, edition)["editions"]
    assert [(p["id"], p["confirmations"], p["tables"]) for p in entry["publications"]] == [
        (genuine_id, 3, 3),
        (bogus_id, 1, 10),
    ]
    # The same client confirming a second publication of the edition counts there no more: its
    # first counted confirmation in an edition is its one.
    third = filled(blank(client), 5)
    third_id = publish(client, *create_sheet(client, third), edition).get_json()["publication"]["id"]
    assert (
        confirm(client, third_id, scored_table(client, third), address="2001:db8:1:2::99").status_code == 200
    )
    by_id = {p["id"]: p for p in library(client, edition)["editions"][0]["publications"]}
    assert (by_id[third_id]["confirmations"], by_id[third_id]["tables"]) == (0, 1)


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
    for n in range(2):
        assert confirm(client, ours_id, scored_table(client, ours), address=f"10.2.0.{n}").status_code == 200
    assert confirm(client, theirs_id, scored_table(client, theirs), address="10.2.1.0").status_code == 200
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


def test_publishing_spends_a_daily_budget_per_client(sqlite_url: str) -> None:
    """Issue 31, hole 4: a client publishes a few new sheets a day (default 5), then 429 with
    Retry-After and a stable code; numbers already published cost nothing; another client has its
    own budget."""
    from tests.conftest import make_test_app

    client = make_test_app(sqlite_url, KIBITZ_PUBLISH_LIMIT="5 per day").test_client()
    sheets = [create_sheet(client, filled(blank(client), n)) for n in range(1, 8)]
    for sheet in sheets[:5]:
        assert publish(client, *sheet, "Budget edition").status_code == 201
    spent = publish(client, *sheets[5], "Budget edition")
    assert spent.status_code == 429 and spent.get_json()["code"] == "publish-budget-spent"
    assert spent.mimetype == "application/problem+json"
    assert 3600 <= int(spent.headers["Retry-After"]) <= 86400
    assert publish(client, *sheets[0], "budget  EDITION").status_code == 200  # already published
    elsewhere = client.post(
        f"/api/sheets/{sheets[5][0]}/publish",
        json={"edition": "Budget edition"},
        headers={"Authorization": f"Bearer {sheets[5][1]}"},
        environ_base={"REMOTE_ADDR": "192.0.2.77"},
    )
    assert elsewhere.status_code == 201
    [entry] = library(client, "Budget edition")["editions"]
    assert len(entry["publications"]) == 6


def _spam_confirmed_once(client: FlaskClient, publication_ids: list[str], address: str) -> None:
    """Each spam publication confirmed once by a table of the spammer played to the end — stored
    directly (200 games through the API would take minutes; the confirm path is tested above)."""
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from api.db.engine import write_transaction
    from api.db.schema import sheet_confirmations
    from api.http.context import sheet_library
    from api.http.sheets import client_tag

    app = client.application
    with app.test_request_context(environ_base={"REMOTE_ADDR": address}):
        tag = client_tag()
    with app.app_context():
        engine = sheet_library().engine
    table = scored_table(client, filled(blank(client), 1))
    now = datetime.now(UTC)
    with write_transaction(engine) as conn:
        conn.execute(
            insert(sheet_confirmations),
            [
                {
                    "publication_id": pid,
                    "table_id": table.id,
                    "confirmed_at": now,
                    "client": tag,
                    "status": "counted",
                    "counted_at": now,
                }
                for pid in publication_ids
            ],
        )


def test_200_spam_publications_do_not_crowd_out_a_genuine_sheet(sqlite_url: str) -> None:
    """Issue 31, hole 4, attack 3: 200 spam publications, each confirmed once, pushed a new genuine
    sheet out of the library list the phone asks for (GET …/library?game=magellan, 200 at most,
    by confirmations then age). With the budget lifted (the spammer had the addresses or the days):
    200 spam publications in the genuine sheet's edition and 200 spam editions, each publication
    confirmed once by the spammer — the genuine sheet, published last with no confirmation yet, is
    still in the phone's answer, second in its edition (one client's confirmations count once per
    edition; among equals one publisher's first before anyone's second), and its edition is listed."""
    from tests.conftest import make_test_app

    client = make_test_app(sqlite_url, KIBITZ_PUBLISH_LIMIT="100000 per day").test_client()
    spammer = {"REMOTE_ADDR": "203.0.113.66"}
    edition = "Hans im Glück 2024"
    spam_ids: list[str] = []
    for n in range(400):
        data = blank(client)
        data["explorers"]["cook"]["A"]["I"]["bags"] = n % 9 + 1
        data["explorers"]["cook"]["A"]["II"]["bags"] = n // 9 % 9 + 1
        data["explorers"]["cook"]["A"]["III"]["bags"] = n // 81 + 1
        created = client.post(
            "/api/sheets", json={"game": "magellan", "name": "spam", "data": data}, environ_base=spammer
        ).get_json()
        answer = client.post(
            f"/api/sheets/{created['id']}/publish",
            json={"edition": edition if n < 200 else f"Spam edition {n}"},
            headers={"Authorization": f"Bearer {created['edit_token']}"},
            environ_base=spammer,
        )
        assert answer.status_code == 201, answer.get_json()
        spam_ids.append(answer.get_json()["publication"]["id"])
    _spam_confirmed_once(client, spam_ids, spammer["REMOTE_ADDR"])
    genuine = partial(client)
    sheet_id, token = create_sheet(client, genuine)
    genuine_id = publish(client, sheet_id, token, edition).get_json()["publication"]["id"]

    phone = library(client)  # what the phone asks for (pwa/js/games/magellan/sheets.js getLibrary)
    listed = {p["id"] for e in phone["editions"] for p in e["publications"]}
    assert genuine_id in listed
    [ours] = [e for e in phone["editions"] if e["edition"] == edition]
    # First the one spam publication the spammer's confirmations count for (once per edition),
    # then each publisher's first (the spammer's older one, the genuine sheet), before the
    # spammer's second.
    ids = [p["id"] for p in ours["publications"]]
    assert ids[0] in spam_ids and ours["publications"][0]["confirmations"] == 1
    assert ids[1:3] == [spam_ids[0], genuine_id] or ids[1] == genuine_id
    assert [p["confirmations"] for p in ours["publications"][1:]] == [0] * (len(ours["publications"]) - 1)
    from api.sheets.library import MAX_EDITIONS, PER_EDITION

    assert len(ours["publications"]) == PER_EDITION and len(phone["editions"]) == MAX_EDITIONS
    assert phone["editions"][0]["edition"] == edition  # its publisher's first edition, one confirmation
    description = client.get("/api/openapi.json").get_json()["paths"]["/api/sheets/library"]["get"][
        "description"
    ]
    assert f"{PER_EDITION} publications per edition and {MAX_EDITIONS} editions" in description
    # Asking for the edition: the same order, up to 200 of it.
    [asked] = library(client, edition)["editions"]
    assert [p["id"] for p in asked["publications"]][:3] == ids[:3]
    assert len(asked["publications"]) == 200
    # Two clients whose tables were scored with its numbers put it first.
    for address in ("198.51.100.5", "198.51.100.6"):
        table = table_with(client, genuine)
        table.play({"type": "set_board_sheet", "sheet": filled(genuine, 2)})  # the rest typed in
        play_to_the_end(table)
        assert confirm(client, genuine_id, table, address=address).get_json()["counted"] is True
    [asked] = library(client, edition)["editions"]
    assert asked["publications"][0]["id"] == genuine_id


# The tables of the property below, played to the end once for all its examples (2 s each).
_SCORED: dict[int, tuple[list[dict[str, Any]], list[TableDriver]]] = {}


def _scored_tables(client: FlaskClient) -> tuple[list[dict[str, Any]], list[TableDriver]]:
    """Two sheets, and four tables: 0 and 2 scored with sheet 0, 1 scored with sheet 1, 3 playing
    sheet 1 and never scored."""
    key = id(client.application)
    if key not in _SCORED:
        variants = [filled(blank(client), 1), filled(blank(client), 1)]
        variants[1]["explorers"]["vasco"]["A"]["I"]["bags"] = 2
        tables = [scored_table(client, variants[0]), scored_table(client, variants[1])]
        tables += [scored_table(client, variants[0]), table_with(client, variants[1])]
        _SCORED[key] = (variants, tables)
    return _SCORED[key]


# A sequence of requests: ("publish", variant) or ("confirm", variant published, table, client).
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("publish"), st.integers(0, 1)),
        st.tuples(st.just("confirm"), st.integers(0, 1), st.integers(0, 3), st.integers(0, 2)),
    ),
    max_size=12,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_counts_are_distinct_clients_of_scored_tables(
    client: FlaskClient, steps: list[tuple[Any, ...]]
) -> None:
    """Property: for any sequence of publish and confirm requests from three clients, a
    publication's `tables` is the number of distinct tables that confirmed it and were scored with
    its numbers (a table with other numbers is refused, an unscored one waits), and its
    `confirmations` the number of clients whose first such confirmation in the edition was this
    publication's."""
    edition = f"Property {uuid.uuid4().hex}"
    variants, tables = _scored_tables(client)
    sheets = [create_sheet(client, data) for data in variants]
    published: dict[int, str] = {}
    counted: dict[int, set[int]] = {0: set(), 1: set()}
    first_of: dict[int, int] = {}  # client → the variant its first counted confirmation was for
    for step in steps:
        if step[0] == "publish":
            answer = publish(client, *sheets[step[1]], edition)
            assert answer.status_code == (200 if step[1] in published else 201)
            published[step[1]] = answer.get_json()["publication"]["id"]
        elif step[1] in published:
            variant, k, who = step[1], step[2], step[3]
            answer = confirm(client, published[variant], tables[k], address=f"10.9.0.{who}")
            if k % 2 != variant:
                assert answer.status_code == 409
                continue
            assert answer.status_code == 200
            scored = k != 3
            assert answer.get_json()["counted"] is scored
            if scored and k not in counted[variant]:
                counted[variant].add(k)
                first_of.setdefault(who, variant)
    editions = library(client, edition)["editions"]
    counts = {p["id"]: (p["confirmations"], p["tables"]) for e in editions for p in e["publications"]}
    assert counts == {
        published[v]: (sum(1 for w in first_of.values() if w == v), len(counted[v])) for v in published
    }
