"""A table's next game (issue 33): the phones of a table follow the rematch or the group's next game
with the old table's write token; readers hear only the read link; a group's rematch is filed in the
group with the same seats; the first next game stands; refused requests store nothing."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from api.db.schema import table_next
from api.groups.evening import seal, unseal


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mahe_table(client: FlaskClient, names: list[str]) -> dict[str, Any]:
    colours = ["red", "yellow", "green", "lightblue", "darkblue", "purple", "black"]
    each = 2 if len(names) <= 3 else 1  # MA-2
    players = [{"name": n, "colours": colours[i * each : (i + 1) * each]} for i, n in enumerate(names)]
    response = client.post("/api/tables", json={"game": "mahe", "players": players, "options": {}})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def test_phones_of_a_table_follow_its_rematch_and_it_is_filed_in_the_group(
    any_db_client: FlaskClient,
) -> None:
    client = any_db_client
    names = ["Ann", "Ben", "Cid", "Dee"]
    group = client.post(
        "/api/groups", json={"name": "Friday", "players": [{"name": n} for n in names]}
    ).get_json()
    gid, gtoken = group["id"], group["edit_token"]
    seats = [p["id"] for p in group["group"]["players"]]
    first = mahe_table(client, names)
    filed = client.post(
        f"/api/groups/{gid}/tables",
        json={"table_id": first["id"], "table_token": first["write_token"], "seats": seats},
        headers=bearer(gtoken),
    )
    assert filed.status_code == 201
    url = f"/api/tables/{first['id']}/next"
    none_yet = client.get(url, headers=bearer(first["write_token"]))
    assert none_yet.status_code == 404 and none_yet.get_json()["code"] == "no-next-table"

    rematch = mahe_table(client, names)
    body = {"table_id": rematch["id"], "table_token": rematch["write_token"]}
    assert client.post(url, json=body).status_code == 401  # no token: nothing stored
    assert client.post(url, json=body, headers=bearer("x" * 32)).status_code == 403
    wrong_new = client.post(url, json={**body, "table_token": "y" * 32}, headers=bearer(first["write_token"]))
    assert wrong_new.status_code == 403
    same = client.post(
        url,
        json={"table_id": first["id"], "table_token": first["write_token"]},
        headers=bearer(first["write_token"]),
    )
    assert same.status_code == 422 and same.get_json()["code"] == "same-table"
    assert client.get(url).status_code == 404

    handed = client.post(url, json=body, headers=bearer(first["write_token"]))
    assert handed.status_code == 201, handed.get_json()
    rid = rematch["id"]
    assert handed.get_json() == {
        "table_id": rid,
        "game": "mahe",
        "read_path": f"/#/t/{rid}",
        "join_path": f"/#/t/{rid}?k={rematch['write_token']}",
        "seat_path": None,
        "group_ids": [gid],
    }
    # Another phone of the table: the join link. A reader: the read link only. A wrong key: refused.
    follower = client.get(url, headers=bearer(first["write_token"]))
    assert follower.status_code == 200 and follower.get_json()["join_path"].endswith(rematch["write_token"])
    assert follower.headers["Cache-Control"] == "no-store"
    reader = client.get(url).get_json()
    assert reader["join_path"] is None and reader["group_ids"] == [] and reader["table_id"] == rid
    assert client.get(url, headers=bearer("z" * 32)).status_code == 403
    # The rematch is in the group's history with the same seats.
    history = client.get(f"/api/groups/{gid}/history").get_json()["entries"]
    assert {e["table_id"] for e in history} == {first["id"], rid}
    again = next(e for e in history if e["table_id"] == rid)
    assert [p["player_id"] for p in again["players"]] == seats
    # ... and in its exports, after the first table: the rematch has the group's next place (a
    # rematch filed without one was left out of the exports, which page by place; issue 33).
    exported = client.get(f"/api/groups/{gid}/export").get_json()
    assert [m["table_id"] for m in exported["memberships"]] == [first["id"], rid]
    rows = client.get(f"/api/groups/{gid}/export.csv").get_data(as_text=True).splitlines()[1:]
    assert [row.split(",")[1] for row in rows] == [first["id"]] * 4 + [rid] * 4
    assert [e["table_id"] for e in client.get(f"/api/groups/{gid}/history").get_json()["entries"]] == [
        rid,
        first["id"],
    ]

    # The first next game stands: a second phone's rematch at the same moment hears the first.
    late = mahe_table(client, names)
    answer = client.post(
        url,
        json={"table_id": late["id"], "table_token": late["write_token"]},
        headers=bearer(first["write_token"]),
    )
    assert answer.status_code == 201 and answer.get_json()["table_id"] == rid
    assert late["id"] not in {
        e["table_id"] for e in client.get(f"/api/groups/{gid}/history").get_json()["entries"]
    }


def test_another_game_is_followed_but_not_filed_by_the_table_token(any_db_client: FlaskClient) -> None:
    """Only a rematch (same game, same players, same seats) is filed through the table's token; any
    other next game needs the group's edit token to be filed (POST /api/groups/{id}/tables)."""
    client = any_db_client
    names = ["Ann", "Ben", "Cid"]
    group = client.post(
        "/api/groups", json={"name": "Club", "players": [{"name": n} for n in names]}
    ).get_json()
    gid = group["id"]
    seats = [p["id"] for p in group["group"]["players"]]
    first = mahe_table(client, names)
    client.post(
        f"/api/groups/{gid}/tables",
        json={"table_id": first["id"], "table_token": first["write_token"], "seats": seats},
        headers=bearer(group["edit_token"]),
    )
    other = mahe_table(client, ["Ann", "Cid", "Ben"])  # other seats: no rematch
    handed = client.post(
        f"/api/tables/{first['id']}/next",
        json={"table_id": other["id"], "table_token": other["write_token"]},
        headers=bearer(first["write_token"]),
    )
    assert handed.status_code == 201 and handed.get_json()["group_ids"] == []
    assert len(client.get(f"/api/groups/{gid}/history").get_json()["entries"]) == 1


