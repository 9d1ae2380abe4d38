"""One block of tests per Mahé rule (MA-1 … MA-12 in REFEREE.md), every rule-book Example included.

Physical chance is used to force dice and card values; the examples run through MAHE.apply.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from mahe_support import (
    FOUR,
    TWO,
    card,
    choose,
    dice,
    die,
    field,
    new,
    placed,
    play,
    reveal,
    seats,
    started,
    stop,
    where,
)

from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent, RuleError
from api.rules.mahe.constants import CARD_MIX, DECK, TURTLE_COLOURS
from api.rules.mahe.game import MAHE
from api.rules.mahe.scoring import rank
from api.rules.mahe.state import MaheState, Player


def refused(
    state: MaheState, event: dict[str, Any], code: str, kind: type[RuleError] = IllegalMove
) -> RuleError:
    with pytest.raises(kind) as info:
        MAHE.apply(state, event)
    assert info.value.code == code, info.value.detail
    assert info.value.detail
    return info.value


# --- MA-1 Material -------------------------------------------------------------------------------------


def test_ma1_seven_turtles_and_21_fields() -> None:
    """MA-1: 7 turtles, a 21-field track; the view always lists exactly 21 fields."""
    assert len(TURTLE_COLOURS) == 7
    view = MAHE.public_view(new(seats(*[(f"P{i}", [c]) for i, c in enumerate(TURTLE_COLOURS)])))
    assert len(view["track"]) == 21
    assert view["raft"] == list(TURTLE_COLOURS)


def test_ma1_digital_deck_uses_the_decision_mix() -> None:
    """MA-1 Decision: 24 cards 1×3, 2×3, 3×5, 4×5, 5×5, 6×3 — the digital deck is exactly that mix."""
    assert CARD_MIX == {1: 3, 2: 3, 3: 5, 4: 5, 5: 5, 6: 3}
    for seed in range(5):
        s = new(seed=seed, chance="digital").supply
        assert s.face_up is not None
        assert Counter([*s.set_aside, s.face_up, *s.hidden]) == Counter(DECK)
        assert len(DECK) == 24


def test_ma1_physical_card_values_are_typed_in_any_value_1_to_6() -> None:
    """MA-1: in physical play the players type in each face-up card; the mix does not restrict it."""
    for value in range(1, 7):
        assert play(new(), reveal(value)).supply.face_up == value
    refused(new(), reveal(7), "value-out-of-range", MalformedEvent)
    refused(new(), {"type": "reveal_card"}, "value-required", MalformedEvent)


# --- MA-2 Setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 8))
def test_ma2_turtles_per_player_by_player_count(count: int) -> None:
    """MA-2: 2–3 players get two turtles each, 4–7 players one."""
    each = 2 if count <= 3 else 1
    colours = list(TURTLE_COLOURS)
    players = seats(*[(f"P{i}", colours[i * each : (i + 1) * each]) for i in range(count)])
    state = new(players)
    assert [len(p.colours) for p in state.players] == [each] * count
    bad = [dict(p) for p in players]
    bad[-1]["colours"] = colours[:1] if each == 2 else colours[:2]  # one too few / one too many
    with pytest.raises(InvalidSetup) as info:
        new(bad)
    assert info.value.code == "colour-count" and info.value.rule == "MA-2"


@pytest.mark.parametrize("count", [0, 1, 8])
def test_ma2_two_to_seven_players(count: int) -> None:
    """MA-2: Mahé is for 2–7 players."""
    with pytest.raises(InvalidSetup) as info:
        new(seats(*[(f"P{i}", ["red"]) for i in range(count)]))
    assert info.value.code == "player-count"


def test_ma2_colours_must_be_known_and_distinct() -> None:
    """MA-1/MA-2: colours come from the palette, each turtle once."""
    with pytest.raises(InvalidSetup) as info:
        new(seats(("A", ["pink"]), ("B", ["red"]), ("C", ["green"]), ("D", ["black"])))
    assert info.value.code == "unknown-colour" and "pink" in info.value.detail
    with pytest.raises(InvalidSetup) as info:
        new(seats(("A", ["red"]), ("B", ["red"]), ("C", ["green"]), ("D", ["black"])))
    assert info.value.code == "duplicate-colour"


def test_ma2_start_all_on_raft_four_away_twenty_on_pile() -> None:
    """MA-2: all turtles on the raft; 4 cards unseen, 20 on the pile, the top one face up."""
    for chance in ("physical", "digital"):
        view = MAHE.public_view(new(chance=chance))
        assert view["raft"] == ["red", "yellow", "green", "darkblue"]
        assert all(stack == [] for stack in view["track"])
        assert (view["pile_count"], view["set_aside_count"], view["box"]) == (20, 4, [])
    assert MAHE.public_view(new(chance="digital"))["face_up"] in range(1, 7)
    physical = MAHE.public_view(new())
    assert (physical["face_up"], physical["phase"]) == (None, "reveal_card")
    assert MAHE.public_view(play(new(), reveal(3)))["phase"] == "roll"


def test_ma2_any_player_starts_then_seat_order() -> None:
    """MA-2: first_seat picks the starter; turns then pass in seat order, wrapping round."""
    state = started(first_seat=2)
    order = []
    for _ in range(5):
        order.append(state.turn.seat)
        state = play(state, die(1), stop())
    assert order == [2, 3, 0, 1, 2]
    with pytest.raises(InvalidSetup) as info:
        new(first_seat=4)
    assert info.value.code == "invalid-option"


def test_ma2_options_normalized_and_checked() -> None:
    """MA-2/MA-11/MA-12 options: defaults filled, unknown keys and bad values refused."""
    assert MAHE.normalize_options({}) == {"chance": "physical", "egg_dice_variant": False, "first_seat": 0}
    assert MAHE.normalize_options({"chance": "digital", "egg_dice_variant": True, "first_seat": 3}) == {
        "chance": "digital",
        "egg_dice_variant": True,
        "first_seat": 3,
    }
    cases: list[tuple[dict[str, Any], str]] = [
        ({"speed": 1}, "unknown-option"),
        ({"chance": "dice"}, "invalid-option"),
        ({"egg_dice_variant": "yes"}, "invalid-option"),
        ({"first_seat": -1}, "invalid-option"),
        ({"first_seat": True}, "invalid-option"),
    ]
    for bad, code in cases:
        with pytest.raises(InvalidSetup) as info:
            MAHE.normalize_options(bad)
        assert info.value.code == code


# --- MA-3 Dice -----------------------------------------------------------------------------------------


def test_ma3_example_2_then_4_moves_12() -> None:
    """MA-3 Example: 2 then 4 → (2+4)×2 = 12 fields (from the raft: field 12)."""
    state = play(started(), die(2), die(4), stop())
    move = MAHE.public_view(state)["last_move"]
    assert (move["distance"], move["from"], move["to"]) == (12, 0, 12)
    assert field(state, 12) == ["red"]


def test_ma3_example_2_1_4_moves_21_raft_to_field_21() -> None:
    """MA-3 Example: 2, 1, 4 → 7×3 = 21; from the raft the turtle lands on field 21."""
    state = play(started(), *dice(2, 1, 4))
    move = MAHE.public_view(state)["last_move"]
    assert (move["distance"], move["from"], move["to"], move["passed_beach"]) == (21, 0, 21, True)
    assert field(state, 21) == ["red"]


def test_ma3_example_21_fields_bring_a_turtle_back_to_its_field() -> None:
    """MA-3 Example: 21 fields is a full lap — the turtle ends on its own field."""
    state = play(placed(started(), {9: ["red"]}), *dice(2, 1, 4))
    assert where(state, "red") == 9
    assert state.last_move is not None and state.last_move.distance == 21


def test_ma3_first_die_always_then_decider_stops_or_rolls() -> None:
    """MA-3: the first die is always rolled; then stop or another die; one die moves its value."""
    state = started()
    refused(state, stop(), "first-die-required")
    assert [a["type"] for a in MAHE.legal_actions(state)["actions"]] == ["die"]
    state = play(state, die(5))
    assert MAHE.public_view(state)["phase"] == "decide"
    assert [a["type"] for a in MAHE.legal_actions(state)["actions"]] == ["die", "stop"]
    state = play(state, stop())
    assert where(state, "red") == 5


def test_ma3_sum_seven_after_two_dice_must_stop_no_third_die() -> None:
    """MA-3 Decision: with exactly 7 after two dice the move is carried out; no third die offered."""
    state = play(started(), die(3))
    seven = next(o for o in MAHE.legal_actions(state)["actions"][0]["outcomes"] if o["value"] == 4)
    assert seven["must_stop"] and not seven["bust"] and seven["distance"] == 14
    state = play(state, die(4))
    assert where(state, "red") == 14 and state.turn.seat == 1
    notes = {n["code"] for n in MAHE.legal_actions(state)["notes"]}
    assert "sum-seven-must-stop" in notes


def test_ma3_third_die_last_and_distance_times_three() -> None:
    """MA-3: under 7 after two dice a third die may follow; three dice ≤ 7 move sum×3 at once."""
    state = play(started(), die(1), die(1))
    assert "last-die" in {n["code"] for n in MAHE.legal_actions(state)["notes"]}
    state = play(state, die(3))
    assert where(state, "red") == 15 and state.turn.seat == 1


def test_ma3_bust_chances_shown() -> None:
    """MA-3/MA-6: the chance that the next die busts — 0 for the first, (sum − 1)/6 afterwards."""
    state = started()
    assert MAHE.legal_actions(state)["actions"][0]["bust_chance"] == 0
    assert MAHE.legal_actions(play(state, die(4)))["actions"][0]["bust_chance"] == 0.5
    assert MAHE.legal_actions(play(state, die(4), die(2)))["actions"][0]["bust_chance"] == round(5 / 6, 4)


# --- MA-4 The decider ----------------------------------------------------------------------------------


def test_ma4_owner_of_topmost_turtle_decides() -> None:
    """MA-4: with turtles on top of the mover, the owner of the topmost one decides."""
    state = placed(started(), {4: ["darkblue", "red", "green", "yellow"]})  # red (Martin, seat 0) moves
    actions = MAHE.legal_actions(play(state, die(1)))
    assert actions["mover"] == 0 and actions["turtle"] == "red"
    assert actions["decider"]["seat"] == 1
    assert actions["decider"]["reason"] == "owns yellow, the topmost turtle on red (MA-4)"
    assert "decider-on-top" in {n["code"] for n in actions["notes"]}


def test_ma4_mover_decides_when_nothing_on_top() -> None:
    """MA-4: a mover carrying nobody decides, even with turtles below it."""
    state = placed(started(), {4: ["yellow", "red"]})
    assert MAHE.legal_actions(play(state, die(1)))["decider"]["seat"] == 0


def test_ma4_sending_seat_must_be_the_decider() -> None:
    """MA-4: when an event names its seat, only the decider may ask for the next die or stop."""
    state = play(placed(started(), {4: ["red", "yellow"]}), die(1))
    refused(state, {"type": "stop", "seat": 0}, "not-your-turn")
    refused(state, {"type": "die", "value": 2, "seat": 0}, "not-your-turn")
    assert where(play(state, {"type": "stop", "seat": 1}), "red") == 5


# --- MA-5 Movement -------------------------------------------------------------------------------------


def test_ma5_carries_turtles_above_leaves_those_below() -> None:
    """MA-5: the mover carries every turtle above it (order kept); turtles below stay."""
    state = placed(started(), {3: ["darkblue", "red", "green", "yellow"]})
    state = play(state, die(4), stop())
    assert field(state, 3) == ["darkblue"] and field(state, 7) == ["red", "green", "yellow"]
    move = MAHE.public_view(state)["last_move"]
    assert move["carried"] == ["green", "yellow"] and move["left_behind"] == ["darkblue"]


def test_ma5_wraps_round_and_lands_on_top() -> None:
    """MA-5: field p → ((p − 1 + d) mod 21) + 1; landing on an occupied field stacks on top."""
    state = placed(started(), {18: ["red"], 2: ["green"]})
    state = play(state, die(5), stop())
    assert field(state, 2) == ["green", "red"]


def test_ma5_lap_lands_back_on_the_turtles_it_left() -> None:
    """MA-5: a 21-field move comes back onto the turtles it left behind, on top of them."""
    state = placed(started(), {6: ["darkblue", "red", "yellow"]})
    state = play(state, *dice(2, 1, 4))
    assert field(state, 6) == ["darkblue", "red", "yellow"]
    assert state.players[1].cards == (5,)  # it passed field 21 on the way: yellow's owner (MA-7)


def test_ma5_turtles_pass_each_other() -> None:
    """MA-5: passing other turtles is allowed and does not stack."""
    state = placed(started(), {2: ["green"], 3: ["yellow"]})
    state = play(state, die(4), stop())
    assert field(state, 4) == ["red"] and field(state, 2) == ["green"] and field(state, 3) == ["yellow"]


# --- MA-6 Bust -----------------------------------------------------------------------------------------


def test_ma6_bust_sends_mover_and_above_to_raft_below_stays() -> None:
    """MA-6: over 7 — the mover and all above it go to the raft; turtles below stay; no card."""
    state = placed(started(), {19: ["darkblue", "red", "yellow"]})
    state = play(state, die(5), die(4))
    view = MAHE.public_view(state)
    assert view["raft"] == ["red", "yellow", "green"]  # raft never stacks: palette order
    assert field(state, 19) == ["darkblue"]
    assert view["last_move"]["bust"] and view["last_move"]["to"] == 0 and view["last_move"]["card"] is None
    assert state.turn.seat == 1


def test_ma6_bust_after_third_die() -> None:
    """MA-3/MA-6: over 7 after three dice also busts."""
    state = play(placed(started(), {5: ["red"]}), *dice(2, 2, 4))
    assert where(state, "red") == 0 and state.last_move is not None and state.last_move.bust


# --- MA-7 Egg card -------------------------------------------------------------------------------------


def test_ma7_example_yellow_takes_the_five() -> None:
    """MA-7 Example: red (on dark blue, yellow on top) rolls 1, 2; yellow's owner makes red roll a 3:
    red moves 6×3 = 18 from field 18 to 15 carrying yellow, dark blue stays; yellow's owner takes the 5."""
    state = started(TWO, face_up=5)
    state = play(state, choose("darkblue"), *dice(1, 2, 3), *dice(1, 2, 3))  # Eva: darkblue, red to 18
    state = play(state, choose("yellow"), *dice(1, 2, 3), *dice(6, 6))  # Bo: yellow onto red; green busts
    assert field(state, 18) == ["darkblue", "red", "yellow"] and state.supply.face_up == 5
    state = play(state, choose("red"), die(1))
    assert MAHE.legal_actions(state)["decider"]["seat"] == 1  # Bo owns yellow (MA-4)
    state = play(state, {"type": "die", "value": 2, "seat": 1}, {"type": "die", "value": 3, "seat": 1})
    move = MAHE.public_view(state)["last_move"]
    assert move["dice"] == [{"value": v, "source": "die"} for v in (1, 2, 3)]
    assert (move["distance"], move["from"], move["to"]) == (18, 18, 15)
    assert move["carried"] == ["yellow"] and move["left_behind"] == ["darkblue"] and move["passed_beach"]
    assert move["card"] == {"seat": 1, "value": 5, "beach": False}
    assert field(state, 15) == ["red", "yellow"] and field(state, 18) == ["darkblue"]
    assert state.players[1].cards == (5,) and state.players[0].cards == ()


