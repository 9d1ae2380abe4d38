"""Issue 33, item 9: plays imported from a BG Stats export (`BGStatsExport.json`). Over HTTP on
SQLite and PostgreSQL: the plays of our three games (matched by name, case and accents ignored)
count in history, statistics and player pages, marked imported; the same file twice adds nothing;
a bad file is refused with a clear 422 and changes nothing. Hypothesis: the parser keeps exactly the
plays of our games, with their players, scores and winners, and refuses a play it cannot count."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api.errors import ApiProblem
from api.groups.imports import folded, plays_of
from tests.api.group_builder import file_finished, stores
from tests.api.test_groups_http import bearer, ids_by_name, new_group


def export() -> dict[str, Any]:
    """A small export as BG Stats writes one: scores as text, a game that is not ours, an ignored play."""
    return {
        "userInfo": {"meRefId": 1},
        "games": [
            {"id": 1, "uuid": "g1", "name": "MAHE", "bggId": 2},
            {"id": 2, "uuid": "g2", "name": "Carcassonne"},
            {"id": 3, "uuid": "g3", "name": "Mhing"},
        ],
        "players": [
            {"id": 1, "uuid": "p1", "name": "ann", "isAnonymous": False},
            {"id": 2, "uuid": "p2", "name": "Bén"},
            {"id": 3, "uuid": "p3", "name": "Zoë"},
        ],
        "locations": [{"id": 1, "name": "Home"}],
        "plays": [
            {
                "uuid": "a",
                "gameRefId": 1,
                "playDate": "2024-01-05 20:15:00",
                "durationMin": 40,
                "playerScores": [
                    {"playerRefId": 1, "score": "31", "winner": True, "seatOrder": 1},
                    {"playerRefId": 2, "score": "24", "winner": False},
                ],
            },
            {
                "uuid": "b",
                "gameRefId": 3,
                "playDate": "2024-02-01 19:00:00",
                "playerScores": [
                    {"playerRefId": 2, "score": 120, "winner": True},
                    {"playerRefId": 3, "score": "-40", "winner": False},
                ],
            },
            {
                "uuid": "c",
                "gameRefId": 2,
                "playDate": "2024-02-02 19:00:00",
                "playerScores": [{"playerRefId": 1, "score": "", "winner": True}],
            },
            {
                "uuid": "d",
                "gameRefId": 1,
                "ignored": True,
                "playDate": "2024-02-03 19:00:00",
                "playerScores": [{"playerRefId": 1, "score": "", "winner": True}],
            },
        ],
        "tags": [],
    }


def trimmed(file: dict[str, Any]) -> dict[str, Any]:
    """The export as the phone sends it (pwa/js/groups/bgstats.js): our games' plays, the fields read."""
    ours = {g["id"] for g in file["games"] if folded(g["name"]) in ("mahe", "magellan", "mhing")}
    plays = [p for p in file.get("plays", []) if p["gameRefId"] in ours and not p.get("ignored")]
    used = {s["playerRefId"] for p in plays for s in p["playerScores"]}
    return {
        "games": [{"id": g["id"], "name": g["name"]} for g in file["games"] if g["id"] in ours],
        "players": [{"id": p["id"], "name": p["name"]} for p in file["players"] if p["id"] in used],
        **(
            {
                "plays": [
                    {
                        **{
                            k: p[k]
                            for k in ("uuid", "gameRefId", "playDate", "durationMin", "sourcePlayId")
                            if k in p
                        },
                        "playerScores": [
                            {k: s[k] for k in ("playerRefId", "score", "winner") if k in s}
                            for s in p["playerScores"]
                        ],
                    }
                    for p in plays
                ]
            }
            if "plays" in file
            else {}
        ),
    }


