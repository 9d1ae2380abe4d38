"""Every MA Example of REFEREE.md, reproduced through the HTTP API."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.table_client import STOP, TableDriver, dice, die, four_players, reveal


def field(table: dict, number: int) -> list[str]:
    return table["state"]["track"][number - 1]


def test_ma3_example_two_dice_2_and_4_move_12(client: FlaskClient) -> None:
    """MA-3: 2 then 4 → (2+4)×2 = 12 fields (from the raft: field 12)."""
    t = TableDriver.create(client, **four_players())
    table = t.play(reveal(3), *dice(2, 4), STOP)
    assert field(table, 12) == ["red"]
    assert table["state"]["last_move"]["distance"] == 12


def test_ma3_example_three_dice_2_1_4_move_21_from_raft_to_field_21(client: FlaskClient) -> None:
    """MA-3: 2, 1, 4 → 7×3 = 21; from the raft that is field 21 (MA-5), passing the beach (MA-7)."""
    t = TableDriver.create(client, **four_players())
    table = t.play(reveal(3), *dice(2, 1, 4))
    assert field(table, 21) == ["red"]
    move = table["state"]["last_move"]
    assert move["distance"] == 21
    assert move["card"]["seat"] == 0 and move["card"]["value"] == 3


def test_ma7_example_red_carries_yellow_from_18_to_15_and_yellow_takes_the_5(client: FlaskClient) -> None:
    """MA-7 Example: red (on dark blue, yellow on top) rolls 1, 2; yellow asks a third die, a 3."""
    t = TableDriver.create(
        client,
        game="mahe",
        players=[
            {"name": "Dora", "colours": ["darkblue"]},
            {"name": "Rolf", "colours": ["red"]},
            {"name": "Yara", "colours": ["yellow"]},
            {"name": "Gus", "colours": ["green"]},
        ],
        options={"chance": "physical"},
    )
    # Build the stack on field 18: dark blue, red, yellow (bottom → top).
    t.play(reveal(4), *dice(1, 2, 3), *dice(1, 2, 3), *dice(1, 2, 3), die(1), STOP)
    assert field(t.table, 18) == ["darkblue", "red", "yellow"]
    # Dark blue goes once round (21) carrying both and comes back onto field 18; yellow takes the 4.
    t.play(*dice(2, 1, 4), reveal(5))
    assert field(t.table, 18) == ["darkblue", "red", "yellow"]
    assert t.state["face_up"] == 5
    # Red's turn: yellow, on top, decides (MA-4).
    t.play(die(1))
    assert t.legal["decider"]["seat"] == 2
    t.play(die(2))
    assert t.legal["decider"]["seat"] == 2
    table = t.play(die(3))
    assert field(table, 15) == ["red", "yellow"]
    assert field(table, 18) == ["darkblue"]
    move = table["state"]["last_move"]
    assert move["distance"] == 18 and move["to"] == 15
    assert move["card"] == {"seat": 2, "value": 5, "beach": False}
    assert table["state"]["players"][2]["cards"] is None  # MA-7 Decision: face down on the shared view
    assert table["state"]["players"][2]["card_count"] == 2
    assert t.own_view(2)["cards"] == [4, 5]


def test_ma10_example_martin_wins_on_cards(client: FlaskClient) -> None:
    """MA-10 Example (and MA-8): Martin 22 with 6 cards beats David 22 with 4 cards + the beach."""
    t = TableDriver.create(client, **four_players())
    take = dice(2, 1, 4)  # 21 fields: always passes the beach and comes back to the same field

    def skip() -> list[dict]:
        return [die(1), STOP]

    # Round 1: everyone to a field of their own, no cards.
    t.play(reveal(1), die(1), STOP, die(5), STOP, *dice(1, 1, 1), *dice(2, 4), STOP)
    assert [field(t.table, n) for n in (1, 5, 9, 12)] == [["red"], ["yellow"], ["darkblue"], ["green"]]
    rounds = [  # card each player takes this round, in seat order (None: no card)
        [1, 1, 2, 3],
        [3, 2, 3, 3],
        [3, 4, 4, 4],
        [4, 4, 6, 5],
        [5, 6, None, 5],
    ]
    upcoming = [value for round_ in rounds for value in round_ if value is not None][1:] + [6]
    for round_ in rounds:
        for card in round_:
            if card is None:
                t.play(*skip())
            else:
                t.play(*take, reveal(upcoming.pop(0)))
    # Round 7: Martin takes the 20th card (no card left to reveal); the beach is exposed.
    t.play(*take)
    assert t.state["beach_exposed"] and t.state["pile_count"] == 0
    t.play(*skip())  # Eva
    table = t.play(*take)  # David takes the beach: the game ends at once (MA-8)
    assert table["finished"]
    result = table["result"]
    scores = {p["name"]: (p["eggs"], p["cards"]) for p in result["ranking"]}
    assert scores == {"Martin": (22, 6), "David": (22, 5), "Andrea": (20, 5), "Eva": (17, 5)}
    assert result["winners"] == [0]
    assert result["decided_by"] == "cards"


def test_ma11_example_first_die_5_and_card_2_move_14(client: FlaskClient) -> None:
    """MA-11 Example: first die 5, egg card "2" played → (5+2)×2 = 14 fields, the card is gone."""
    t = TableDriver.create(client, **four_players(egg_dice_variant=True))
    t.play(reveal(2), *dice(2, 1, 4), reveal(6))  # Martin takes the 2 and stands on field 21
    t.play(die(1), STOP, die(2), STOP, die(3), STOP)
    table = t.play(die(5), {"type": "play_card", "value": 2})
    assert table["state"]["last_move"]["distance"] == 14
    assert field(table, 14) == ["red"]
    assert t.own_view(0)["cards"] == []
    assert table["state"]["box"] == [2]