@pytest.mark.parametrize(
    ("start", "values", "passes"),
    [
        (0, (2, 1, 4), True),  # raft: d = 21
        (0, (1, 2, 3), False),  # raft: d = 18
        (19, (2,), True),  # p + d = 21 enters the beach
        (18, (2,), False),  # p + d = 20
        (21, (2, 1, 4), True),  # from 21: d = 21
        (21, (3, 4), False),  # from 21: d = 14 does not pass
        (20, (3, 4), True),  # passes 21
    ],
)
def test_ma7_entering_or_passing_21_takes_the_card(start: int, values: tuple[int, ...], passes: bool) -> None:
    """MA-7: a move that enters or passes field 21 takes the face-up card, otherwise nothing."""
    state = started(face_up=4)
    if start:
        state = placed(state, {start: ["red"]})
    state = play(state, *dice(*values))
    if state.phase == "decide":
        state = play(state, stop())
    assert state.players[0].cards == ((4,) if passes else ())
    assert state.supply.pile_count == (19 if passes else 20)


def test_ma7_next_card_turned_up_at_once() -> None:
    """MA-7: after a card is taken the next is turned up — physical: the table types it in first."""
    state = play(started(face_up=4), *dice(2, 1, 4))
    assert state.phase == "reveal_card" and state.supply.face_up is None
    refused(state, die(3), "reveal-card-first")
    state = play(state, reveal(6))
    assert state.phase == "roll" and state.supply.face_up == 6
    digital = placed(new(chance="digital"), {20: ["red"]})
    before = digital.supply
    assert before.face_up is not None
    digital = play(digital, die(), stop())  # any distance from field 20 passes 21
    assert digital.players[0].cards == (before.face_up,)
    assert digital.supply.face_up == before.hidden[0] and digital.phase == "roll"
    assert digital.supply.hidden == before.hidden[1:]


