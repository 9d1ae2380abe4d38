"""Magellan rules MG-1 … MG-12, one behaviour per test, each citing its rule."""

from __future__ import annotations

from collections import Counter

import pytest
from magellan_support import (
    FULL,
    PASS,
    TEST_SHEET,
    actions_of,
    bid,
    ledger_places,
    new,
    no_sale,
    play,
    reveal,
    sell,
)

from api.i18n import localize
from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent
from api.rules.magellan.constants import crowns
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState
from api.rules.magellan.views import hand_of, private_view


def ledger(count: int = 3, **options: object) -> MagellanState:
    return new(count, depth="ledger", board_sheet=TEST_SHEET, **options)


def refused(state: MagellanState, event: dict, code: str) -> IllegalMove | MalformedEvent:
    with pytest.raises((IllegalMove, MalformedEvent)) as error:
        MAGELLAN.apply(state, event)
    assert error.value.code == code, error.value.detail
    return error.value


def said(error: IllegalMove | MalformedEvent, language: str) -> str:
    """The refusal as the server says it in `language` (every part of it from the catalog)."""
    return localize(error.template, error.params, language)


def pay(cards: list[int]) -> dict:
    return {"type": "pay", "cards": cards}


def fill_phase(state: MagellanState) -> MagellanState:
    """Box every card left in the current phase (physical: typed in, everybody passes)."""
    phase = state.phase
    while state.phase == phase and state.stage in ("reveal", "auction"):
        if state.stage == "reveal":
            state = play(state, reveal(state.deck.hidden[0]))
        while state.stage == "auction":
            state = play(state, PASS)
    return state


# --- MG-1 material -------------------------------------------------------------------------------------


def test_mg1_decks_and_money() -> None:
    state = new(3)
    assert [len(d.hidden) for d in state.decks] == [18, 12, 6]
    assert Counter(state.decks[0].hidden) == Counter({e: 3 for e in Counter(state.decks[2].hidden)})
    assert sum(FULL.values()) == 63 and set(FULL.values()) == {7}


def test_mg1_decision_crowns_on_money_cards() -> None:
    assert [crowns(v) for v in range(1, 10)] == [3, 3, 3, 2, 2, 2, 1, 1, 1]
    assert sum(crowns(v) for v in range(1, 10)) == 18  # a starting set is worth 18 points


# --- MG-3 setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 6])
def test_mg3_ledger_setup_hands_and_draw_stack(count: int) -> None:
    state = ledger(count, chance="digital")
    assert all(p.hand == tuple(range(1, 10)) for p in state.players)
    assert len(state.draw) == 63 - 9 * count and ledger_places(state) == FULL
    assert all(p.ships_left == 6 for p in state.players)


def test_mg3_player_count_and_auctioneer() -> None:
    with pytest.raises(InvalidSetup):
        new(2)
    with pytest.raises(InvalidSetup):
        MAGELLAN.new_game([{"name": n} for n in "abcdefg"], {}, 1)
    with pytest.raises(InvalidSetup) as error:
        new(3, auctioneer=3)
    assert error.value.code == "invalid-option"
    with pytest.raises(InvalidSetup):
        new(3, sides={"cook": "C"})
    for not_a_map in (False, 0, "", []):  # MG-1: sides map explorers to A or B; null means all A
        with pytest.raises(InvalidSetup) as error:
            new(3, sides=not_a_map)
        assert error.value.code == "invalid-option"
    assert new(3, sides=None).options.sides == ("A",) * 6
    with pytest.raises(InvalidSetup):
        new(3, colour="red")


def test_mg3_physical_waits_for_the_auctioneer_digital_turns_up_at_once() -> None:
    state = new(4, auctioneer=2)
    legal = actions_of(state)
    assert legal["step"] == "reveal" and legal["next"]["seat"] == 2
    refused(state, {"type": "reveal", "explorer": "cook", "seat": 1}, "not-your-turn")
    digital = new(4, chance="digital", auctioneer=2)
    assert digital.stage == "auction" and digital.card is not None
    refused(digital, reveal("cook"), "cards-are-digital")


