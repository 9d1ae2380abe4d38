"""Groups through the HTTP API: players kept between games, tables filed with who sat where,
history, abandoned tables, head-to-head, exports; and statistics that equal a recount of the
exported records for random finished games of all three games (hypothesis)."""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver
from tests.browser.test_referee_differential import WholeGame, magellan_game, mahe_game, mhing_game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_group(client: FlaskClient, names: list[str]) -> dict[str, Any]:
    response = client.post(
        "/api/groups", json={"name": "Friday club", "players": [{"name": n} for n in names]}
    )
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def ids_by_name(group: dict[str, Any]) -> dict[str, str]:
    return {p["name"]: p["id"] for p in group["group"]["players"]}


def test_a_group_is_created_read_and_changed_with_its_token(any_db_client: FlaskClient) -> None:
    client = any_db_client
    created = new_group(client, ["Ann", "Ben"])
    gid, token = created["id"], created["edit_token"]
    assert created["join_path"] == f"/#/g/{gid}?k={token}" and created["read_path"] == f"/#/g/{gid}"
    read = client.get(f"/api/groups/{gid}").get_json()
    assert [p["name"] for p in read["players"]] == ["Ann", "Ben"] and read["tables"] == 0
    ann = ids_by_name(created)["Ann"]
    change = {
        "name": "Club",
        "players": [{"id": ann, "name": "Anna", "colour": "red", "emoji": "🐢"}, {"name": "Cid"}],
        "expected_version": 1,
    }
    assert client.put(f"/api/groups/{gid}", json=change).status_code == 401
    assert client.put(f"/api/groups/{gid}", json=change, headers=bearer("x" * 32)).status_code == 403
    changed = client.put(f"/api/groups/{gid}", json=change, headers=bearer(token))
    assert changed.status_code == 200
    body = changed.get_json()
    assert body["version"] == 2 and body["players"][0] == {
        "id": ann,
        "name": "Anna",
        "colour": "red",
        "emoji": "🐢",
    }
    stale = client.put(f"/api/groups/{gid}", json=change, headers=bearer(token))
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale-version"
    twins = {**change, "players": [{"name": "Eva"}, {"name": "eva"}], "expected_version": 2}
    response = client.put(f"/api/groups/{gid}", json=twins, headers=bearer(token))
    assert response.status_code == 422 and response.get_json()["code"] == "duplicate-player-name"
    assert client.get(f"/api/groups/{gid}").get_json()["version"] == 2  # refused changes stored nothing
    assert client.get("/api/groups/nope").status_code == 404


