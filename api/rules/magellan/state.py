"""The immutable game state: frozen dataclasses holding tuples, so `apply` never mutates its input.

Money card places in ledger depth (MG-1: 63 cards, always each in exactly one place): a player's
`hand` (an open Cook A hand is still the hand, MG-8), the `draw` stack, the `discard` pile, the
winner's `payment` lying face up while a Magellan B card is slid from it (MG-8), a player's Magellan
`piles` and the cards a player turned up in the Pizarro draw (`pizarro`, MG-11). No money card
ever goes to the box.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from api.rules.magellan.constants import EXPLORERS, FIELDS, SHIPS_PER_PLAYER
from api.rules.magellan.powers import POWERS, Power
from api.rules.magellan.sheet import BLANK, BoardSheet

Depth = Literal["outcomes", "ledger"]
Chance = Literal["physical", "digital"]
Stage = Literal["reveal", "auction", "sale", "phase_end", "scoring", "finished"]
#: Follow-up steps of a won card, head first (MG-6, MG-8).
Todo = Literal["pay", "vasco_part", "draw", "slide", "open_hand", "cook_pull"]
Outcome = Literal["sold", "no-bids", "nobody-eligible", "vetoed"]


@dataclass(frozen=True)
class Options:
    """Setup choices: board sides per explorer (in EXPLORERS order), depth, chance, auctioneer, sheet."""

    sides: tuple[str, ...] = ("A",) * len(EXPLORERS)
    depth: Depth = "outcomes"
    chance: Chance = "physical"
    auctioneer: int = 0
    board_sheet: BoardSheet = BLANK

    def side(self, explorer: str) -> str:
        return self.sides[EXPLORERS.index(explorer)]

    def side_map(self) -> dict[str, str]:
        return dict(zip(EXPLORERS, self.sides, strict=True))

    def power(self, explorer: str, field: int) -> Power:
        """MG-8: what winning `explorer`'s card does on `field`, on this game's side of the board."""
        return POWERS[explorer, self.side(explorer), field]

    @property
    def slid_face_up(self) -> bool:
        """A card slid under a pile lies face up when it comes from the payment (Magellan B, MG-8);
        from the hand it lies face down."""
        return any(self.power(e, f).slide_from == "payment" for e in EXPLORERS for f in FIELDS)


@dataclass(frozen=True)
class Ship:
    """A ship on an explorer's field 1–3; `part` "left"/"right" only on Vasco da Gama side B."""

    explorer: str
    field: int
    part: str | None = None


@dataclass(frozen=True)
class Player:
    """A seat. `hand` is tracked in ledger depth only; `final_hand` is typed in at the end in outcomes
    depth. `piles` are the Magellan piles: the slid money values, one per Magellan card (MG-8)."""

    name: str
    ships: tuple[Ship, ...] = ()
    hand: tuple[int, ...] = ()
    hand_open: bool = False
    vetoes: int = 0
    vetoes_used: int = 0
    piles: tuple[tuple[int, ...], ...] = ()
    final_hand: tuple[int, ...] | None = None
    pizarro: tuple[int, ...] = ()

    @property
    def ships_left(self) -> int:
        return SHIPS_PER_PLAYER - len(self.ships)

    def ships_on(self, explorer: str, field: int) -> list[Ship]:
        return [s for s in self.ships if s.explorer == explorer and s.field == field]


@dataclass(frozen=True)
class Deck:
    """An explorer deck. Digital: `hidden` in deal order, top first. Physical: `hidden` is the unseen
    cards sorted (their order is unknown to the server). `bottom`: vetoed cards under the deck, known
    to all, in order (MG-8 Columbus)."""

    hidden: tuple[str, ...]
    bottom: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.hidden) + len(self.bottom)


@dataclass(frozen=True)
class Bid:
    seat: int
    amount: int | None  # None: a pass (final for this card, MG-4)


@dataclass(frozen=True)
class Card:
    """The explorer card on the table: its auction (MG-4), then the winner's follow-up steps."""

    explorer: str
    order: tuple[int, ...]  # eligible seats in bidding order (MG-4, MG-5)
    bids: tuple[Bid, ...] = ()
    winner: int | None = None
    price: int = 0
    todo: tuple[Todo, ...] = ()
    draws_due: int = 0
    payment: tuple[int, ...] = ()
    part: str | None = None

    @property
    def high_bid(self) -> int:
        return max((b.amount for b in self.bids if b.amount is not None), default=0)

    @property
    def high_bidder(self) -> int | None:
        for bid in reversed(self.bids):
            if bid.amount is not None:
                return bid.seat
        return None

    @property
    def has_bid(self) -> bool:
        """Someone has bid (a pass is not a bid: MG-8 Decision on the Columbus veto)."""
        return any(b.amount is not None for b in self.bids)

    @property
    def passed(self) -> tuple[int, ...]:
        return tuple(b.seat for b in self.bids if b.amount is None)

    @property
    def active(self) -> tuple[int, ...]:
        passed = self.passed
        return tuple(s for s in self.order if s not in passed)

    @property
    def turn(self) -> int | None:
        """MG-4: the first eligible seat opens, then clockwise among those who have not passed."""
        if self.winner is not None or not self.active:
            return None
        if not self.bids:
            return self.order[0]
        last = self.order.index(self.bids[-1].seat)
        for step in range(1, len(self.order) + 1):
            seat = self.order[(last + step) % len(self.order)]
            if seat in self.active:
                return seat
        return None