def test_ma7_only_the_top_owner_gets_the_card() -> None:
    """MA-7: for a stack the owner of its topmost turtle takes the card; nobody else gets anything."""
    state = placed(started(face_up=3), {20: ["red", "green", "darkblue"]})
    state = play(state, die(1), stop())
    assert [p.cards for p in state.players] == [(), (), (), (3,)]


# --- MA-8 End ------------------------------------------------------------------------------------------


def _take_all_twenty(state: MaheState) -> MaheState:
    """Red takes every card: it laps 21 from the raft/21 each time, everyone else busts."""
    for n in range(20):
        state = play(state, *dice(2, 1, 4))
        if state.phase == "reveal_card":
            state = play(state, reveal(1 + n % 6))
        for _ in range(3):
            state = play(state, *dice(6, 6))
    return state


def test_ma8_beach_after_twenty_cards_ends_the_game_at_once() -> None:
    """MA-8: after the 20th card the beach (7 eggs, one card) is exposed; the next move passing 21
    gives it to the owner of its topmost turtle and the game ends at once."""
    state = _take_all_twenty(started(face_up=1))
    view = MAHE.public_view(state)
    assert view["pile_count"] == 0 and view["face_up"] is None and view["beach_exposed"]
    assert view["phase"] == "roll" and view["players"][0]["card_count"] == 20
    assert len(MAHE.private_view(state, 0)["cards"]) == 20  # MA-7: the own view shows the values
    assert "beach-exposed" in {n["code"] for n in MAHE.legal_actions(state)["notes"]}
    state = play(state, die(3), stop())  # red from 21 to 3: no beach
    state = play(state, *dice(1, 2, 4))  # yellow from the raft: 21 → takes the beach
    view = MAHE.public_view(state)
    assert view["phase"] == "finished" and view["beach_taken_by"] == 1
    assert (
        view["players"][1]["beach"]
        and view["players"][1]["eggs"] == 7
        and view["players"][1]["card_count"] == 1
    )
    assert (
        view["last_move"]["card"] == {"seat": 1, "value": 7, "beach": True} and view["last_move"]["game_over"]
    )
    assert MAHE.legal_actions(state)["actions"] == [] and MAHE.legal_actions(state)["phase"] == "finished"
    refused(state, die(1), "game-over")
    assert MAHE.result(state) is not None