def test_digital_draws_are_seeded_and_secret() -> None:
    a, b = new(3, seed=5, chance="digital"), new(3, seed=5, chance="digital")
    assert a == b
    view = MAGELLAN.public_view(a)
    assert "seed" not in str(view) and view["decks"][0]["remaining"] == 17
    assert MAGELLAN.reveals_hidden_chance(a, play(a, PASS, PASS, PASS))  # boxed → next card turned up


# --- MG-4 auction --------------------------------------------------------------------------------------


def test_mg4_auctioneer_opens_then_clockwise_and_higher_bids() -> None:
    state = play(new(3, auctioneer=1), reveal("cook"))
    assert actions_of(state)["next"]["seat"] == 1
    state = play(state, bid(2))
    assert actions_of(state)["next"]["seat"] == 2
    refused(state, bid(2), "bid-too-low")
    refused(state, {"type": "bid", "amount": 3, "seat": 0}, "not-your-turn")
    bid_action = actions_of(state)["actors"][0]["actions"][0]
    assert bid_action == {"type": "bid", "min": 3, "max": None}


def test_mg4_pass_is_final_and_last_bidder_wins() -> None:
    state = play(new(3), reveal("columbus"), bid(1), PASS, bid(2))  # seat 1 passed
    assert state.card is not None and state.card.turn == 0  # seat 1 is skipped
    state = play(state, PASS)
    assert state.history[-1].seat == 2 and state.history[-1].price == 2
    assert state.players[2].ships[0].explorer == "columbus"


def test_mg4_nobody_bids_the_card_goes_to_the_box() -> None:
    state = no_sale(new(3), "pizarro")
    assert state.history[-1].outcome == "no-bids" and not any(p.ships for p in state.players)


def test_mg4_decision_previous_winner_opens_next_auction() -> None:
    state = sell(new(3), "cook", 2)
    state = play(state, reveal("vasco"))
    assert actions_of(state)["next"]["seat"] == 2


# --- MG-5 eligibility ------------------------------------------------------------------------------------


def test_mg5_phase_two_only_owners_of_a_previous_card_may_bid() -> None:
    state = sell(new(3), "cook", 1)
    state = fill_phase(state)
    assert state.phase == 2
    state = play(state, reveal("cook"))
    legal = actions_of(state)
    assert legal["next"]["seat"] == 1 and state.card is not None and state.card.order == (1,)
    state = play(state, bid(1))
    assert state.players[1].ships[0].field == 2
    state = play(state, reveal("cook"))  # seat 1's only Cook ship moved on: nobody may bid (Decision)
    assert state.history[-1].outcome == "nobody-eligible" and state.stage == "reveal"


def test_mg4_mg5_decision_start_moves_clockwise_past_ineligible_previous_winner() -> None:
    state = sell(sell(new(3), "cook", 1), "vasco", 0)
    state = fill_phase(state)
    state = play(state, reveal("cook"))  # the last winner (seat 0) has no Cook ship
    assert state.card is not None and state.card.order == (1,)


def test_mg5_mg7_decision_no_ship_left_no_bid_in_phase_one() -> None:
    state = new(3)
    for explorer in ("cook", "cook", "cook", "vasco", "vasco", "vasco"):
        state = sell(state, explorer, 0)
    assert state.players[0].ships_left == 0
    state = play(state, reveal("pizarro"))
    assert state.card is not None and 0 not in state.card.order


# --- MG-6 payment ---------------------------------------------------------------------------------------


