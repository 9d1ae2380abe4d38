"""Issue 33 item 5: Magellan's "points by source" in a group's statistics. Every source is in the
answer — ships on fields too (it was dropped: the answer's `fields` had no value, the chart drew
nothing and its table said "Ships NaN") — each read off the record, and the four sum to the score."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.groups.facts import facts_of
from tests.api.test_groups_http import bearer, new_group, table_of
from tests.browser.test_referee_differential import magellan_game

SOURCES = ("fields", "money", "magellan", "pizarro")


def finished_record(client: FlaskClient, seed: int, players: int) -> tuple[Any, dict[str, Any]]:
    table = table_of(client, magellan_game("g", players, "outcomes", "physical", seed, undo_rate=0.02))
    record = client.get(f"/api/tables/{table.id}/export").get_json()
    return table, record


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 10_000), st.integers(3, 6))
def test_the_sources_from_the_record_sum_to_the_score(client: FlaskClient, seed: int, players: int) -> None:
    """Property: for any finished Magellan record, each seat's points by source are the result's own
    figures (fields, money crowns, Magellan piles, Pizarro) and add up to that seat's final score."""
    _, record = finished_record(client, seed, players)
    facts = facts_of(record)
    by_seat = {s["seat"]: s for s in record["result"]["scores"]}
    for seat, extra in enumerate(facts.extra):
        sources = extra["points_by_source"]
        assert set(sources) == set(SOURCES)
        assert sources["fields"] == by_seat[seat]["fields_total"]
        assert sum(sources.values()) == facts.scores[seat] == by_seat[seat]["total"]


def test_the_statistics_answer_carries_every_source(client: FlaskClient) -> None:
    created = new_group(client, ["Ann", "Bo", "Cy", "Di"])
    gid, token = created["id"], created["edit_token"]
    seats = [p["id"] for p in created["group"]["players"]]
    totals = dict.fromkeys(seats, 0)
    for seed in (11, 12):
        table, record = finished_record(client, seed, 4)
        add = {"table_id": table.id, "table_token": table.token, "seats": seats}
        assert client.post(f"/api/groups/{gid}/tables", json=add, headers=bearer(token)).status_code == 201
        for score in record["result"]["scores"]:
            totals[seats[score["seat"]]] += score["total"]
    stats = client.get(f"/api/groups/{gid}/stats").get_json()
    for player in stats["players"]:
        sources = player["by_game"]["magellan"]["points_by_source"]
        assert set(sources) == set(SOURCES), sources
        assert all(isinstance(sources[k], int) for k in SOURCES)
        assert sum(sources.values()) == totals[player["player_id"]]