def test_ma8_game_ends_before_the_other_turtle_moves() -> None:
    """MA-8/MA-9 Decision: when the first turtle takes the beach, the second does not move."""
    state = started(TWO, face_up=1)
    for _ in range(20):
        state = play(state, choose("red"), *dice(2, 1, 4))
        if state.phase == "reveal_card":
            state = play(state, reveal(2))
        state = play(state, *dice(6, 6), choose("yellow"), *dice(6, 6), *dice(6, 6))
    assert state.supply.beach_exposed
    state = play(state, choose("red"), *dice(2, 1, 4))
    assert state.phase == "finished" and state.players[0].beach and where(state, "darkblue") == 0


# --- MA-9 Two turtles each -----------------------------------------------------------------------------


def test_ma9_choose_order_then_both_move() -> None:
    """MA-9: a two-turtle player picks which turtle goes first, then makes a full move with each."""
    state = started(TWO)
    assert state.phase == "choose_turtle"
    actions = MAHE.legal_actions(state)
    assert actions["actions"] == [{"type": "choose_turtle", "turtles": ["red", "darkblue"]}]
    refused(state, die(3), "choose-turtle-first")
    refused(state, choose("yellow"), "not-your-turtle")
    refused(state, choose("pink"), "unknown-turtle", MalformedEvent)
    state = play(state, choose("darkblue"))
    refused(state, choose("red"), "turtle-already-chosen")
    state = play(state, die(3), stop())
    assert state.turn.seat == 0 and state.turn.turtle == "red" and state.turn.moves_done == 1
    state = play(state, die(2), stop())
    assert (where(state, "darkblue"), where(state, "red")) == (3, 2)
    assert state.turn.seat == 1 and state.phase == "choose_turtle"


