"""Fixed material of Mahé (MA-1) and the numbers the rules hinge on."""

from __future__ import annotations

from typing import Final

#: The seven turtles (MA-1), in the order the raft and error messages list them.
TURTLE_COLOURS: Final[tuple[str, ...]] = (
    "red",
    "yellow",
    "green",
    "lightblue",
    "darkblue",
    "purple",
    "black",
)

#: Fields 1–21 on the circular track; 21 is the beach (MA-1). The raft is "field 0" in this code.
FIELDS: Final = 21
BEACH_FIELD: Final = 21
RAFT: Final = 0

#: Dice (MA-3): at most three, the sum may not exceed 7.
MAX_DICE: Final = 3
MAX_SUM: Final = 7
DIE_FACES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)

#: MA-1 Decision: the card mix (value → number of cards); used by the digital deck and odds only.
CARD_MIX: Final[dict[int, int]] = {1: 3, 2: 3, 3: 5, 4: 5, 5: 5, 6: 3}
DECK: Final[tuple[int, ...]] = tuple(v for v, n in sorted(CARD_MIX.items()) for _ in range(n))
DECK_SIZE: Final = 24
SET_ASIDE: Final = 4  # MA-2: put away unseen
PILE_SIZE: Final = 20  # MA-2: the pile, top card face up

#: MA-8: the eggs printed under the pile; they count as one card (MA-10).
BEACH_EGGS: Final = 7

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 7

assert len(DECK) == DECK_SIZE == SET_ASIDE + PILE_SIZE