def test_tables_history_abandon_head_to_head_and_exports(any_db_client: FlaskClient) -> None:
    client = any_db_client
    created = new_group(client, ["Martin", "Eva", "David", "Andrea", "Zoe"])
    gid, token, who = created["id"], created["edit_token"], ids_by_name(created)
    game = play_short_game(client)  # Martin takes every card and the beach
    seats = [who["Martin"], who["Eva"], who["David"], who["Andrea"]]
    add = {"table_id": game.id, "table_token": game.token, "seats": seats}
    assert client.post(f"/api/groups/{gid}/tables", json=add).status_code == 401
    wrong_table = client.post(
        f"/api/groups/{gid}/tables", json={**add, "table_token": "x" * 32}, headers=bearer(token)
    )
    assert wrong_table.status_code == 403
    short = client.post(f"/api/groups/{gid}/tables", json={**add, "seats": seats[:3]}, headers=bearer(token))
    assert short.status_code == 422 and short.get_json()["code"] == "seats-mismatch"
    assert client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(token)).status_code == 201
    assert (
        client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(token)).status_code == 201
    )  # again
    other = {**add, "seats": [seats[1], seats[0], *seats[2:]]}
    assert client.post(f"/api/groups/{gid}/tables", json=other, headers=bearer(token)).status_code == 409

    # A second table, unfinished: listed as playing, not counted.
    open_table = TableDriver.create(
        client, game="mhing", players=[{"name": "Z"}, {"name": "E"}], options={"settlement": 1}
    )
    add2 = {"table_id": open_table.id, "table_token": open_table.token, "seats": [who["Zoe"], who["Eva"]]}
    assert client.post(f"/api/groups/{gid}/tables", json=add2, headers=bearer(token)).status_code == 201

    entries = client.get(f"/api/groups/{gid}/history").get_json()["entries"]
    by_id = {e["table_id"]: e for e in entries}
    finished = by_id[game.id]
    assert finished["status"] == "finished" and finished["winners"] == [who["Martin"]]
    assert finished["players"][0] == {
        "seat": 0,
        "player_id": who["Martin"],
        "name": "Martin",
        "score": 74,
        "winner": True,
    }
    assert finished["record_path"] == f"/api/tables/{game.id}/export" and finished["duration_seconds"] >= 0
    assert by_id[open_table.id]["status"] == "playing" and by_id[open_table.id]["winners"] == []
    only_mahe = client.get(f"/api/groups/{gid}/history?game=mahe").get_json()["entries"]
    assert [e["table_id"] for e in only_mahe] == [game.id]
    zoe = client.get(f"/api/groups/{gid}/history?player={who['Zoe']}").get_json()["entries"]
    assert [e["table_id"] for e in zoe] == [open_table.id]
    assert client.get(f"/api/groups/{gid}/history?game=chess").status_code == 422

    stats = client.get(f"/api/groups/{gid}/stats").get_json()
    martin = next(p for p in stats["players"] if p["name"] == "Martin")
    assert (martin["games"], martin["wins"], martin["win_rate"]) == (1, 1, 1.0)
    mahe = martin["by_game"]["mahe"]
    assert mahe["eggs"] == 74 and mahe["beaches"] == 1 and mahe["busts"] == 0 and mahe["best_score"] == 74
    eva = next(p for p in stats["players"] if p["name"] == "Eva")
    assert eva["by_game"]["mahe"]["busts"] == 20 and eva["wins"] == 0  # 6, 6 twenty times (MA-6)
    assert stats["games"]["mahe"] == {"games": 1, "beach_taker_won": 1} and stats["counted_tables"] == 1
    h2h = client.get(f"/api/groups/{gid}/head-to-head?a={who['Martin']}&b={who['Eva']}").get_json()
    assert (h2h["games"], h2h["a_wins"], h2h["b_wins"], h2h["a_ahead"], h2h["b_ahead"]) == (1, 1, 0, 1, 0)
    line = client.get(f"/api/groups/{gid}/tables/{game.id}/progress").get_json()
    assert len(line["lines"]) == 4 and line["lines"][0][-1] == 74 and line["lines"][1][-1] == 0

    group = client.get(f"/api/groups/{gid}").get_json()
    assert group["tables"] == 2
    assert {s["game"]: s["seats"] for s in group["last_seating"]} == {"mahe": seats, "mhing": add2["seats"]}

    exported = client.get(f"/api/groups/{gid}/export").get_json()
    assert exported["format"] == "kibitz-group/1" and len(exported["records"]) == 1
    assert exported["records"][0]["result"]["winners"] == [0]
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/groups/{gid}/export.csv").get_data(as_text=True)))
    )
    assert len(rows) == 6 and {r["player"] for r in rows if r["winner"] == "True"} == {"Martin"}

    # Abandoned: kept in the history, out of the statistics; and taken back.
    path = f"/api/groups/{gid}/tables/{game.id}"
    assert client.patch(path, json={"abandoned": True}, headers=bearer(token)).get_json()["abandoned"] is True
    entries = client.get(f"/api/groups/{gid}/history").get_json()["entries"]
    assert {e["table_id"]: e["status"] for e in entries} == {game.id: "abandoned", open_table.id: "playing"}
    assert client.get(f"/api/groups/{gid}/stats").get_json()["counted_tables"] == 0
    client.patch(path, json={"abandoned": False}, headers=bearer(token))
    assert client.get(f"/api/groups/{gid}/stats").get_json()["counted_tables"] == 1
    # A player with games cannot leave the group.
    keep = [p for p in group["players"] if p["name"] != "Martin"]
    response = client.put(
        f"/api/groups/{gid}",
        json={"name": "x", "players": keep, "expected_version": 1},
        headers=bearer(token),
    )
    assert response.status_code == 422 and response.get_json()["code"] == "player-has-games"