def test_ma9_bust_ends_only_that_turtle_move() -> None:
    """MA-9 Decision: a bust ends that turtle's move; the player's other turtle still moves."""
    state = play(started(TWO), choose("red"), die(6), die(6))
    assert state.turn.seat == 0 and state.turn.turtle == "darkblue" and state.phase == "roll"


def test_ma9_eggs_belong_to_the_player_and_one_turtle_players_skip_the_choice() -> None:
    """MA-9: cards won by either turtle are the player's; with one turtle there is nothing to choose."""
    state = play(started(TWO, face_up=3), choose("red"), *dice(2, 1, 4), reveal(4), *dice(2, 1, 4))
    assert state.players[0].cards == (3, 4) and MAHE.private_view(state, 0)["eggs"] == 7
    four = started()
    assert four.phase == "roll"
    refused(four, choose("red"), "nothing-to-choose")


# --- MA-10 Winner --------------------------------------------------------------------------------------


MA10_CARDS = {0: [1, 3, 3, 4, 5, 6], 1: [1, 2, 4, 4, 6], 2: [2, 3, 4, 6], 3: [3, 3, 4, 5, 5]}


def test_ma10_example_martin_wins_on_cards() -> None:
    """MA-10 Example, played through the engine: Martin 22 (6 cards), Eva 17, David 22 with the beach
    (5 cards), Andrea 20 → Martin wins on cards."""
    plan = [(seat, values[i]) for i in range(6) for seat, values in MA10_CARDS.items() if i < len(values)]
    assert len(plan) == 20
    state = started(FOUR, face_up=plan[0][1])
    for n, (taker, value) in enumerate(plan):
        for seat in range(4):
            assert state.turn.seat == seat
            state = play(state, *(dice(2, 1, 4) if seat == taker else dice(6, 6)))
            if seat == taker:
                assert state.last_move is not None and state.last_move.card is not None
                assert (state.last_move.card.seat, state.last_move.card.value) == (taker, value)
                if n + 1 < len(plan):
                    state = play(state, reveal(plan[n + 1][1]))
    assert state.supply.beach_exposed
    state = play(state, *dice(6, 6), *dice(6, 6), *dice(2, 1, 4))  # David takes the beach
    assert state.phase == "finished"
    assert [sorted(p.cards) for p in state.players] == [sorted(v) for v in MA10_CARDS.values()]
    result = MAHE.result(state)
    assert result == MAHE.public_view(state)["result"]
    assert result is not None
    assert [(r["name"], r["eggs"], r["cards"], r["place"]) for r in result["ranking"]] == [
        ("Martin", 22, 6, 1),
        ("David", 22, 5, 2),
        ("Andrea", 20, 5, 3),
        ("Eva", 17, 5, 4),
    ]
    assert result["winners"] == [0] and result["decided_by"] == "cards"
    assert (
        result["explanation"] == "Martin and David both have 22 eggs; Martin wins with 6 cards to 5 (MA-10)."
    )