def test_mg6_pay_at_least_the_bid_overpaying_allowed() -> None:
    state = sell(ledger(), "columbus", 0, price=7)
    legal = actions_of(state)
    assert legal["step"] == "pay" and legal["actors"][0]["actions"][0]["at_least"] == 7
    refused(state, pay([3, 3]), "cards-not-in-hand")
    refused(state, pay([2, 4]), "payment-too-low")
    state = play(state, pay([9]))
    assert hand_of(state, 0) == [1, 2, 3, 4, 5, 6, 7, 8] and state.discard == (9,)
    assert MAGELLAN.public_view(state)["players"][0]["hand_size"] == 8


def test_mg6_ledger_refuses_bids_above_the_money() -> None:
    state = play(ledger(), reveal("pizarro"))
    refused(state, bid(46), "bid-above-money")
    # The limit is the bidder's secret: not in the shared legal actions, only in their own view.
    assert actions_of(state)["actors"][0]["actions"][0]["max"] is None
    assert MAGELLAN.private_view(state, state.card.turn)["actions"]["bid_max"] == 45


# --- MG-7 ships -----------------------------------------------------------------------------------------


def test_mg7_phase_one_places_later_phases_move() -> None:
    state = sell(sell(new(3), "pizarro", 0), "pizarro", 0)
    state = fill_phase(state)
    state = sell(state, "pizarro", 0)
    fields = sorted(s.field for s in state.players[0].ships)
    assert fields == [1, 2] and state.players[0].ships_left == 4


# --- MG-8 explorer actions --------------------------------------------------------------------------------


def test_mg8_columbus_veto_sends_the_card_under_the_deck_once() -> None:
    state = sell(new(3), "columbus", 1)
    state = play(state, reveal("cook"))
    vetoer = [a for a in actions_of(state)["actors"] if a["actions"][0]["type"] == "veto"]
    assert [a["seat"] for a in vetoer] == [1]
    state = play(state, {"type": "veto", "seat": 1})
    assert state.stage == "reveal" and state.deck.bottom == ("cook",)
    assert state.players[1].vetoes == 0 and state.players[1].vetoes_used == 1
    state = play(state, reveal("vasco"))
    refused(state, {"type": "veto"}, "no-veto")
    state = play(state, bid(1))
    refused(play(new(3), reveal("cook")), {"type": "veto"}, "no-veto")


def test_mg8_veto_only_before_the_first_bid_and_vetoed_card_comes_back_last() -> None:
    state = sell(sell(new(3), "columbus", 0), "columbus", 0)  # two vetoes
    state = play(state, reveal("cook"), bid(1))
    refused(state, {"type": "veto"}, "veto-too-late")
    state = play(state, PASS, PASS)
    state = play(state, reveal("magellan"), {"type": "veto"})
    assert state.stage == "reveal" and state.deck.bottom == ("magellan",)
    while state.deck.hidden:
        state = play(state, reveal(state.deck.hidden[0]), PASS, PASS, PASS)
    # Known to all, the vetoed card comes up by itself once the rest of the deck is gone (MG-8).
    assert state.phase == 1 and state.stage == "auction" and state.card is not None
    assert state.card.explorer == "magellan" and state.deck.size == 0
    refused(state, {"type": "veto"}, "veto-last-card")


def test_mg8_magellan_a_slides_from_the_hand_and_needs_a_card_left() -> None:
    state = sell(ledger(), "magellan", 0, price=5)
    refused(state, pay([1, 2, 3, 4, 5, 6, 7, 8, 9]), "must-keep-a-card")
    state = play(state, pay([5]))
    not_held = refused(state, {"type": "slide", "value": 5}, "card-not-in-hand")
    assert not_held.detail == "Red holds no 5 to slide (MG-8)."
    assert said(not_held, "de") == "Red hat keine 5 zum Unterschieben auf der Hand (MG-8)."
    state = play(state, {"type": "slide", "value": 1})
    assert state.players[0].piles == ((1,),) and 1 not in state.players[0].hand
    assert MAGELLAN.public_view(state)["players"][0]["magellan_piles"] == [{"cards": 1, "slid": None}]
    assert private_view(state, 0)["magellan_piles"] == [[1]]
    state = play(state, reveal("magellan"))
    too_high = refused(state, bid(45), "bid-above-money")  # the hand must keep a card to slide
    assert too_high.rule == "MG-8" and "must keep one for Magellan (MG-6, MG-8)." in too_high.detail
    assert said(too_high, "it").endswith("deve tenerne una per Magellano (MG-6, MG-8).")


