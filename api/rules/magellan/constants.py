"""Fixed material of Magellan (MG-1) and the numbers the rules themselves fix."""

from __future__ import annotations

from typing import Final

#: The six explorers (MG-1): API ids in board order, and how players read them.
EXPLORERS: Final[tuple[str, ...]] = ("columbus", "pizarro", "magellan", "marco_polo", "vasco", "cook")
EXPLORER_NAMES: Final[dict[str, str]] = {
    "columbus": "Columbus",
    "pizarro": "Pizarro",
    "magellan": "Magellan",
    "marco_polo": "Marco Polo",
    "vasco": "Vasco da Gama",
    "cook": "Cook",
}
SIDES: Final[tuple[str, ...]] = ("A", "B")
PHASES: Final[tuple[int, ...]] = (1, 2, 3)
FIELDS: Final[tuple[int, ...]] = (1, 2, 3)
ROMAN: Final[dict[int, str]] = {1: "I", 2: "II", 3: "III"}
PARTS: Final[tuple[str, ...]] = ("left", "right")  # Vasco da Gama side B (MG-8)

#: MG-1: explorer cards per explorer in the phase I/II/III decks (18/12/6 cards). The same numbers
#: cap the ships on each field: at most 3 on field I, 2 on field II, 1 on field III (MG-7).
CARDS_PER_EXPLORER: Final[dict[int, int]] = {1: 3, 2: 2, 3: 1}
DECK_SIZES: Final[dict[int, int]] = {p: n * len(EXPLORERS) for p, n in CARDS_PER_EXPLORER.items()}

#: MG-1: money cards 1–9, seven of each; MG-1 Decision: crowns 3 for 1–3, 2 for 4–6, 1 for 7–9.
MONEY_VALUES: Final[tuple[int, ...]] = tuple(range(1, 10))
COPIES: Final = 7
MONEY_CARDS: Final = len(MONEY_VALUES) * COPIES
FULL_MONEY: Final[tuple[int, ...]] = tuple(v for v in MONEY_VALUES for _ in range(COPIES))
STARTING_HAND: Final[tuple[int, ...]] = MONEY_VALUES  # MG-3: a set 1–9 each

SHIPS_PER_PLAYER: Final = 6  # MG-1
PHASE_END_CARDS: Final = 2  # MG-9, after phases I and II only
VASCO_DRAWS: Final[dict[int, int]] = {1: 1, 2: 2, 3: 3}  # MG-8: field I/II/III
MARCO_POLO_SWAPS: Final = 3  # MG-8: per ship
PIZARRO_LIMIT: Final = 20  # MG-11

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6


def crowns(value: int) -> int:
    """MG-1 Decision: the crown on a money card."""
    return 3 if value <= 3 else 2 if value <= 6 else 1


assert sum(DECK_SIZES.values()) == 36 and MONEY_CARDS == 63