def test_ma10_most_eggs_wins_and_full_ties_share() -> None:
    """MA-10: most eggs wins outright; equal eggs and cards share the win (Decision)."""
    clear = rank([Player("A", ("red",), (6, 5)), Player("B", ("yellow",), (5,), beach=True)])
    assert clear["winners"] == [1] and clear["decided_by"] == "eggs"
    shared = rank(
        [Player("A", ("red",), (3, 4)), Player("B", ("yellow",), (7 - 5, 5)), Player("C", ("green",), (1,))]
    )
    assert shared["winners"] == [0, 1] and shared["decided_by"] == "shared"
    assert [r["place"] for r in shared["ranking"]] == [1, 1, 3]
    assert "share" in shared["explanation"]


def test_ma10_no_result_before_the_end() -> None:
    """MA-10/MA-8: standings exist only once the game is over."""
    assert MAHE.result(started()) is None and MAHE.public_view(started())["result"] is None


# --- MA-11 Variant: egg cards as dice ------------------------------------------------------------------


def _with_cards(state: MaheState, seat: int, cards: tuple[int, ...]) -> MaheState:
    """Give a seat won cards, taking them off the pile so the 24 cards still add up."""
    from dataclasses import replace

    players = list(state.players)
    players[seat] = replace(players[seat], cards=cards)
    supply = replace(state.supply, pile_count=state.supply.pile_count - len(cards))
    return replace(state, players=tuple(players), supply=supply)