def test_mg8_magellan_b_slides_from_the_payment_rest_discarded() -> None:
    state = sell(ledger(sides={"magellan": "B"}), "magellan", 0, price=6)
    state = play(state, pay([2, 4]))
    assert state.card is not None and state.card.payment == (2, 4)
    refused(state, {"type": "slide", "value": 9}, "card-not-in-payment")
    state = play(state, {"type": "slide", "value": 2})
    assert state.players[0].piles == ((2,),) and state.discard == (4,)
    assert MAGELLAN.public_view(state)["players"][0]["magellan_piles"] == [{"cards": 1, "slid": [2]}]


def test_mg8_magellan_phase_two_goes_onto_the_pile_of_the_moved_ship() -> None:
    state = sell(new(3), "magellan", 0)
    state = play(state, {"type": "slide", "value": 1})
    state = sell(state, "magellan", 0)
    state = play(state, {"type": "slide", "value": 2})
    state = fill_phase(state)
    state = sell(state, "magellan", 0)
    refused(state, {"type": "slide", "value": 3}, "pile-required")
    refused(state, {"type": "slide", "value": 3, "pile": 2}, "wrong-pile")
    state = play(state, {"type": "slide", "value": 3, "pile": 1})
    assert state.players[0].piles == ((1,), (2, 3))


def test_mg8_vasco_a_draws_at_once() -> None:
    state = sell(ledger(), "vasco", 0)
    state = play(state, pay([1]))
    assert actions_of(state)["actors"][0]["actions"] == [{"type": "draw", "count": 1}]
    refused(state, {"type": "draw", "cards": [5, 5]}, "too-many-cards")
    state = play(state, {"type": "draw", "cards": [5]})
    assert hand_of(state, 0) == [2, 3, 4, 5, 5, 6, 7, 8, 9]
    digital = sell(ledger(), "vasco", 1)  # Vasco A field I: one card at once
    digital = replace_chance(digital)
    digital = play(digital, pay([1]))
    assert len(digital.players[1].hand) == 9 and digital.stage == "auction"  # next card turned up
    assert ledger_places(digital) == FULL


def replace_chance(state: MagellanState) -> MagellanState:
    """The same position with server draws (digital money draws, MG-8)."""
    from dataclasses import replace

    return replace(state, options=replace(state.options, chance="digital"))


def test_mg8_vasco_b_left_draws_right_scores() -> None:
    state = sell(ledger(sides={"vasco": "B"}), "vasco", 0)
    state = play(state, pay([1]))
    options = actions_of(state)["actors"][0]["actions"][0]["options"]
    assert {(o["part"], o["draws"]) for o in options} == {("left", 1), ("right", 0)}
    state = play(state, {"type": "vasco_part", "part": "left"}, {"type": "draw", "cards": [9]})
    state = sell(state, "vasco", 0)
    state = play(state, pay([2]), {"type": "vasco_part", "part": "right"})
    assert sorted(s.part or "" for s in state.players[0].ships) == ["left", "right"]
    state = fill_phase(state)
    while state.stage == "phase_end":
        state = MAGELLAN.apply(state, _income_event(state))
    state = sell(state, "vasco", 0)
    state = play(state, pay([3]))
    refused(state, {"type": "vasco_part", "part": "right"}, "from-part-required")
    state = play(state, {"type": "vasco_part", "part": "right", "from_part": "left"})
    assert sorted((s.field, s.part) for s in state.players[0].ships) == [(1, "right"), (2, "right")]


