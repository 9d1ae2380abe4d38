"""The 150 cards (MH-1) and their notation (MH-10): parsing with clear errors, and formatting.

Inside the engine a suit or honour card is a *kind* 0…33: bamboo 1–9 are 0–8, circles 9–17,
characters 18–26, then the winds east, south, west, north (27–30) and the dragons red, green, white
(31–33) — the order of the `mahjong` package's 34-tile format, so the two line up in tests.
Flowers and jokers are never grouped and have no kind.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from api.rules.errors import IllegalMove, MalformedEvent, say

SUITS = ("b", "c", "k")
SUIT_NAMES = ("bamboo", "circles", "characters")
WINDS = ("we", "ws", "ww", "wn")
DRAGONS = ("dr", "dg", "dw")
HONOURS = WINDS + DRAGONS
KINDS: tuple[str, ...] = tuple(f"{s}{r}" for s in SUITS for r in range(1, 10)) + HONOURS
KIND_INDEX = {card: index for index, card in enumerate(KINDS)}
FLOWERS = ("f1", "f2", "f3", "f4")
JOKER = "jk"
ALL_CARDS: tuple[str, ...] = KINDS + FLOWERS + (JOKER,)

SUIT_KINDS = 27
FIRST_WIND = 27
FIRST_DRAGON = 31
KIND_COUNT = 34

COPIES_OF_KIND = 4  # MH-1: four of each suit and honour card
COPIES_OF_FLOWER = 2  # MH-1 Decision: four flower kinds, two of each
FLOWER_TOTAL = 8
JOKER_TOTAL = 6

CardsInput = str | Sequence[str]

NOTATION_HELP = "b1–b9, c1–c9, k1–k9, we ws ww wn, dr dg dw, f1–f4 or jk"
_SEPARATORS = re.compile(r"[\s,]+")


def is_suit(kind: int) -> bool:
    return kind < SUIT_KINDS


def suit_of(kind: int) -> int:
    """0 bamboo, 1 circles, 2 characters (suit kinds only)."""
    return kind // 9


def rank_of(kind: int) -> int:
    """1–9 (suit kinds only)."""
    return kind % 9 + 1


def is_flower(card: str) -> bool:
    return card in FLOWERS


def describe(kind: int) -> str:
    """A kind in words, for explanations: "bamboo 3", "west wind", "red dragon"."""
    if is_suit(kind):
        return f"{SUIT_NAMES[suit_of(kind)]} {rank_of(kind)}"
    names = ("east", "south", "west", "north", "red", "green", "white")
    return f"{names[kind - FIRST_WIND]} {'wind' if kind < FIRST_DRAGON else 'dragon'}"


def tokens(text: CardsInput, what: str = "cards") -> list[str]:
    """Split MH-10 text at spaces and commas (a list gives one token per item); lower-cased."""
    if isinstance(text, str):
        return [t for t in _SEPARATORS.split(text.strip().lower()) if t]
    if not isinstance(text, Sequence) or not all(isinstance(t, str) for t in text):
        raise MalformedEvent(
            "invalid-cards",
            say("The {what} must be MH-10 notation: a string or a list of strings.", what=what),
            "MH-10",
        )
    return [t.strip().lower() for t in text if t.strip()]


def parse_card(token: str) -> str:
    """One card in canonical notation, or `unknown-card`."""
    card = token.strip().lower()
    if card not in ALL_CARDS:
        raise MalformedEvent(
            "unknown-card",
            say(
                "{token} is not a card; write {notation_help} (MH-10).",
                token=repr(token),
                notation_help=NOTATION_HELP,
            ),
            "MH-10",
        )
    return card


def check_copies(cards: Iterable[str]) -> None:
    """MH-1: no fifth copy of a card, no seventh joker, no ninth flower, no third copy of a flower.

    Counts physical cards: a joker counts as a joker, whatever it stands for (MH-5 Decision).
    """
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    if jokers > JOKER_TOTAL:
        raise IllegalMove(
            "too-many-jokers",
            say(
                "There are only {joker_total} jokers, not {jokers} (MH-1).",
                joker_total=JOKER_TOTAL,
                jokers=jokers,
            ),
            "MH-1",
        )
    flowers = sum(n for card, n in counts.items() if is_flower(card))
    if flowers > FLOWER_TOTAL:
        raise IllegalMove(
            "too-many-flowers",
            say(
                "There are only {flower_total} flowers, not {flowers} (MH-1).",
                flower_total=FLOWER_TOTAL,
                flowers=flowers,
            ),
            "MH-1",
        )
    for card, n in sorted(counts.items(), key=lambda item: ALL_CARDS.index(item[0])):
        limit = COPIES_OF_FLOWER if is_flower(card) else COPIES_OF_KIND
        if n > limit:
            raise IllegalMove(
                "too-many-copies",
                say("There are only {limit} copies of {card}, not {n} (MH-1).", limit=limit, card=card, n=n),
                "MH-1",
            )


def parse_cards(text: CardsInput, what: str = "cards") -> tuple[str, ...]:
    """MH-10 notation → canonical cards in the order given; refuses unknown cards and impossible counts."""
    cards = tuple(parse_card(t) for t in tokens(text, what))
    check_copies(cards)
    return cards


def format_cards(cards: Iterable[str]) -> str:
    """Canonical MH-10 text: lower case, one space between cards, in the order given."""
    return " ".join(cards)


def sort_key(card: str) -> int:
    return ALL_CARDS.index(card)