def test_ma11_example_five_plus_card_two_moves_14_card_gone() -> None:
    """MA-11 Example: first die 5, card "2" played → (5+2)×2 = 14 fields, the card leaves the game."""
    state = started(face_up=2, egg_dice_variant=True)
    state = play(state, *dice(2, 1, 4), reveal(6))  # Martin (red) wins the 2 and stands on 21
    for _ in range(3):
        state = play(state, *dice(6, 6))
    assert state.players[0].cards == (2,)
    refused(state, card(2), "card-not-for-first-die")
    state = play(state, die(5))
    play_card = MAHE.legal_actions(state)["actions"][-1]
    assert play_card["type"] == "play_card" and play_card["cards"] == [2]
    assert play_card["outcomes"][0]["distance"] == 14
    state = play(state, card(2))
    view = MAHE.public_view(state)
    move = view["last_move"]
    assert move["dice"] == [{"value": 5, "source": "die"}, {"value": 2, "source": "card"}]
    assert (move["distance"], move["from"], move["to"]) == (14, 21, 14)
    own = MAHE.private_view(state, 0)
    assert own["cards"] == [] and own["eggs"] == 0 and view["box"] == [2]
    assert (view["pile_count"], view["set_aside_count"]) == (19, 4)  # 19 + 4 + 1 in the box = 24


def test_ma11_variant_must_be_on() -> None:
    """MA-11: cards as dice only when chosen at setup."""
    state = play(_with_cards(started(), 0, (2,)), die(3))
    refused(state, card(2), "variant-off")
    assert "play_card" not in [a["type"] for a in MAHE.legal_actions(state)["actions"]]


def test_ma11_sum_may_not_exceed_seven() -> None:
    """MA-11 Decision: a card that would take the sum over 7 cannot be played."""
    state = play(_with_cards(started(egg_dice_variant=True), 0, (5, 4)), die(3))
    refused(state, card(5), "card-would-exceed-seven")
    assert MAHE.legal_actions(state)["actions"][-1]["cards"] == [4]
    refused(state, card(6), "card-not-in-hand")


def test_ma11_only_the_deciders_cards() -> None:
    """MA-11 Decision: the decider plays their own card; the mover cannot be made to play theirs."""
    state = _with_cards(_with_cards(started(egg_dice_variant=True), 0, (2,)), 1, (1,))
    state = play(placed(state, {4: ["red", "yellow"]}), die(3))  # yellow (Eva) decides for red
    err = refused(state, card(2), "card-not-in-hand")
    assert "Eva" in err.detail
    state = play(state, card(1))
    assert state.players[1].cards == () and state.players[0].cards == (2,) and state.supply.box == (1,)


