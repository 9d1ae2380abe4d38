"""Creating a table or a group honours `Idempotency-Key` (issue 21, failure 5): the same key and body
answer the same table with the same tokens, never a twin; the same key with another body is refused;
racing retries make one table. On SQLite and PostgreSQL.

Issue 31, hole 6: a creation key answers tokens again, so it is a secret. A key shorter than 32
characters is refused up front (400 `idempotency-key-too-short`); another body with a used key never
answers a token — for a group not even after the group changed (its edit token is bound to the key
and the body's digest)."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.table_client import TableDriver, four_players, reveal
from tests.api.test_tables_http import assert_problem


def key(label: str) -> dict[str, str]:
    """An Idempotency-Key header long enough to answer tokens (a random UUID, as the phone sends)."""
    return {"Idempotency-Key": f"{label}-{uuid.uuid4()}"}


def test_the_same_key_and_body_answer_the_same_table(any_db_client: FlaskClient) -> None:
    client = any_db_client
    body = four_players()
    one = key("new-table-1")
    first = client.post("/api/tables", json=body, headers=one)
    assert first.status_code == 201 and first.get_json()["replayed"] is False
    t = TableDriver(client, first.get_json())
    t.play(reveal(4))  # the table is used meanwhile: the retry still answers this very table
    again = client.post("/api/tables", json=body, headers=one)
    assert again.status_code == 201 and again.get_json()["replayed"] is True
    created, replayed = first.get_json(), again.get_json()
    for name in ("id", "write_token", "join_path", "seats"):
        assert replayed[name] == created[name], name
    assert replayed["table"]["version"] == 1  # the table as it is now
    # The answered tokens work: the write token records, a seat token opens that seat's view.
    t.token = replayed["write_token"]
    t.play({"type": "die", "value": 3})
    seat = client.get(
        f"/api/tables/{t.id}/seats/1", headers={"Authorization": f"Bearer {replayed['seats'][1]['token']}"}
    )
    assert seat.status_code == 200
    # Without a key, or with another key: a new table each time.
    other = client.post("/api/tables", json=body, headers=key("new-table-2")).get_json()
    plain = client.post("/api/tables", json=body).get_json()
    assert len({created["id"], other["id"], plain["id"]}) == 3
    assert len({created["write_token"], other["write_token"], plain["write_token"]}) == 3


def test_the_same_key_with_another_body_is_refused(any_db_client: FlaskClient) -> None:
    client = any_db_client
    used = key("k-body")
    first = client.post("/api/tables", json=four_players(), headers=used)
    assert first.status_code == 201
    changed = four_players()
    changed["players"][0]["name"] = "Someone else"
    refused = client.post("/api/tables", json=changed, headers=used)
    assert_problem(refused, 422, "idempotency-key-reused")
    seeded = client.post("/api/tables", json={**four_players(), "seed": 7}, headers=used)
    assert_problem(seeded, 422, "idempotency-key-reused")
    assert_problem(
        client.post("/api/tables", json=four_players(), headers={"Idempotency-Key": "bad key\u00e9"}),
        400,
        "bad-idempotency-key",
    )


def test_racing_retries_make_one_table(any_db_client: FlaskClient) -> None:
    """A phone that lost the answer retries while the first request is still running: one table."""
    client = any_db_client
    app = client.application
    body = four_players()
    race = key("race-1")

    def create(_: int) -> dict:
        with app.test_client() as own:
            response = own.post("/api/tables", json=body, headers=race)
            assert response.status_code == 201, response.get_json()
            return response.get_json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(create, range(8)))
    assert len({a["id"] for a in answers}) == 1
    assert len({a["write_token"] for a in answers}) == 1
    assert sorted(a["replayed"] for a in answers) == [False] + [True] * 7


@pytest.mark.parametrize("path", ["/api/tables", "/api/groups"])
def test_a_short_creation_key_is_refused_before_anything_is_made(client: FlaskClient, path: str) -> None:
    """A key too short to be a secret would let whoever guesses it (or reads it in a log) have the
    tokens answered again: refused with 400 and a stable code, nothing created. 32 characters (a
    random UUID has 36) is the least taken."""
    body = four_players() if path == "/api/tables" else {"name": "Club", "players": [{"name": "Ann"}]}
    short = client.post(path, json=body, headers={"Idempotency-Key": "x" * 31})
    assert_problem(short, 400, "idempotency-key-too-short")
    assert_problem(
        client.post(path, json=body, headers={"Idempotency-Key": "k1"}), 400, "idempotency-key-too-short"
    )
    assert_problem(client.post(path, json=body, headers={"Idempotency-Key": ""}), 400, "bad-idempotency-key")
    exact = client.post(path, json=body, headers={"Idempotency-Key": "y" * 32})
    assert exact.status_code == 201 and exact.get_json()["replayed"] is False
    # The phone's own keys (crypto.randomUUID, pwa/js/api.js newIdempotencyKey) are 36 characters.
    assert client.post(path, json=body, headers={"Idempotency-Key": str(uuid.uuid4())}).status_code == 201


def test_appends_keep_short_keys(client: FlaskClient) -> None:
    """An append's replay answers only the table (which its write token already reads): any 1 to 128
    visible characters still do there."""
    created = client.post("/api/tables", json=four_players()).get_json()
    t = TableDriver(client, created)
    answer = client.post(
        f"/api/tables/{t.id}/events",
        json={"expected_version": 0, "event": reveal(4)},
        headers={"Authorization": f"Bearer {t.token}", "Idempotency-Key": "k"},
    )
    assert answer.status_code == 201, answer.get_json()


def group_body(name: str, players: list[str]) -> dict[str, Any]:
    return {"name": name, "players": [{"name": p} for p in players]}


def test_a_changed_group_never_answers_its_token_to_another_body(any_db_client: FlaskClient) -> None:
    """Issue 31, hole 6: once a group had changed, its creation key with *any* body answered the
    edit token. Now the token is bound to the body: the same body still gets it (the phone's retry),
    another body gets 422 and no token, before and after the change."""
    client = any_db_client
    used = key("group")
    body = group_body("Cottage", ["Ann", "Ben"])
    made = client.post("/api/groups", json=body, headers=used).get_json()
    token = made["edit_token"]
    other = group_body("Intruders", ["Eve"])
    assert_problem(client.post("/api/groups", json=other, headers=used), 422, "idempotency-key-reused")
    change = {"name": "Renamed", "players": made["group"]["players"][:1], "expected_version": 1}
    changed = client.put(
        f"/api/groups/{made['id']}", json=change, headers={"Authorization": f"Bearer {token}"}
    )
    assert changed.status_code == 200
    for attempt in (other, group_body("Renamed", ["Ann"]), group_body("Cottage", ["Ann"])):
        refused = client.post("/api/groups", json=attempt, headers=used)
        assert_problem(refused, 422, "idempotency-key-reused")
        assert token not in refused.get_data(as_text=True)
    again = client.post("/api/groups", json=body, headers=used).get_json()
    assert (again["replayed"], again["id"], again["edit_token"]) == (True, made["id"], token)
    assert again["group"]["name"] == "Renamed"  # the group as it is now


def test_a_group_made_before_the_binding_is_still_replayed_while_unchanged(client: FlaskClient) -> None:
    """Groups made with the token derived from the key alone (before issue 31): the same body still
    gets that token while the group is as made; once it changed, no body gets it."""
    from api.groups.store import GroupStore
    from api.http.groups import GROUPS_KEY

    groups: GroupStore = client.application.extensions[GROUPS_KEY]
    legacy_key = str(uuid.uuid4())
    group_id, legacy_token = groups._derived(legacy_key, None)
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from api.db.engine import write_transaction
    from api.db.schema import player_groups
    from api.tables.tokens import hash_token

    now = datetime.now(UTC)
    with write_transaction(groups.engine) as conn:
        conn.execute(
            insert(player_groups).values(
                id=group_id,
                name="Old",
                players=[{"id": "p1", "name": "Ann", "colour": None, "emoji": None}],
                version=1,
                created_at=now,
                updated_at=now,
                edit_token_hash=hash_token(legacy_token),
            )
        )
    header = {"Idempotency-Key": legacy_key}
    again = client.post("/api/groups", json=group_body("Old", ["Ann"]), headers=header).get_json()
    assert (again["id"], again["edit_token"], again["replayed"]) == (group_id, legacy_token, True)
    assert_problem(
        client.post("/api/groups", json=group_body("New", ["Ann"]), headers=header),
        422,
        "idempotency-key-reused",
    )
    change = {"name": "Old", "players": again["group"]["players"], "expected_version": 1}
    auth = {"Authorization": f"Bearer {legacy_token}"}
    assert client.put(f"/api/groups/{group_id}", json=change, headers=auth).status_code == 200
    assert_problem(
        client.post("/api/groups", json=group_body("Old", ["Ann"]), headers=header),
        422,
        "idempotency-key-reused",
    )


NAMES = st.lists(
    st.sampled_from(["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]), min_size=1, max_size=4, unique=True
)
BODIES = st.tuples(st.sampled_from(["Club", "Family"]), NAMES)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=BODIES, second=BODIES, length=st.integers(1, 64), change=st.booleans())
def test_one_key_answers_tokens_only_to_its_own_body(
    client: FlaskClient,
    first: tuple[str, list[str]],
    second: tuple[str, list[str]],
    length: int,
    change: bool,
) -> None:
    """Property (issue 31, hole 6): for one Idempotency-Key and any two creation bodies, tables and
    groups alike, whether or not the group changed in between: a different second body never gets a
    token (422 `idempotency-key-reused`); the same body from any client (another test client here)
    gets exactly the first answer's tokens — and only when the key is at least 32 characters long
    (shorter ones are refused before anything is made)."""
    raw = (uuid.uuid4().hex * 2)[:length]
    header = {"Idempotency-Key": raw}
    other_client = client.application.test_client()
    bodies = [group_body(*first), group_body(*second)]
    made = client.post("/api/groups", json=bodies[0], headers=header)
    tables = [four_players(), four_players()]
    tables[1]["players"] = [
        {"name": n, "colours": [c]}
        for n, c in zip(second[1] + ["X", "Y", "Z"], ["red", "yellow", "darkblue", "green"], strict=False)
    ][:4]
    if length < 32:
        assert_problem(made, 400, "idempotency-key-too-short")
        assert_problem(
            client.post("/api/tables", json=tables[0], headers=header), 400, "idempotency-key-too-short"
        )
        return
    group = made.get_json()
    if change:
        update = {"name": "Changed", "players": group["group"]["players"], "expected_version": 1}
        auth = {"Authorization": f"Bearer {group['edit_token']}"}
        assert client.put(f"/api/groups/{group['id']}", json=update, headers=auth).status_code == 200
    second_answer = other_client.post("/api/groups", json=bodies[1], headers=header)
    if bodies[1] == bodies[0]:
        answer = second_answer.get_json()
        assert second_answer.status_code == 201 and answer["replayed"] is True
        assert (answer["id"], answer["edit_token"]) == (group["id"], group["edit_token"])
    else:
        assert_problem(second_answer, 422, "idempotency-key-reused")
        assert group["edit_token"] not in second_answer.get_data(as_text=True)
    table = client.post("/api/tables", json=tables[0], headers=header).get_json()
    replay = other_client.post("/api/tables", json=tables[1], headers=header)
    if tables[1] == tables[0]:
        answer = replay.get_json()
        assert answer["replayed"] is True
        assert (answer["write_token"], answer["seats"]) == (table["write_token"], table["seats"])
    else:
        assert_problem(replay, 422, "idempotency-key-reused")
        text = replay.get_data(as_text=True)
        assert table["write_token"] not in text and all(s["token"] not in text for s in table["seats"])