def test_the_database_holds_no_usable_token(client: FlaskClient) -> None:
    """The stored seal opens with the old table's token only (not with its stored hash)."""
    first = mahe_table(client, ["Ann", "Ben"])
    second = mahe_table(client, ["Ann", "Ben"])
    client.post(
        f"/api/tables/{first['id']}/next",
        json={"table_id": second["id"], "table_token": second["write_token"]},
        headers=bearer(first["write_token"]),
    )
    engine = client.application.extensions["kibitz.store"].engine
    with engine.connect() as conn:
        sealed = conn.execute(select(table_next.c.sealed_token)).scalar_one()
    assert second["write_token"] not in sealed
    assert unseal(first["write_token"], first["id"], sealed) == second["write_token"]
    assert unseal("w" * 32, first["id"], sealed) is None
    assert unseal(first["write_token"], second["id"], seal(first["write_token"], first["id"], "t")) is None


@given(
    old=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64),
    other=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64),
    new=st.text(min_size=1, max_size=64),
    table=st.from_regex(r"[A-Za-z0-9_-]{16}", fullmatch=True),
)
def test_a_seal_opens_with_the_old_token_for_its_table_only(
    old: str, other: str, new: str, table: str
) -> None:
    """Property: whatever the tokens, the sealed next token opens with the old table's token for
    that table, and with no other token and for no other table (it is bound to both)."""
    sealed = seal(old, table, new)
    assert unseal(old, table, sealed) == new
    if other != old:
        assert unseal(other, table, sealed) is None
    assert unseal(old, table[::-1] + "x", sealed) is None


def test_a_players_own_link_follows_to_the_same_players_seat(client: FlaskClient) -> None:
    """A phone that sat at the table with its own seat link (no write token) gets its own link at
    the next game — the seat the same player has there — and nobody else's; wrong seat tokens in a
    hand-over are refused and store nothing."""
    first = mahe_table(client, ["Ann", "Ben", "Cid", "Dee"])
    second = mahe_table(client, ["Cid", "Ann", "Ben", "Dee"])
    old_seats = {s["seat"]: s["token"] for s in first["seats"]}
    new_seats = {s["seat"]: s["token"] for s in second["seats"]}
    url = f"/api/tables/{first['id']}/next"
    carried = [
        {"seat": 0, "token": old_seats[0], "next_seat": 1, "next_token": new_seats[1]},  # Ann
        {"seat": 2, "token": old_seats[2], "next_seat": 0, "next_token": new_seats[0]},  # Cid
    ]
    body = {"table_id": second["id"], "table_token": second["write_token"]}
    wrong = [{**carried[0], "next_token": new_seats[2]}]
    refused = client.post(url, json={**body, "seats": wrong}, headers=bearer(first["write_token"]))
    assert refused.status_code == 403 and refused.get_json()["code"] == "bad-seat-token"
    assert client.get(url).status_code == 404  # nothing stored
    assert (
        client.post(url, json={**body, "seats": carried}, headers=bearer(first["write_token"])).status_code
        == 201
    )
    ann = client.get(f"{url}?seat=0", headers=bearer(old_seats[0])).get_json()
    assert ann["seat_path"] == f"/#/t/{second['id']}?s=1&sk={new_seats[1]}"
    assert ann["join_path"] is None and ann["group_ids"] == []  # a seat's link is no table key
    cid = client.get(f"{url}?seat=2", headers=bearer(old_seats[2])).get_json()
    assert cid["seat_path"] == f"/#/t/{second['id']}?s=0&sk={new_seats[0]}"
    ben = client.get(f"{url}?seat=1", headers=bearer(old_seats[1])).get_json()
    assert ben["seat_path"] is None and ben["table_id"] == second["id"]  # not carried: read link only
    assert client.get(f"{url}?seat=1", headers=bearer(old_seats[0])).status_code == 403
    assert client.get(f"{url}?seat=9", headers=bearer(old_seats[0])).status_code == 404