def test_a_bgstats_export_is_imported_once_and_counts(any_db_client: FlaskClient) -> None:
    client = any_db_client
    created = new_group(client, ["Ann", "Ben"])
    gid, token = created["id"], created["edit_token"]
    ann, ben = ids_by_name(created)["Ann"], ids_by_name(created)["Ben"]
    url = f"/api/groups/{gid}/imports/bgstats"
    assert client.post(url, json=trimmed(export())).status_code == 401
    unknown = client.post(url, json=export(), headers=bearer(token))  # fields the import does not read
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "invalid-request"
    answer = client.post(url, json=trimmed(export()), headers=bearer(token))
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    # "ann" is Ann and "Bén" is Ben (case and accents ignored); Zoë joins the group.
    assert (body["imported"], body["passed_over"], body["new_players"]) == (2, 0, ["Zoë"])
    zoe = next(p["id"] for p in body["group"]["players"] if p["name"] == "Zoë")
    assert body["group"]["plays"] == [
        {"game": "mahe", "games": 1, "last_played_at": "2024-01-05T20:55:00+00:00"},
        {"game": "mhing", "games": 1, "last_played_at": "2024-02-01T19:00:00+00:00"},
    ]
    history = client.get(f"/api/groups/{gid}/history").get_json()["entries"]
    assert [(e["game"], e["imported"], e["record_path"], e["table_path"]) for e in history] == [
        ("mhing", True, None, None),
        ("mahe", True, None, None),
    ]
    assert history[1]["duration_seconds"] == 2400 and history[1]["winners"] == [ann]
    assert [(p["player_id"], p["score"]) for p in history[0]["players"]] == [(ben, 120), (zoe, -40)]
    stats = client.get(f"/api/groups/{gid}/stats").get_json()
    assert stats["counted_tables"] == 2
    assert {p["name"]: (p["games"], p["wins"]) for p in stats["players"]} == {
        "Ann": (1, 1),
        "Ben": (2, 1),
        "Zoë": (1, 0),
    }
    page = client.get(f"/api/groups/{gid}/players/{ann}").get_json()
    assert page["records"] == [
        {
            "game": "mahe",
            "kind": "most_eggs",
            "value": 31,
            "table_id": history[1]["table_id"],
            "at": "2024-01-05T20:55:00+00:00",
        }
    ]
    window = client.get(f"/api/groups/{gid}/stats?from=2024-01-10&to=2024-12-31").get_json()
    assert window["counted_tables"] == 1
    # The same file again: nothing added, the group unchanged.
    version = client.get(f"/api/groups/{gid}").get_json()["version"]
    again = client.post(url, json=trimmed(export()), headers=bearer(token)).get_json()
    assert (again["imported"], again["passed_over"], again["new_players"]) == (0, 2, [])
    assert again["group"]["version"] == version
    assert client.get(f"/api/groups/{gid}/stats").get_json() == stats
    # A player with imported plays has games: kept when the players are changed.
    group = client.get(f"/api/groups/{gid}").get_json()
    keep = [p for p in group["players"] if p["name"] != "Zoë"]
    change = {"name": "Club", "players": keep, "expected_version": group["version"]}
    refused = client.put(f"/api/groups/{gid}", json=change, headers=bearer(token))
    assert refused.status_code == 422 and refused.get_json()["code"] == "player-has-games"
    # The CSV export lists the imported plays with the tables.
    csv_rows = client.get(f"/api/groups/{gid}/export.csv").get_data(as_text=True).splitlines()
    assert len(csv_rows) == 1 + 4


def test_a_play_sent_from_a_table_of_the_group_is_not_counted_twice(client: FlaskClient) -> None:
    tables, groups = stores(client.application)
    created = new_group(client, ["Ann", "Ben"])
    gid, token = created["id"], created["edit_token"]
    seats = list(ids_by_name(created).values())
    table_id = file_finished(groups, gid, token, seats, [(0, 8)])
    file = export()
    file["plays"][0]["sourcePlayId"] = table_id  # as Kibitz's own BG Stats link names it
    body = client.post(
        f"/api/groups/{gid}/imports/bgstats", json=trimmed(file), headers=bearer(token)
    ).get_json()
    assert (body["imported"], body["passed_over"]) == (1, 1)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda f: f["plays"][0]["playerScores"][0].update(score=""), "bad-bgstats-play"),
        (lambda f: f["plays"][1]["playerScores"].pop(), "bad-bgstats-play"),  # Mhing is for 2 to 6
        (lambda f: f["plays"][0]["playerScores"][1].update(playerRefId=99), "bad-bgstats-play"),
        (lambda f: f["plays"][0]["playerScores"][1].update(playerRefId=1), "bad-bgstats-play"),
        (lambda f: f["plays"][0].update(playDate="2024-02-30 10:00:00"), "bad-bgstats-play"),
        (lambda f: f.pop("plays"), "invalid-request"),
        (lambda f: f["players"][0].update(name="x" * 41), "invalid-request"),
        (lambda f: f["plays"][0]["playerScores"][0].update(winner="yes"), "invalid-request"),
    ],
)
def test_a_bad_file_is_refused_and_changes_nothing(
    any_db_client: FlaskClient, change: Any, code: str
) -> None:
    client = any_db_client
    created = new_group(client, ["Ann", "Ben"])
    gid, token = created["id"], created["edit_token"]
    before = (
        client.get(f"/api/groups/{gid}").get_json(),
        client.get(f"/api/groups/{gid}/history").get_json(),
    )
    file = trimmed(export())
    change(file)
    answer = client.post(f"/api/groups/{gid}/imports/bgstats", json=file, headers=bearer(token))
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    assert answer.get_json()["code"] == code and answer.get_json()["detail"]
    after = (client.get(f"/api/groups/{gid}").get_json(), client.get(f"/api/groups/{gid}/history").get_json())
    assert after == before
    assert (
        client.post(
            f"/api/groups/{gid}/imports/bgstats",
            data="[1, 2",
            headers={**bearer(token), "Content-Type": "application/json"},
        ).status_code
        == 400
    )


