"""MG-8 as one table (api/rules/magellan/powers.py): each row says what REFEREE.md MG-8 says, and
every (explorer, side, field) cell is exercised by the recorded corpus with the effect its row
names: the winner's follow-up steps, draws, vetoes, Marco Polo swaps and the Pizarro drawer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from api.rules.magellan.constants import EXPLORER_NAMES, EXPLORERS, FIELDS, SIDES
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.powers import POWERS, Power
from api.rules.magellan.state import MagellanState
from api.rules.replay import advance
from tests.rules.magellan_corpus import recorded

REFEREE = Path(__file__).resolve().parents[3] / "shared" / "rules" / "REFEREE.md"


def mg8() -> dict[str, str]:
    """REFEREE.md MG-8, one text per explorer bullet."""
    if not REFEREE.exists():
        pytest.skip("shared/rules/REFEREE.md is not beside the checkout")
    text = REFEREE.read_text().split("**MG-8", 1)[1].split("**MG-9", 1)[0]
    bullets = [" ".join(b.split()) for b in text.split("\n- ")[1:]]
    return {name: next(b for b in bullets if b.startswith(name)) for name in EXPLORER_NAMES.values()}


def cells(**fields: Any) -> list[tuple[str, int]]:
    """(side, field) of every cell whose row has all of `fields`, for one explorer given as `explorer`."""
    explorer = fields.pop("explorer")
    return [
        (side, field)
        for side in SIDES
        for field in FIELDS
        if all(getattr(POWERS[explorer, side, field], k) == v for k, v in fields.items())
    ]


ALL = [(side, field) for side in SIDES for field in FIELDS]


def test_every_row_is_what_referee_md_mg8_says() -> None:
    rules = mg8()
    assert "field I: the card lies open; once" in rules["Columbus"] and "veto" in rules["Columbus"]
    assert "Fields II/III: nothing" in rules["Columbus"]
    assert cells(explorer="columbus", veto=True) == [("A", 1), ("B", 1)]
    assert (
        "A: nothing" in rules["Pizarro"]
        and "field III: the Pizarro draw at scoring (MG-11)" in rules["Pizarro"]
    )
    assert cells(explorer="pizarro", pizarro_draw=True) == cells(explorer="pizarro", crowns="pizarro-draw")
    assert cells(explorer="pizarro", pizarro_draw=True) == [("B", 3)]
    assert "slide one money card from the hand" in rules["Magellan"]
    assert "taken from the payment itself (face up)" in rules["Magellan"]
    assert "no hand card after paying cannot win Magellan" in rules["Magellan"]
    assert cells(explorer="magellan", slide_from="hand", keep_in_hand=1) == ALL[:3]
    assert cells(explorer="magellan", slide_from="payment", keep_in_hand=0) == ALL[3:]
    assert cells(explorer="magellan", crowns="slid-cards") == ALL
    assert "A, fields I/II" in rules["Marco Polo"] and "swap up to 3 hand cards" in rules["Marco Polo"]
    assert "Field III and side B: nothing" in rules["Marco Polo"]
    assert cells(explorer="marco_polo", swaps=3) == [("A", 1), ("A", 2)]
    assert cells(explorer="marco_polo", swaps=0) == [("A", 3), ("B", 1), ("B", 2), ("B", 3)]
    assert "draw at once 1 (field I), 2 (II) or 3 (III)" in rules["Vasco da Gama"]
    assert "left part (draw 1/2/3 at once, no crown points)" in rules["Vasco da Gama"]
    assert [POWERS["vasco", "A", f].draws for f in FIELDS] == [1, 2, 3]
    assert [POWERS["vasco", "B", f].draws_left for f in FIELDS] == [1, 2, 3]
    assert cells(explorer="vasco", part_choice=True, draws=0, crowns="right-part") == ALL[3:]
    assert "lays the rest of the hand open until phase end" in rules["Cook"]
    assert "the left neighbour pulls one card from the winner's hand" in rules["Cook"]
    assert "no hand card after paying cannot win Cook" in rules["Cook"]
    assert cells(explorer="cook", open_hand=True) == ALL[:3]
    assert cells(explorer="cook", neighbour_pull=True, keep_in_hand=1) == ALL[3:]
    nothing = Power("x", "A", 1, "nothing")
    for (explorer, side, field), power in POWERS.items():
        assert re.fullmatch(r"MG-(8|9|11)", power.rule), power
        quiet = power.summary == "nothing"
        assert power.acts != quiet, power
        same = {
            k: v for k, v in vars(power).items() if k not in ("explorer", "side", "field", "summary", "rule")
        }
        assert quiet == (same == {k: v for k, v in vars(nothing).items() if k in same}), (
            explorer,
            side,
            field,
        )


def expected_todo(power: Power, ledger: bool) -> list[str]:
    steps = ["pay"] if ledger else []
    steps += ["vasco_part"] if power.part_choice else []
    steps += ["draw"] if power.draws and ledger else []
    steps += ["slide"] if power.slide_from else []
    steps += ["open_hand"] if power.open_hand and ledger else []
    steps += ["cook_pull"] if power.neighbour_pull and ledger else []
    return steps


def sale_effects(before: MagellanState, after: MagellanState, seen: set[tuple[str, str, int]]) -> None:
    """A card just won: the winner's steps, draws and vetoes are those of its row."""
    sold = after.history[-1]
    power = POWERS[sold.explorer, after.options.side(sold.explorer), sold.phase]
    seen.add((power.explorer, power.side, power.field))
    assert sold.seat is not None
    assert after.players[sold.seat].vetoes == before.players[sold.seat].vetoes + power.veto
    card = after.card
    if card is not None and card.winner == sold.seat and card.explorer == sold.explorer:
        assert list(card.todo) == expected_todo(power, after.ledger), power
        assert card.draws_due == (power.draws if after.ledger else 0)
    else:  # nothing left to do after the sale
        assert expected_todo(power, after.ledger) == [], power


def phase_effects(before: MagellanState, after: MagellanState) -> None:
    if after.phase_end is not None and after.phase_end.swaps and before.phase_end is None:
        field = after.phase_end.phase
        per_ship = POWERS["marco_polo", after.options.side("marco_polo"), field].swaps
        ships = [len(p.ships_on("marco_polo", field)) for p in after.players]
        assert list(after.phase_end.swaps) == [per_ship * n for n in ships]
    if after.stage == "scoring" and before.stage != "scoring":
        drawers = [
            seat
            for seat, player in enumerate(after.players)
            for ship in player.ships
            if ship.explorer == "pizarro"
            and POWERS["pizarro", after.options.side("pizarro"), ship.field].pizarro_draw
        ]
        assert after.scoring is not None and after.scoring.pizarro_seat == (drawers[0] if drawers else None)


def test_every_cell_is_exercised_by_the_corpus_with_its_effect() -> None:
    seen: set[tuple[str, str, int]] = set()
    for game in recorded():
        options = MAGELLAN.normalize_options(game["options"])
        states = [MAGELLAN.new_game(game["players"], options, game["seed"])]
        for event in game["events"]:
            before = states[-1]
            states = advance(MAGELLAN, states, event)
            after = states[-1]
            if event["type"] == "undo":
                continue
            if len(after.history) > len(before.history) and after.history[-1].outcome == "sold":
                sale_effects(before, after, seen)
            phase_effects(before, after)
    assert seen == set(POWERS), f"never won: {sorted(set(POWERS) - seen)}"
    assert {e for e, _, _ in seen} == set(EXPLORERS)
