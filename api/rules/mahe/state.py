"""The immutable game state: frozen dataclasses holding tuples, so `apply` can never mutate its input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from api.rules.mahe.constants import BEACH_EGGS
from api.rules.mahe.track import Position

Chance = Literal["physical", "digital"]
Phase = Literal["reveal_card", "choose_turtle", "roll", "decide", "finished"]
DieSource = Literal["die", "card"]


@dataclass(frozen=True)
class Options:
    """Setup choices: chance (MA-12), the egg-cards-as-dice variant (MA-11), who starts (MA-2)."""

    chance: Chance = "physical"
    egg_dice_variant: bool = False
    first_seat: int = 0


@dataclass(frozen=True)
class Player:
    """A seat: the turtles it owns and the eggs it has won (eggs belong to the player, MA-9)."""

    name: str
    colours: tuple[str, ...]
    cards: tuple[int, ...] = ()
    beach: bool = False

    @property
    def eggs(self) -> int:
        """MA-10: egg cards plus 7 for the beach."""
        return sum(self.cards) + (BEACH_EGGS if self.beach else 0)

    @property
    def card_count(self) -> int:
        """MA-10: the beach counts as a card for the tie-break."""
        return len(self.cards) + (1 if self.beach else 0)


@dataclass(frozen=True)
class Die:
    """One die of the current move; `source` "card" when an egg card stands in for it (MA-11)."""

    value: int
    source: DieSource = "die"


@dataclass(frozen=True)
class Turn:
    """The seat on turn and the move in progress.

    `turtle_order` is None until a two-turtle player has chosen which turtle moves first (MA-9);
    one-turtle players get their single turtle at once. `cards_played_by` spans the whole turn (MA-11).
    """

    seat: int
    turtle_order: tuple[str, ...] | None
    moves_done: int = 0
    dice: tuple[Die, ...] = ()
    cards_played_by: tuple[int, ...] = ()

    @property
    def turtle(self) -> str | None:
        """The turtle moving now, if known."""
        if self.turtle_order is None or self.moves_done >= len(self.turtle_order):
            return None
        return self.turtle_order[self.moves_done]

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)


@dataclass(frozen=True)
class Supply:
    """The egg cards not (yet) won.

    `pile_count` includes the face-up card. `face_up` is None while a physical card awaits being typed
    in (`awaiting_reveal`) and once the pile is empty. `hidden` (the digital pile under the face-up
    card, top first) and `set_aside` values exist only in digital games and never leave the server.
    `box` holds cards played as dice (MA-11), values known to all.
    """

    face_up: int | None
    pile_count: int
    awaiting_reveal: bool
    hidden: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    set_aside_count: int = 4
    box: tuple[int, ...] = ()

    @property
    def beach_exposed(self) -> bool:
        """MA-8: the 20th card has been taken."""
        return self.pile_count == 0


@dataclass(frozen=True)
class CardWon:
    """The card a move gave away (MA-7), or the beach (MA-8, value 7)."""

    seat: int
    value: int
    beach: bool


@dataclass(frozen=True)
class Move:
    """A completed move, shown to players as `last_move`."""

    seat: int
    turtle: str
    carried: tuple[str, ...]
    left_behind: tuple[str, ...]
    dice: tuple[Die, ...]
    distance: int
    start: int
    to: int
    bust: bool
    passed_beach: bool
    card: CardWon | None
    game_over: bool


@dataclass(frozen=True)
class MaheState:
    """Everything needed to continue the game, including secrets (seed, digital pile order)."""

    options: Options
    seed: int
    players: tuple[Player, ...]
    position: Position
    supply: Supply
    turn: Turn
    draws: int = 0
    beach_taken_by: int | None = None
    last_move: Move | None = None

    @property
    def phase(self) -> Phase:
        if self.beach_taken_by is not None:
            return "finished"
        if self.supply.awaiting_reveal:
            return "reveal_card"
        if self.turn.turtle_order is None:
            return "choose_turtle"
        return "decide" if self.turn.dice else "roll"

    def owner(self, turtle: str) -> int:
        """The seat that owns a turtle."""
        for seat, player in enumerate(self.players):
            if turtle in player.colours:
                return seat
        raise KeyError(turtle)

    def decider(self) -> tuple[int, str] | None:
        """MA-4: (seat, topmost turtle) of whoever decides on the 2nd/3rd die of the current move."""
        turtle = self.turn.turtle
        if turtle is None or self.phase == "finished":
            return None
        top = self.position.topmost(turtle)
        return self.owner(top), top