def _income_event(state: MagellanState) -> dict:
    actor = actions_of(state)["actors"][0]
    action = actor["actions"][0]
    if action["type"] == "draw":
        return {"type": "draw", "seat": actor["seat"], "cards": [state.draw[0]]}
    return {"type": "end_swaps", "seat": actor["seat"]}


def test_mg8_cook_a_open_hand_until_phase_end() -> None:
    state = sell(ledger(), "cook", 1, price=3)
    state = play(state, pay([3]))
    view = MAGELLAN.public_view(state)
    assert view["players"][1]["open_hand"] == [1, 2, 4, 5, 6, 7, 8, 9]
    assert view["players"][0]["open_hand"] is None
    state = fill_phase(state)
    assert not state.players[1].hand_open  # MG-9: hands close at phase end


def test_mg8_cook_b_left_neighbour_pulls_a_card() -> None:
    state = sell(ledger(sides={"cook": "B"}), "cook", 2, price=2)
    refused(state, pay(list(range(1, 10))), "must-keep-a-card")
    state = play(state, pay([2]))
    legal = actions_of(state)
    assert legal["next"]["seat"] == 0 and legal["actors"][0]["actions"][0]["from_seat"] == 2
    refused(state, {"type": "cook_pull", "value": 2}, "card-not-in-hand")
    state = play(state, {"type": "cook_pull", "value": 7, "seat": 0})
    assert 7 not in state.players[2].hand and state.discard == (2, 7)
    digital = play(replace_chance(sell(ledger(sides={"cook": "B"}), "cook", 2, price=2)), pay([2]))
    refused(digital, {"type": "cook_pull", "value": 7}, "value-not-allowed-digital")
    digital = play(digital, {"type": "cook_pull"})
    assert len(digital.players[2].hand) == 7 and len(digital.discard) == 2


def test_mg8_marco_polo_a_swaps_after_income() -> None:
    state = sell(ledger(), "marco_polo", 0)
    state = play(state, pay([1]))
    state = fill_phase(state)
    assert state.stage == "phase_end"
    while state.phase_end is not None and any(state.phase_end.due):
        state = MAGELLAN.apply(state, _income_event(state))
    assert state.phase_end is not None and state.phase_end.swaps == (3, 0, 0)
    refused(state, {"type": "swap", "discard": 1, "draw": state.draw[0], "seat": 1}, "not-your-turn")
    refused(state, {"type": "swap", "discard": 9}, "draw-required")
    drawn = state.draw[0]
    state = play(state, {"type": "swap", "discard": 9, "draw": drawn})
    assert state.phase_end is not None and state.phase_end.swaps == (2, 0, 0)
    assert ledger_places(state) == FULL
    state = play(state, {"type": "end_swaps"})
    assert state.phase == 2 and state.stage == "reveal"


# --- MG-9 end of phase -------------------------------------------------------------------------------


def test_mg9_income_two_cards_plus_bags_and_reshuffle() -> None:
    state = sell(ledger(), "cook", 0, price=3)
    state = play(state, pay([3]))
    state = fill_phase(state)
    bags = TEST_SHEET["explorers"]["cook"]["A"]["I"]["bags"]
    assert state.phase_end is not None and state.phase_end.income == (2 + bags, 2, 2)
    assert state.discard == () and len(state.draw) == 63 - 27 + 1  # the payment was shuffled in


