"""MG-8 as one table: what winning an explorer card does, by explorer, side and field.

The engine (follow-ups, payment, slide, veto, phase-end swaps, scoring, the board sheet), the legal
actions' notes and the game information the app reads all look a power up here, so "what does Cook
B do on field II?" has one answer: `POWERS["cook", "B", 2]`. A card won in phase p puts its ship on
field p (MG-7), so a sale's power is that of field p. Nothing outside this table branches on an
explorer's name: the engine asks what the card's or ship's power does (`MagellanState.power`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Final, Literal

from api.rules.magellan.constants import EXPLORERS, FIELDS, MARCO_POLO_SWAPS, ROMAN, SIDES, VASCO_DRAWS

#: How a ship on the field scores at the end (MG-10, MG-11).
Crowns = Literal["sheet", "slid-cards", "right-part", "pizarro-draw"]
#: Where Magellan's slid card comes from (MG-8).
SlideFrom = Literal["hand", "payment"]


@dataclass(frozen=True)
class Power:
    """One cell of MG-8. Every field says what happens, in numbers the engine uses as they are."""

    explorer: str
    side: str
    field: int
    summary: str
    rule: str = "MG-8"
    veto: bool = False  # Columbus field I: one veto of a later card before its first bid
    draws: int = 0  # Vasco A: money cards drawn at once on winning (ledger depth draws them)
    part_choice: bool = False  # Vasco B: left part (draw `draws_left`, no crowns) or right part
    draws_left: int = 0
    slide_from: SlideFrom | None = None  # Magellan: the card slid under the pile
    keep_in_hand: int = 0  # hand cards that must stay after paying (to slide / to be pulled)
    open_hand: bool = False  # Cook A: the rest of the hand lies open until the phase ends
    neighbour_pull: bool = False  # Cook B: the left neighbour pulls one card onto the discard pile
    swaps: int = 0  # Marco Polo A: hand cards swappable per ship at this field's phase end (MG-9)
    crowns: Crowns = "sheet"
    pizarro_draw: bool = False  # Pizarro B field III: the draw at scoring (MG-11)

    @property
    def acts(self) -> bool:
        """Whether winning the card does anything beyond placing the ship."""
        return bool(
            self.veto or self.draws or self.part_choice or self.slide_from or self.keep_in_hand
            or self.open_hand or self.neighbour_pull or self.swaps or self.pizarro_draw
        )  # fmt: skip

    def as_json(self) -> dict[str, object]:
        return {**asdict(self), "acts": self.acts}


def _does(summary: str, rule: str = "MG-8", **effects: Any) -> Power:
    """A cell of the table before it is placed (its explorer, side and field are filled in below)."""
    return Power("", "", 0, summary, rule, **effects)


NOTHING: Final = _does("nothing")
VETO: Final = _does("one veto of a later card before its first bid (a pass is no bid)", veto=True)
PIZARRO_DRAW: Final = _does(
    "the Pizarro draw at scoring instead of crowns", "MG-11", crowns="pizarro-draw", pizarro_draw=True
)
SLIDE_FROM_HAND: Final = _does(
    "slide one money card from the hand, face down, under the Magellan pile",
    slide_from="hand", keep_in_hand=1, crowns="slid-cards",
)  # fmt: skip
SLIDE_FROM_PAYMENT: Final = _does(
    "slide one card of the payment, face up, under the Magellan pile; the rest is discarded",
    slide_from="payment", crowns="slid-cards",
)  # fmt: skip
OPEN_HAND: Final = _does("the rest of the hand lies open until the phase ends", open_hand=True)
NEIGHBOUR_PULL: Final = _does(
    "the left neighbour pulls one card from the hand onto the discard pile",
    keep_in_hand=1, neighbour_pull=True,
)  # fmt: skip


def _swaps(field: int) -> Power:
    """At the end of the field's phase, swaps per ship (MG-9)."""
    summary = f"at the end of phase {ROMAN[field]}: swap up to {MARCO_POLO_SWAPS} hand cards, one by one"
    return _does(summary, "MG-9", swaps=MARCO_POLO_SWAPS)


def _draws(field: int) -> Power:
    return _does(f"draw {VASCO_DRAWS[field]} money card(s) at once", draws=VASCO_DRAWS[field])


def _part_choice(field: int) -> Power:
    draws = VASCO_DRAWS[field]
    summary = f"left part: draw {draws} money card(s) at once, no crowns; right part: crowns, no draw"
    return _does(summary, part_choice=True, draws_left=draws, crowns="right-part")


#: MG-8 line by line, one table per explorer: side → what winning a card does on fields I, II, III.
TABLES: Final[dict[str, dict[str, tuple[Power, ...]]]] = {
    "columbus": {"A": (VETO, NOTHING, NOTHING), "B": (VETO, NOTHING, NOTHING)},
    "pizarro": {"A": (NOTHING, NOTHING, NOTHING), "B": (NOTHING, NOTHING, PIZARRO_DRAW)},
    "magellan": {"A": (SLIDE_FROM_HAND,) * 3, "B": (SLIDE_FROM_PAYMENT,) * 3},
    "marco_polo": {"A": (_swaps(1), _swaps(2), NOTHING), "B": (NOTHING, NOTHING, NOTHING)},
    "vasco": {"A": tuple(_draws(f) for f in FIELDS), "B": tuple(_part_choice(f) for f in FIELDS)},
    "cook": {"A": (OPEN_HAND,) * 3, "B": (NEIGHBOUR_PULL,) * 3},
}
POWERS: Final[dict[tuple[str, str, int], Power]] = {
    (explorer, side, field): replace(
        TABLES[explorer][side][field - 1], explorer=explorer, side=side, field=field
    )
    for explorer in EXPLORERS
    for side in SIDES
    for field in FIELDS
}


def _only(has: Callable[[Power], bool]) -> str:
    """The one explorer with a power on some side and field."""
    (explorer,) = {power.explorer for power in POWERS.values() if has(power)}
    return explorer


#: Whose points the Magellan piles and the Pizarro draw are in the scoring's figures per explorer.
PILES_SCORE_FOR: Final = _only(lambda power: power.crowns == "slid-cards")
DRAW_SCORES_FOR: Final = _only(lambda power: power.pizarro_draw)


def powers_table() -> list[dict[str, object]]:
    """The whole table as data (served with the game's information)."""
    return [power.as_json() for power in POWERS.values()]


assert set(TABLES) == set(EXPLORERS)
assert all(len(row) == len(FIELDS) for table in TABLES.values() for row in table.values())