# ---------- statistics = a recount of the exported records ----------


def _effective(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for event in events:
        if event["type"] == "undo":
            kept.pop()
        else:
            kept.append(event)
    return kept


def recount(records: list[tuple[dict[str, Any], list[str]]]) -> dict[str, dict[str, Any]]:
    """Games, wins and the games' own totals per group player, read off the records themselves."""
    out: dict[str, dict[str, Any]] = {}
    for record, seats in records:
        result = record["result"]
        for seat, player in enumerate(seats):
            mine = out.setdefault(player, Counter())
            mine["games"] += 1
            mine["wins"] += seat in result["winners"]
            mine[f"{record['game']}-games"] += 1
        if record["game"] == "mahe":
            for entry in result["ranking"]:
                out[seats[entry["seat"]]]["mahe-eggs"] += entry["eggs"]
        elif record["game"] == "magellan":
            for entry in result["scores"]:
                out[seats[entry["seat"]]]["magellan-magellan"] += entry["magellan"]["points"]
                out[seats[entry["seat"]]]["magellan-score"] += entry["total"]
        else:
            for event in _effective([e["event"] for e in record["events"]]):
                if event["type"] in ("round_won", "round_points"):
                    out[seats[event["winner"]]]["mhing-hands"] += 1
    return out


GENERATORS = [
    lambda seed: mahe_game("m", 2 + seed % 3, "physical", seed, undo_rate=0.03),
    lambda seed: mahe_game("m", 4 + seed % 4, "digital", seed),
    lambda seed: magellan_game("g", 3 + seed % 4, "outcomes", "physical", seed, undo_rate=0.02),
    lambda seed: mhing_game("h", 2 + seed % 3, 1 + seed % 2, seed, undo_rate=0.05),
]


def table_of(client: FlaskClient, whole: WholeGame) -> TableDriver:
    options = dict(whole.options)
    t = TableDriver.create(client, game=whole.game, players=whole.players, options=options, seed=whole.seed)
    t.play(*whole.events)
    return t


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 10_000)), min_size=1, max_size=4), st.randoms())
def test_statistics_equal_a_recount_of_the_records(
    client: FlaskClient, games: list[tuple[int, int]], rng: random.Random
) -> None:
    created = new_group(client, [f"Friend {i}" for i in range(8)])
    gid, token = created["id"], created["edit_token"]
    everyone = [p["id"] for p in created["group"]["players"]]
    filed: list[tuple[dict[str, Any], list[str]]] = []
    for kind, seed in games:
        whole = GENERATORS[kind](seed)
        table = table_of(client, whole)
        seats = rng.sample(everyone, len(whole.players))
        add = {"table_id": table.id, "table_token": table.token, "seats": seats}
        assert client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(token)).status_code == 201
        filed.append((client.get(f"/api/tables/{table.id}/export").get_json(), seats))
    expected = recount(filed)
    stats = client.get(f"/api/groups/{gid}/stats").get_json()
    assert stats["counted_tables"] == len(filed)
    for player in stats["players"]:
        mine = expected.get(player["player_id"], Counter())
        assert (player["games"], player["wins"]) == (mine["games"], mine["wins"])
        by_game = player["by_game"]
        assert set(by_game) == {g for g in ("mahe", "magellan", "mhing") if mine[f"{g}-games"]}
        if "mahe" in by_game:
            assert by_game["mahe"]["eggs"] == mine["mahe-eggs"]
        if "magellan" in by_game:
            assert by_game["magellan"]["points_by_source"]["magellan"] == mine["magellan-magellan"]
            average = by_game["magellan"]["average_score"]
            assert average * by_game["magellan"]["games"] == pytest.approx(mine["magellan-score"], abs=0.1)
        if "mhing" in by_game:
            assert by_game["mhing"]["hands_won"] == mine["mhing-hands"]
