"""The Mhing table game: setup, round events, dealer rotation (MH-2), MH-9 settlements, views, result."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent, RuleError
from api.rules.mhing.game import MHING
from api.rules.mhing.state import MhingState
from api.rules.registry import get_game

Event = dict[str, Any]
E1 = "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"  # 8 premiums, 64 points


def players(n: int) -> list[dict[str, str]]:
    return [{"name": name} for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:n]]


def new(n: int = 3, **options: Any) -> MhingState:
    return MHING.new_game(players(n), options, 0)


def play(state: MhingState, *events: Event) -> MhingState:
    for event in events:
        state = MHING.apply(state, event)
    return state


def won(winner: int, hidden: str = E1, discarder: int | None = None, **hand: Any) -> Event:
    return {"type": "round_won", "winner": winner, "discarder": discarder, "hand": {"hidden": hidden, **hand}}


def typed(winner: int, points: int, discarder: int | None = None) -> Event:
    return {"type": "round_points", "winner": winner, "points": points, "discarder": discarder}


DRAWN: Event = {"type": "round_drawn"}


def test_registered_as_mhing_for_2_to_6_players() -> None:
    game = get_game("mhing")
    assert game is MHING and (MHING.title, MHING.min_players, MHING.max_players) == ("Mhing", 2, 6)
    assert MHING.normalize_options({}) == {"settlement": 1, "first_seat": 0}


@pytest.mark.parametrize(
    ("count", "options", "code"),
    [
        (1, {}, "player-count"),
        (7, {}, "player-count"),
        (5, {"settlement": 2}, "settlement-player-count"),
        (3, {"settlement": 3}, "invalid-option"),
        (3, {"settlement": True}, "invalid-option"),
        (3, {"first_seat": 3}, "invalid-option"),
        (3, {"colour": "red"}, "unknown-option"),
    ],
)
def test_bad_setups_are_refused(count: int, options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidSetup) as error:
        MHING.new_game(players(count) if count <= 6 else players(6) + [{"name": "Gus"}], options, 0)
    assert error.value.code == code


def test_mh9_variant_2_is_for_2_to_4_players() -> None:
    for count in (2, 3, 4):
        assert new(count, settlement=2).scores == (500,) * count
    with pytest.raises(InvalidSetup) as error:
        new(6, settlement=2)
    assert error.value.rule == "MH-9"


def test_mh2_the_deal_passes_every_round_and_after_a_drawn_round() -> None:
    """MH-2; Decision (Kibitz): a drawn round passes the deal too."""
    state = new(3, first_seat=2)
    assert state.dealer == 2 and MHING.legal_actions(state)["decider"]["seat"] == 2
    state = play(state, DRAWN)
    assert state.dealer == 0 and state.rounds[-1].dealer == 2
    notes = {n["code"] for n in MHING.legal_actions(state)["notes"]}
    assert "deal-passes-after-draw" in notes
    state = play(state, won(1), typed(0, 8))
    assert state.dealer == 2 and [r.dealer for r in state.rounds] == [2, 0, 1]


def test_a_won_round_is_scored_by_the_engine_and_kept_itemised() -> None:
    state = play(new(3), won(1, discarder=2, flowers="f1"))
    played = state.rounds[-1]
    assert (played.winner, played.discarder, played.premiums, played.points) == (1, 2, 9, 64)
    assert played.score is not None and played.score["discard"] is True
    assert {p["code"] for p in played.score["premiums"]} >= {"flower", "honour-triplet"}
    assert state.scores == (0, 64, 0)
    view = MHING.public_view(state)
    assert view["last_round"]["score"]["reading"]["notation"].startswith("b1 b2 b3")
    view["last_round"]["score"]["points"] = -1  # the view is a copy
    assert state.rounds[-1].score is not None and state.rounds[-1].score["points"] == 64


def test_points_typed_in_as_points_or_premiums_mh8() -> None:
    state = play(new(2), typed(0, 32), {"type": "round_points", "winner": 1, "premiums": 7})
    assert state.scores == (32, 32) and state.rounds[-1].premiums == 7


@pytest.mark.parametrize(
    ("event", "code", "kind"),
    [
        (won(1, hidden="b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k3"), "not-a-winning-hand", IllegalMove),
        (won(1, hidden="b1 b2 b3"), "not-a-winning-hand", IllegalMove),
        (won(1, discarder=1), "discarder-is-winner", IllegalMove),
        (won(3), "no-such-seat", IllegalMove),
        (won(1, discarder=2, discard=False), "discard-mismatch", IllegalMove),
        ({"type": "round_won", "winner": 1}, "hand-required", MalformedEvent),
        ({"type": "round_won", "hand": {"hidden": E1}}, "winner-required", MalformedEvent),
        ({"type": "round_won", "winner": "1", "hand": {"hidden": E1}}, "invalid-seat", MalformedEvent),
        (won(1, hidden="b1 b2 x3"), "unknown-card", MalformedEvent),
        (won(1, colour="red"), "unknown-hand-field", MalformedEvent),
        (typed(0, 48), "not-a-points-value", IllegalMove),
        (typed(0, 1), "not-a-points-value", IllegalMove),
        ({"type": "round_points", "winner": 0}, "points-or-premiums", MalformedEvent),
        (
            {"type": "round_points", "winner": 0, "points": 2, "premiums": 1},
            "points-or-premiums",
            MalformedEvent,
        ),
        ({"type": "round_points", "winner": 0, "premiums": -1}, "invalid-premiums", MalformedEvent),
        ({"type": "shuffle"}, "unknown-event", MalformedEvent),
        ({"winner": 0}, "type-required", MalformedEvent),
    ],
)
def test_refused_events_say_why(event: Event, code: str, kind: type) -> None:
    with pytest.raises(RuleError) as error:
        MHING.apply(new(3), event)
    assert error.value.code == code and isinstance(error.value, kind), error.value.detail


def test_mh9_variant_1_first_to_500_wins() -> None:
    state = play(new(3), typed(0, 256), won(1, discarder=0), DRAWN, typed(2, 128))
    assert state.scores == (256, 64, 128) and MHING.result(state) is None
    state = play(state, typed(0, 256))
    assert state.finished and state.ended_by == "target"
    result = MHING.result(state)
    assert result is not None
    assert result["winners"] == [0] and result["decided_by"] == "target"
    assert [(r["seat"], r["score"], r["place"]) for r in result["ranking"]] == [
        (0, 512, 1),
        (2, 128, 2),
        (1, 64, 3),
    ]
    with pytest.raises(IllegalMove) as error:
        MHING.apply(state, DRAWN)
    assert error.value.code == "game-over"
    assert MHING.legal_actions(state)["actions"] == []


def test_mh9_variant_2_others_pay_discarder_double_nobody_below_zero() -> None:
    state = play(new(3, settlement=2), typed(0, 64))
    assert state.scores == (628, 436, 436)
    state = play(state, typed(0, 256, discarder=1))  # seat 1 owes 512, has 436
    paid = {p.seat: (p.owed, p.paid) for p in state.rounds[-1].payments}
    assert paid == {1: (512, 436), 2: (256, 256)}
    assert state.scores == (1320, 0, 180) and not state.finished
    state = play(state, typed(1, 32))  # a player at 0 may still win a round
    assert state.scores == (1288, 64, 148)
    state = play(state, typed(0, 1024, discarder=2))
    assert state.scores == (1500, 0, 0) and state.ended_by == "all-points"
    result = MHING.result(state)
    assert result is not None and result["winners"] == [0] and result["decided_by"] == "all-points"
    assert [r["place"] for r in result["ranking"]] == [1, 2, 2]


def test_end_game_by_agreement_ranks_by_score_and_shares_ties() -> None:
    state = play(new(3), typed(0, 32), typed(1, 32), {"type": "end_game"})
    result = MHING.result(state)
    assert result is not None and result["winners"] == [0, 1] and result["decided_by"] == "agreement"
    assert "share" in result["explanation"]


def test_views_and_legal_actions_shapes() -> None:
    state = play(new(4, settlement=2, first_seat=1), won(2, discarder=3))
    view = MHING.public_view(state)
    assert view["settlement"] == 2 and view["total_points"] == 2000 and view["target"] is None
    assert view["round"] == 2 and view["dealer"] == 2
    assert [p["dealer"] for p in view["players"]] == [False, False, True, False]
    last = view["last_round"]
    assert last["payments"] == [
        {"seat": 0, "owed": 64, "paid": 64},
        {"seat": 1, "owed": 64, "paid": 64},
        {"seat": 3, "owed": 128, "paid": 128},
    ]
    assert last["changes"] == [-64, -64, 256, -128] and sum(p["score"] for p in view["players"]) == 2000
    legal = MHING.legal_actions(state)
    assert [a["type"] for a in legal["actions"]] == ["round_won", "round_points", "round_drawn", "end_game"]
    assert legal["dealer"] == {"seat": 2, "name": "Cy"} and legal["decider"]["seat"] == 2
    assert legal["actions"][1]["points_table"][7] == {"premiums": 7, "points": 32}
    assert "discarder-pays-double" in {n["code"] for n in legal["notes"]}
    assert MHING.reveals_hidden_chance(state, state) is False


EVENTS = st.one_of(
    st.builds(
        lambda w, d, p: typed(w, p, d),
        st.integers(0, 3),
        st.none() | st.integers(0, 3),
        st.sampled_from([0, 2, 8, 32, 128, 512]),
    ),
    st.builds(lambda w, d: won(w, discarder=d), st.integers(0, 3), st.none() | st.integers(0, 3)),
    st.just(DRAWN),
)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.sampled_from([1, 2]), st.lists(EVENTS, max_size=25))
def test_random_games_keep_the_books_straight(count: int, variant: int, events: list[Event]) -> None:
    """Variant 2 keeps 500 per player in play and nobody below 0; variant 1 only adds; dump/load and
    replay give the same state; refused events change nothing."""
    state = new(count, settlement=variant, first_seat=random.Random(len(events)).randrange(count))
    accepted = []
    for event in events:
        try:
            after = MHING.apply(state, event)
        except RuleError:
            continue
        accepted.append(event)
        if variant == 2:
            assert sum(after.scores) == 500 * count and min(after.scores) >= 0
        else:
            assert all(a >= b for a, b in zip(after.scores, state.scores, strict=True))
        assert after.dealer == (state.dealer + 1) % count
        state = after
        assert MHING.load(json.loads(json.dumps(MHING.dump(state)))) == state
        if state.finished:
            break
    replayed = new(count, settlement=variant, first_seat=state.options.first_seat)
    for event in accepted:
        replayed = MHING.apply(replayed, event)
    assert replayed == state
    assert (MHING.result(state) is not None) == state.finished