NAMES = st.sampled_from(
    ["Mahé", "MAHE", "mahe", " Mahé ", "Magellan", "MAGELLAN", "Mhing", "mhíng", "Catan", "Azul"]
)
OURS = {"mahe": "mahe", "magellan": "magellan", "mhing": "mhing"}


@st.composite
def exports(draw: Any) -> dict[str, Any]:
    games = draw(st.lists(NAMES, min_size=1, max_size=4))
    people = draw(st.integers(6, 8))
    plays = []
    for n in range(draw(st.integers(0, 8))):
        game = draw(st.integers(0, len(games) - 1))
        seats = draw(st.lists(st.integers(0, people - 1), min_size=3, max_size=6, unique=True))
        plays.append(
            {
                "uuid": draw(st.sampled_from([f"u{n}", None])),
                "gameRefId": game,
                "playDate": f"2024-{draw(st.integers(1, 12)):02d}-{draw(st.integers(1, 28)):02d} 20:00:00",
                "ignored": draw(st.booleans()),
                "durationMin": draw(st.integers(0, 300)),
                "playerScores": [
                    {
                        "playerRefId": p,
                        "score": draw(st.one_of(st.integers(-99, 999), st.integers(-99, 999).map(str))),
                        "winner": draw(st.booleans()),
                    }
                    for p in seats
                ],
            }
        )
    return {
        "games": [{"id": i, "name": name} for i, name in enumerate(games)],
        "players": [{"id": i, "name": f"Player {i}"} for i in range(people)],
        "plays": plays,
    }


def _ours(name: str) -> str | None:
    return {"mahe": "mahe", "magellan": "magellan", "mhing": "mhing"}.get(folded(name))


@settings(max_examples=150, deadline=None)
@given(exports())
def test_the_parser_keeps_exactly_the_plays_of_our_games(file: dict[str, Any]) -> None:
    expected = [p for p in file["plays"] if _ours(file["games"][p["gameRefId"]]["name"]) and not p["ignored"]]
    parsed = plays_of(file)
    assert len(parsed) == len({p["uuid"] or repr(p) for p in expected}) or len(parsed) <= len(expected)
    by_names = sorted(
        (
            _ours(file["games"][p["gameRefId"]]["name"]),
            tuple(f"Player {s['playerRefId']}" for s in p["playerScores"]),
            tuple(int(s["score"]) for s in p["playerScores"]),
            tuple(i for i, s in enumerate(p["playerScores"]) if s["winner"]),
        )
        for p in expected
    )
    got = sorted((p.game, p.names, p.facts.scores, p.facts.winners) for p in parsed)
    assert set(got) == set(by_names)
    assert [p.played_at for p in parsed] == sorted(p.played_at for p in parsed)
    assert plays_of(copy.deepcopy(file)) == parsed  # the same file, the same keys: an import is idempotent
    for play in parsed:
        if play.game == "mahe":  # a Mahé score is the egg total (MA-10)
            assert [e["eggs"] for e in play.facts.extra] == list(play.facts.scores)


@settings(max_examples=100, deadline=None)
@given(exports(), st.data())
def test_a_play_of_ours_without_a_whole_score_refuses_the_file(file: dict[str, Any], data: Any) -> None:
    counted = [p for p in file["plays"] if _ours(file["games"][p["gameRefId"]]["name"]) and not p["ignored"]]
    if not counted:
        return
    play = data.draw(st.sampled_from(counted))
    seat = data.draw(st.integers(0, len(play["playerScores"]) - 1))
    play["playerScores"][seat]["score"] = data.draw(st.sampled_from(["", None, "3.5", "x", True, 2.5]))
    with pytest.raises(ApiProblem) as refused:
        plays_of(file)
    assert refused.value.code == "bad-bgstats-play" and refused.value.status == 422