def test_ma11_one_card_per_player_per_turn_across_both_turtles() -> None:
    """MA-11 Decision: at most one card per player per turn; both moves of a two-turtle turn count."""
    state = _with_cards(started(TWO, egg_dice_variant=True), 0, (1, 1))
    state = play(state, choose("red"), die(2), card(1), stop())  # red: (2+1)×2 = 6
    assert state.turn.turtle == "darkblue" and state.turn.cards_played_by == (0,)
    state = play(state, die(2))
    refused(state, card(1), "one-card-per-turn")
    assert "play_card" not in [a["type"] for a in MAHE.legal_actions(state)["actions"]]
    assert "one-card-per-turn" in {n["code"] for n in MAHE.legal_actions(state)["notes"]}
    state = play(state, stop(), choose("yellow"), die(1), stop(), die(1), stop())
    assert state.turn.seat == 0 and state.turn.cards_played_by == ()
    state = play(state, choose("red"), die(1), card(1))  # a new turn: a card again
    assert state.supply.box == (1, 1)


# --- MA-12 Physical or digital chance ------------------------------------------------------------------


def test_ma12_values_typed_in_physical_drawn_in_digital() -> None:
    """MA-12: physical dice need a value; digital dice must not carry one — the server draws."""
    refused(started(), die(), "value-required", MalformedEvent)
    refused(started(), die(0), "value-out-of-range", MalformedEvent)
    digital = new(chance="digital")
    refused(digital, die(3), "value-not-allowed-digital", MalformedEvent)
    refused(digital, reveal(3), "cards-are-digital")
    after = play(digital, die())
    assert after.draws == 1 and len(after.turn.dice) == 1
    assert MAHE.legal_actions(digital)["actions"][0]["values"] is None


def test_ma12_seeded_draws_replay_and_undo_cannot_reroll() -> None:
    """MA-12: draws come from the seed and a counter in the state — the same seed replays the same
    game, and restoring an earlier state (undo) then rolling gives the same value again."""
    a, b = new(chance="digital", seed=42), new(chance="digital", seed=42)
    assert MAHE.dump(a) == MAHE.dump(b)
    rolled = play(a, die())
    assert rolled.turn.dice == play(a, die()).turn.dice == play(b, die()).turn.dice
    restored = MAHE.load(json.loads(json.dumps(MAHE.dump(a))))
    assert play(restored, die()).turn.dice == rolled.turn.dice
    values = {play(new(chance="digital", seed=s), die()).turn.dice[0].value for s in range(40)}
    assert values == {1, 2, 3, 4, 5, 6}
    decks = {new(chance="digital", seed=s).supply.hidden for s in range(5)}
    assert len(decks) == 5


def test_ma12_public_view_hides_digital_secrets() -> None:
    """MA-12: the seed, the digital pile order and the set-aside values are never shown to players."""
    state = new(chance="digital", seed=123456789)
    view = MAHE.public_view(state)
    text = json.dumps(view)
    assert "seed" not in text and "hidden" not in text and 'set_aside"' not in text
    assert "123456789" not in text
    assert set(view) == {
        "game",
        "options",
        "players",
        "raft",
        "track",
        "face_up",
        "pile_count",
        "set_aside_count",
        "box",
        "beach_exposed",
        "beach_taken_by",
        "phase",
        "turn",
        "last_move",
        "draws",
        "result",
    }
    dumped = MAHE.dump(state)
    assert dumped["seed"] == 123456789 and MAHE.load(dumped) == state


def test_ma10_explanation_counts_one_egg_and_one_card_in_the_singular() -> None:
    """MA-10's explanation says "1 egg" and "1 card", never "1 eggs"."""
    alone = rank([Player("A", ("red",), (1,)), Player("B", ("yellow",), ())])
    assert alone["explanation"] == "A wins with 1 egg; next is B with 0 (MA-10)."
    tied = rank([Player("A", ("red",), (1,)), Player("B", ("yellow",), (1,))])
    assert tied["explanation"] == "A and B both have 1 egg and 1 card: they share the win (MA-10 Decision)."