def test_mg9_mg2_income_waits_for_the_bags_of_ships_on_the_field() -> None:
    state = sell(new(3, depth="ledger", chance="digital"), None, 0)
    state = play(state, pay([1]))
    while state.stage == "sale":
        event = {"type": "slide", "value": 2} if state.card and state.card.todo[0] == "slide" else {}
        state = play(state, event) if event else play(state, {"type": "vasco_part", "part": "right"})
    while state.stage == "auction":
        state = play(state, PASS)
    assert state.stage == "phase_end"
    legal = actions_of(state)
    assert legal["blocked"]["code"] == "board-sheet-incomplete" and len(legal["blocked"]["missing"]) == 1
    state = play(state, {"type": "set_board_sheet", "sheet": TEST_SHEET})
    assert state.phase == 2 and all(len(p.hand) >= 10 for p in state.players[1:])


# --- MG-10 … MG-12 scoring --------------------------------------------------------------------------------


def finished(state: MagellanState) -> MagellanState:
    """Play a physical outcomes game to its end: all remaining cards boxed, hands typed in."""
    while state.stage in ("reveal", "auction"):
        state = fill_phase(state)
    for seat in range(len(state.players)):
        state = play(state, {"type": "final_hand", "seat": seat, "cards": [9]})
    return state


def test_mg10_order_from_the_winner_of_the_last_card_and_mg12_shared_win() -> None:
    state = finished(sell(new(3, board_sheet=TEST_SHEET), "cook", 1))
    result = MAGELLAN.result(state)
    assert result is not None and result["scoring_order"] == [1, 2, 0]
    tied = finished(new(3, board_sheet=TEST_SHEET))
    result = MAGELLAN.result(tied)
    assert result is not None and result["winners"] == [0, 1, 2] and result["decided_by"] == "shared"
    assert {r["place"] for r in result["ranking"]} == {1}


def test_mg10_final_hands_respect_seven_copies() -> None:
    state = finished(new(3, board_sheet=TEST_SHEET))
    assert state.stage == "finished"
    open_game = new(3)
    while open_game.stage in ("reveal", "auction"):
        open_game = fill_phase(open_game)
    open_game = play(open_game, {"type": "final_hand", "seat": 0, "cards": [9, 9, 9, 9, 9]})
    copies = refused(open_game, {"type": "final_hand", "seat": 1, "cards": [9, 9, 9]}, "too-many-copies")
    # MG-1 in the words of MG-10: whose hand it is, said in the language too.
    assert "Blue's hand would make more than seven 9s" in copies.detail
    assert "la main de Blue" in said(copies, "fr") and "'s hand" not in said(copies, "fr")
    refused(open_game, {"type": "final_hand", "cards": [1]}, "seat-required")


def test_mg11_pizarro_draw_digital_stops_at_bust() -> None:
    state = new(3, sides={"pizarro": "B"}, board_sheet=TEST_SHEET, chance="digital", seed=3)
    # Buy every Pizarro card for seat 0 (the digital deck order decides when they come up).
    while state.stage in ("auction",):
        card = state.card
        assert card is not None
        if card.explorer == "pizarro" and card.turn == 0:
            state = play(state, bid(card.high_bid + 1))
        else:
            state = play(state, PASS)
    for seat in range(3):
        state = play(state, {"type": "final_hand", "seat": seat, "cards": []})
    assert state.scoring is not None and state.scoring.pizarro_seat == 0
    while state.stage == "scoring":
        state = play(state, {"type": "pizarro_draw"})
    assert sum(state.players[0].pizarro) > 20
    result = MAGELLAN.result(state)
    assert result is not None and result["scores"][0]["pizarro"]["points"] == 0


def test_set_board_sheet_refuses_bad_sheets_and_game_over_refuses_everything() -> None:
    state = new(3)
    bad = {"explorers": {"cook": {"A": {"I": {"bags": -1}}}}}
    refused(state, {"type": "set_board_sheet", "sheet": bad}, "invalid-board-sheet")
    refused(state, {"type": "set_board_sheet"}, "sheet-required")
    done = finished(new(3, board_sheet=TEST_SHEET))
    refused(done, {"type": "set_board_sheet", "sheet": TEST_SHEET}, "game-over")
    refused(state, {"type": "fly"}, "unknown-event")
