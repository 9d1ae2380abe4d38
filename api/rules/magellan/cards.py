"""The cards and their chance: money cards as multisets (sorted tuples of values 1–9) with their crowns
(MG-1), the draw stack, discard pile and hands of ledger depth, in outcomes depth the cards whose place
is known (kept within seven of each value), and the seeded chance of digital play.

Seeded server chance: every shuffle and pick is a pure function of the seed and a label holding a
counter from the state, so replays are exact and undo cannot re-draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from api.rules.errors import IllegalMove, say
from api.rules.magellan.constants import COPIES, FULL_MONEY, MONEY_VALUES, crowns
from api.rules.magellan.state import MagellanState, set_player

T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int, label: str) -> tuple[T, ...]:
    cards = list(items)
    random.Random(f"{seed}/{label}").shuffle(cards)
    return tuple(cards)


def pick(seed: int, label: str, count: int) -> int:
    """A uniform index below `count`."""
    return random.Random(f"{seed}/{label}").randrange(count)


def contains(cards: Sequence[int], wanted: Iterable[int]) -> bool:
    have = Counter(cards)
    have.subtract(Counter(wanted))
    return all(n >= 0 for n in have.values())


def remove(cards: Sequence[T], taken: Iterable[T]) -> tuple[T, ...]:
    """`cards` less `taken` (which must be contained), order of `cards` kept."""
    rest = list(cards)
    for value in taken:
        rest.remove(value)
    return tuple(rest)


def add(cards: Sequence[int], more: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((*cards, *more)))


def crowns_of(cards: Iterable[int]) -> int:
    return sum(crowns(v) for v in cards)


def composition(cards: Iterable[int]) -> dict[int, int]:
    counted = Counter(cards)
    return {v: counted.get(v, 0) for v in MONEY_VALUES}


def over_copies(cards: Iterable[int]) -> list[int]:
    """Values that would appear more than seven times (MG-1: seven of each)."""
    return [v for v, n in sorted(Counter(cards).items()) if n > COPIES]


def cards_text(cards: Sequence[int]) -> str:
    return ", ".join(str(v) for v in cards) if cards else "none"


def known_cards(state: MagellanState) -> list[int]:
    """Outcomes depth: money cards whose place is known (slid under Magellan, final hands, Pizarro)."""
    cards: list[int] = []
    for player in state.players:
        cards += [v for pile in player.piles for v in pile]
        cards += list(player.final_hand or ())
        cards += list(player.pizarro)
    return cards


def unplaced_cards(state: MagellanState) -> tuple[int, ...]:
    """Outcomes depth: the money cards whose place is not known, what a Pizarro draw comes from."""
    return remove(FULL_MONEY, sorted(known_cards(state)))


def check_copies(cards: list[int], what: str, rule: str) -> None:
    """MG-1: a recorded card may not make an eighth copy of its value."""
    over = over_copies(cards)
    if over:
        raise IllegalMove(
            "too-many-copies",
            say(
                "There are only seven money cards of each value (MG-1): {what} would make more than seven "
                "{over}s among the cards already recorded ({rule}).",
                what=what,
                over=over[0],
                rule=rule,
            ),
            rule,
        )


def reshuffle(state: MagellanState) -> MagellanState:
    """MG-9: the discard pile is shuffled into the draw stack (Decision: also whenever a card is due
    and the draw stack is empty)."""
    cards = tuple(sorted((*state.draw, *state.discard)))
    count = state.shuffles + 1
    draw = shuffled(cards, state.seed, f"money/{count}") if state.digital else cards
    return replace(state, draw=draw, discard=(), shuffles=count)


def take(state: MagellanState, value: int | None) -> tuple[MagellanState, int | None]:
    """One card off the draw stack: the typed-in value (physical) or the top card (digital, value None).
    None when the draw stack and the discard pile are both empty (the draw is lost, Decision)."""
    if not state.draw:
        if not state.discard:
            return state, None
        state = reshuffle(state)
    if value is None:
        return replace(state, draw=state.draw[1:], draws=state.draws + 1), state.draw[0]
    if value not in state.draw:
        raise IllegalMove(
            "card-not-in-draw-stack",
            say(
                "By the ledger no {value} is left in the draw stack; check the card and type it in again.",
                value=value,
            ),
            "MG-3",
        )
    return replace(state, draw=remove(state.draw, [value])), value


def draw_into_hand(state: MagellanState, seat: int, values: Sequence[int | None], rule: str) -> MagellanState:
    """Cards off the draw stack into `seat`'s hand: typed-in values, or None per digital draw."""
    drawn: list[int] = []
    for value in values:
        state, got = take(state, value)
        if got is None:
            if value is None:
                break  # digital: nothing left anywhere, the rest of the draw is lost
            raise IllegalMove(
                "draw-stack-empty",
                say(
                    "The draw stack and the discard pile are empty: no more cards can be drawn ({rule}).",
                    rule=rule,
                ),
                rule,
            )
        drawn.append(got)
    return set_player(state, seat, hand=add(state.players[seat].hand, drawn))


def check_in_hand(state: MagellanState, seat: int, value: int, rule: str, to_slide: bool = False) -> None:
    """A typed-in card must be one the ledger has in that hand."""
    if value not in state.players[seat].hand:
        name = state.name(seat)
        said = (
            say("{name} holds no {value} to slide ({rule}).", name=name, value=value, rule=rule)
            if to_slide
            else say("{name} holds no {value} ({rule}).", name=name, value=value, rule=rule)
        )
        raise IllegalMove("card-not-in-hand", said, rule)


def discard_from_hand(state: MagellanState, seat: int, cards: Sequence[int]) -> MagellanState:
    """Hand cards onto the discard pile (payment MG-6, Cook B pull and Marco Polo swap MG-8)."""
    state = set_player(state, seat, hand=remove(state.players[seat].hand, cards))
    return replace(state, discard=(*state.discard, *cards))


def reseeded(state: MagellanState, seed: int) -> MagellanState:
    """The same game with every future server draw taken from `seed` (digital play).

    Used when a finished game, whose seed was revealed, is reopened by undo: what nobody has seen
    (the order of the explorer decks and of the money draw stack, the simulated Pizarro stack) is
    shuffled afresh, so the revealed seed no longer predicts anything. Hands are not touched.
    A no-op when the seed is already `seed`.
    """
    if state.seed == seed:
        return state
    if not state.digital:
        return replace(state, seed=seed)
    decks = tuple(
        replace(deck, hidden=shuffled(deck.hidden, seed, f"reseed/deck/{phase}"))
        for phase, deck in enumerate(state.decks, start=1)
    )
    scoring = state.scoring
    if scoring is not None and scoring.stack:
        scoring = replace(scoring, stack=shuffled(scoring.stack, seed, "reseed/pizarro"))
    return replace(
        state, seed=seed, decks=decks, draw=shuffled(state.draw, seed, "reseed/money"), scoring=scoring
    )
