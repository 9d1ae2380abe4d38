"""MG-8 as one table: what winning an explorer card does, by explorer, side and field.

The engine (follow-ups, payment, slide, veto, phase-end swaps, scoring, the board sheet), the legal
actions' notes and the game information the app reads all look a power up here, so "what does Cook
B do on field II?" has one answer: `POWERS["cook", "B", 2]`. A card won in phase p puts its ship on
field p (MG-7), so a sale's power is that of field p.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Final, Literal

from api.rules.magellan.constants import EXPLORERS, FIELDS, MARCO_POLO_SWAPS, SIDES, VASCO_DRAWS

if TYPE_CHECKING:  # the state's module reads the board sheet, which reads this table
    from api.rules.magellan.state import MagellanState, Options

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


def _power(explorer: str, side: str, field: int) -> Power:
    """MG-8, line by line."""
    roman = "I" * field
    if explorer == "columbus":
        if field == 1:
            return Power(
                explorer,
                side,
                field,
                "one veto of a later card before its first bid (a pass is no bid)",
                veto=True,
            )
        return Power(explorer, side, field, "nothing")
    if explorer == "pizarro":
        if side == "B" and field == 3:
            return Power(
                explorer, side, field, "the Pizarro draw at scoring instead of crowns", "MG-11",
                crowns="pizarro-draw", pizarro_draw=True,
            )  # fmt: skip
        return Power(explorer, side, field, "nothing")
    if explorer == "magellan":
        if side == "A":
            summary = "slide one money card from the hand, face down, under the Magellan pile"
            return Power(
                explorer, side, field, summary, slide_from="hand", keep_in_hand=1, crowns="slid-cards"
            )
        summary = "slide one card of the payment, face up, under the Magellan pile; the rest is discarded"
        return Power(explorer, side, field, summary, slide_from="payment", crowns="slid-cards")
    if explorer == "marco_polo":
        if side == "A" and field < 3:
            summary = f"at the end of phase {roman}: swap up to {MARCO_POLO_SWAPS} hand cards, one by one"
            return Power(explorer, side, field, summary, "MG-9", swaps=MARCO_POLO_SWAPS)
        return Power(explorer, side, field, "nothing")
    if explorer == "vasco":
        draws = VASCO_DRAWS[field]
        if side == "A":
            return Power(explorer, side, field, f"draw {draws} money card(s) at once", draws=draws)
        summary = f"left part: draw {draws} money card(s) at once, no crowns; right part: crowns, no draw"
        return Power(explorer, side, field, summary, part_choice=True, draws_left=draws, crowns="right-part")
    if explorer == "cook":
        if side == "A":
            return Power(
                explorer, side, field, "the rest of the hand lies open until the phase ends", open_hand=True
            )
        summary = "the left neighbour pulls one card from the hand onto the discard pile"
        return Power(explorer, side, field, summary, keep_in_hand=1, neighbour_pull=True)
    raise ValueError(explorer)


POWERS: Final[dict[tuple[str, str, int], Power]] = {
    (explorer, side, field): _power(explorer, side, field)
    for explorer in EXPLORERS
    for side in SIDES
    for field in FIELDS
}


def powers_table() -> list[dict[str, object]]:
    """The whole table as data (served with the game's information)."""
    return [power.as_json() for power in POWERS.values()]


def power(state: MagellanState, explorer: str, field: int | None = None) -> Power:
    """The power of `explorer` on this game's side, on `field` (default: the current phase's field)."""
    return POWERS[explorer, state.options.side(explorer), state.phase if field is None else field]


def slid_face_up(options: Options) -> bool:
    """Magellan B slides a card of the payment, in sight of all (MG-8); side A slides from the hand."""
    return POWERS["magellan", options.side("magellan"), 1].slide_from == "payment"