@dataclass(frozen=True)
class CardOutcome:
    """What became of one turned-up card: sold, boxed (MG-4, MG-5) or vetoed under its deck (MG-8)."""

    phase: int
    explorer: str
    outcome: Outcome
    seat: int | None = None  # the winner, or the vetoing Columbus owner
    price: int | None = None


@dataclass(frozen=True)
class PhaseEnd:
    """MG-9 in ledger depth: cards due per seat (None until the sheet gives the bags), still to draw,
    and Marco Polo A swaps left per seat."""

    phase: int
    income: tuple[int, ...] | None = None
    due: tuple[int, ...] = ()
    swaps: tuple[int, ...] = ()


@dataclass(frozen=True)
class Scoring:
    """MG-10/MG-11. `stack`: outcomes + digital only, the simulated Pizarro stack (secret)."""

    pizarro_seat: int | None
    pizarro_done: bool = False
    stack: tuple[int, ...] = ()
    stack_built: bool = False


@dataclass(frozen=True)
class MagellanState:
    """Everything needed to continue the game, including secrets (seed, deck and stack order, hands)."""

    options: Options
    seed: int
    players: tuple[Player, ...]
    decks: tuple[Deck, ...]
    sheet: BoardSheet
    phase: int = 1
    stage: Stage = "reveal"
    card: Card | None = None
    phase_end: PhaseEnd | None = None
    scoring: Scoring | None = None
    draw: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    history: tuple[CardOutcome, ...] = ()
    incomes: tuple[tuple[int | None, ...], ...] = ()
    last_winner: int | None = None
    draws: int = 0
    shuffles: int = 0

    @property
    def ledger(self) -> bool:
        return self.options.depth == "ledger"

    @property
    def digital(self) -> bool:
        return self.options.chance == "digital"

    @property
    def deck(self) -> Deck:
        return self.decks[self.phase - 1]

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def power(self, explorer: str, field: int | None = None) -> Power:
        """The power of `explorer` on this game's side, on `field` (default: the current phase's field,
        where a card won now puts its ship, MG-7)."""
        return self.options.power(explorer, self.phase if field is None else field)

    def swaps_earned(self, seat: int, field: int) -> int:
        """Marco Polo A: the hand cards `seat` may swap, per ship, at the end of `field`'s phase (MG-8,
        MG-9)."""
        return sum(self.power(s.explorer, field).swaps for s in self.players[seat].ships if s.field == field)

    def clockwise_from(self, seat: int) -> list[int]:
        count = len(self.players)
        return [(seat + i) % count for i in range(count)]


T = TypeVar("T")


def put(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """`items` with the entry at `index` replaced by `item`."""
    return (*items[:index], item, *items[index + 1 :])


def set_player(state: MagellanState, seat: int, **changes: Any) -> MagellanState:
    return replace(state, players=put(state.players, seat, replace(state.players[seat], **changes)))


def with_deck(state: MagellanState, deck: Deck) -> MagellanState:
    """The current phase's deck replaced."""
    return replace(state, decks=put(state.decks, state.phase - 1, deck))


def current_card(state: MagellanState) -> Card:
    """The explorer card on the table; callers only ask during an auction or a sale."""
    assert state.card is not None
    return state.card


def left_neighbour(state: MagellanState, seat: int) -> int:
    """The player clockwise after `seat`: who makes the Cook B pull from the winner's hand (MG-8)."""
    return (seat + 1) % len(state.players)


def winner(state: MagellanState) -> int:
    """The seat that won the card on the table (MG-4)."""
    seat = current_card(state).winner
    assert seat is not None
    return seat


def place_ship(
    ships: tuple[Ship, ...], explorer: str, phase: int, part: str | None, from_part: str | None
) -> tuple[Ship, ...]:
    """MG-7: phase I a new ship on field I; phases II/III one ship moves on from the previous field."""
    if phase == 1:
        return (*ships, Ship(explorer, 1, part))
    for i, ship in enumerate(ships):
        if ship.explorer == explorer and ship.field == phase - 1 and from_part in (None, ship.part):
            return put(ships, i, Ship(explorer, phase, part))
    raise AssertionError("MG-5 lets only owners of a ship on the previous field win")
