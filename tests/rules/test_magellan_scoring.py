"""Board sheets (MG-2), stateless scoring (MG-10 … MG-12) and the Pizarro odds (MG-11)."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest
from magellan_support import TEST_SHEET

from api.rules.errors import IllegalMove, InvalidSetup
from api.rules.magellan.constants import EXPLORERS
from api.rules.magellan.scoring import ScoreInput, odds, pizarro_json, score_game
from api.rules.magellan.sheet import (
    BLANK,
    blank_sheet,
    form_json,
    missing_entries,
    parse_sheet,
    rule_fixed_entries,
    sheet_json,
)
from api.rules.magellan.state import Ship
from api.rules.magellan.stateless import score_position, simulate_draws


def test_mg2_blank_sheet_invents_nothing_and_round_trips() -> None:
    blank = blank_sheet()
    assert parse_sheet(blank) == BLANK and parse_sheet({}) == BLANK
    assert blank["explorers"]["vasco"]["B"]["II"] == {
        "left": {"bags": None, "crowns": None},
        "right": {"bags": None, "crowns": None},
    }
    assert sheet_json(parse_sheet(TEST_SHEET)) == TEST_SHEET


@pytest.mark.parametrize(
    "path, value",
    [(("cook", "A", "I", "bags"), -1), (("cook", "A", "I", "crowns"), True), (("cook", "A", "I", "x"), 1)],
)
def test_mg2_bad_values_are_refused_clearly(path: tuple[str, ...], value: object) -> None:
    sheet = copy.deepcopy(blank_sheet())
    explorer, side, field, key = path
    sheet["explorers"][explorer][side][field][key] = value
    with pytest.raises(InvalidSetup) as error:
        parse_sheet(sheet)
    assert error.value.code == "invalid-board-sheet" and "Cook side A field I" in error.value.detail


def test_mg2_missing_entries_name_what_the_sides_need_and_skip_rule_fixed_numbers() -> None:
    missing = missing_entries(BLANK, {"cook": "B", "vasco": "B", "pizarro": "B"})
    assert "Cook side B field II: crowns" in missing
    assert "Vasco da Gama side B field I left part: bags" in missing
    assert "Vasco da Gama side B field I left part: crowns" not in missing  # MG-8: no crowns there
    assert "Magellan side A field I: crowns" not in missing  # MG-10: Magellan scores the slid cards
    assert "Pizarro side B field III: crowns" not in missing  # MG-11: the draw instead
    assert not any("side A" in m for m in missing if m.startswith("Cook"))
    assert missing_entries(parse_sheet(TEST_SHEET), {}) == []
    fixed = {f["entry"] for f in rule_fixed_entries({"vasco": "B"})}
    assert "Vasco da Gama side B field III left part: crowns" in fixed


SIDE_CHOICES = [{}, {"cook": "B", "vasco": "B", "pizarro": "B"}, dict.fromkeys(EXPLORERS, "B")]


@pytest.mark.parametrize("sides", SIDE_CHOICES)
def test_mg2_the_phones_form_asks_what_the_rules_need(sides: dict[str, str]) -> None:
    """The phone builds its sheet form from form_json (no MG-2 of its own): the entries it asks for
    are the ones missing_entries names, in that order, and the fixed ones say which rule scores them."""
    form = form_json()
    asked = [e["label"] for x in EXPLORERS for e in form[x][sides.get(x, "A")] if e["fixed"] is None]
    assert asked == missing_entries(BLANK, sides)
    fixed = {e["label"] for x in EXPLORERS for e in form[x][sides.get(x, "A")] if e["fixed"]}
    assert fixed == {f["entry"] for f in rule_fixed_entries(sides)}


def test_mg10_scoring_refuses_an_incomplete_sheet() -> None:
    players = [ScoreInput("Red", (Ship("cook", 2),), (), ())]
    with pytest.raises(IllegalMove) as error:
        score_game(players, {"cook": "B"}, BLANK, 0)
    assert (
        error.value.code == "board-sheet-incomplete" and "Cook side B field II: crowns" in error.value.detail
    )


def test_mg10_vasco_b_only_the_right_part_scores() -> None:
    ships = (Ship("vasco", 1, "left"), Ship("vasco", 2, "right"))
    result = score_game([ScoreInput("Red", ships, (), ())], {"vasco": "B"}, parse_sheet(TEST_SHEET), 0)
    right = TEST_SHEET["explorers"]["vasco"]["B"]["II"]["right"]["crowns"]
    assert [f["crowns"] for f in result["scores"][0]["fields"]] == [0, right]


def test_mg11_pizarro_points() -> None:
    assert pizarro_json([5, 6, 2]) == {"draws": [5, 6, 2], "sum": 13, "points": 13, "bust": False}
    assert pizarro_json([5, 6, 2, 8])["points"] == 0
    assert pizarro_json([9, 9, 2])["points"] == 20
    assert pizarro_json(None) is None


def _brute(stack: list[int], total: int, target: int) -> Fraction:
    """Best chance to end above target, by enumerating every order (small stacks only)."""
    if total > 20:
        return Fraction(0)
    stop = Fraction(1 if total > target else 0)
    if not stack:
        return stop
    draw = sum(
        (_brute(stack[:i] + stack[i + 1 :], total + v, target) for i, v in enumerate(stack)), Fraction(0)
    ) / len(stack)
    return max(stop, draw)


@pytest.mark.parametrize("stack, total, target", [([1, 5, 8, 9, 3], 13, 16), ([9, 9, 2, 1], 10, 18)])
def test_mg11_odds_match_brute_force(stack: list[int], total: int, target: int) -> None:
    counts = {v: stack.count(v) for v in set(stack)}
    got = odds(counts, total, target)
    assert got["beat_chance"] == pytest.approx(float(_brute(stack, total, target)), abs=1e-6)
    bust = sum(1 for v in stack if total + v > 20) / len(stack)
    assert got["bust_chance"] == pytest.approx(bust)


def test_mg11_odds_full_stack_is_fast_and_sane() -> None:
    got = odds({v: 7 for v in range(1, 10)}, 0, None)
    assert got["bust_chance"] == 0 and got["advice"] == "draw" and 12 < got["expected_points"] < 20
    assert odds({v: 7 for v in range(1, 10)}, 20, 5)["beat_advice"] == "stop"
    assert odds({}, 7, None)["bust_chance"] is None


def test_mg11_simulated_draw_is_seeded_and_prefix_stable() -> None:
    stack = {v: 7 for v in range(1, 10)}
    three, five = simulate_draws(stack, 42, 3), simulate_draws(stack, 42, 5)
    assert five[: len(three)] == three


def test_stateless_checks_the_position() -> None:
    others = [{"name": "Blue"}, {"name": "Tan"}]  # Magellan is for 3 to 6 players (MG-3)
    base = {"board_sheet": TEST_SHEET, "players": [{"name": "Red"}, *others]}
    for players, code in [
        ([{"name": "Red", "ships": [{"explorer": "cook", "field": 3}] * 2}], "too-many-ships"),
        ([{"name": "Red", "magellan_piles": [[1]]}], "magellan-piles-mismatch"),
        ([{"name": "Red", "money": [9] * 8}], "too-many-copies"),
        ([{"name": "Red", "pizarro": {"draws": [1]}}], "no-pizarro-draw"),
        ([{"name": "Red", "ships": [{"explorer": "vasco", "field": 1, "part": "left"}]}], "no-parts"),
    ]:
        with pytest.raises(IllegalMove) as error:
            score_position({**base, "players": [*players, *others]})
        assert error.value.code == code
    assert score_position(base)["winners"] == [0, 1, 2]  # nobody scored: all share (MG-12)
    with pytest.raises(IllegalMove) as error:
        score_position({**base, "players": [{"name": "Red"}]})
    assert error.value.code == "player-count" and error.value.rule == "MG-3"


def test_mg12_ties_share_every_place() -> None:
    players = [ScoreInput(n, (), (1,), ()) for n in ("A", "B", "C")] + [ScoreInput("D", (), (), ())]
    result = score_game(players, {}, BLANK, 2)
    assert [r["place"] for r in result["ranking"]] == [1, 1, 1, 4] and result["winners"] == [2, 0, 1]
    assert list(itertools.chain(result["scoring_order"])) == [2, 3, 0, 1]
