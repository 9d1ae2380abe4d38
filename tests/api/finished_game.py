"""A short finished Mahé game, played through the API, for export and verification tests."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.table_client import TableDriver, dice, reveal


def play_short_game(client: FlaskClient) -> TableDriver:
    """Two players, one turtle... no: 4 players, Martin takes all 20 cards and then the beach."""
    t = TableDriver.create(
        client,
        game="mahe",
        players=[
            {"name": "Martin", "colours": ["red"]},
            {"name": "Eva", "colours": ["yellow"]},
            {"name": "David", "colours": ["darkblue"]},
            {"name": "Andrea", "colours": ["green"]},
        ],
        options={"chance": "physical"},
    )
    t.play(reveal(3))
    take = dice(2, 1, 4)  # 21 fields: every such move passes the beach
    for index in range(21):
        t.play(*take)
        if index < 19:
            t.play(reveal(1 + index % 6))
        if index < 20:  # the other three bust (first die 6, second 6: over 7) and stay on the raft
            for _ in range(3):
                t.play(*dice(6, 6))
    assert t.table["finished"]
    return t
