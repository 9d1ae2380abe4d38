"""The scorer: a hand in, its best reading with every premium itemised and the points out (MH-5 … MH-8).

A hand that does not go out is answered with why (`wins` false, `reason_code`, `reason`), not
refused: the app asks while the player is still typing. Whether the last card was a discard does not
change the premiums; it is carried through for the settlement (MH-9 variant 2: the discarder pays
double).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, NamedTuple

from api.rules.mhing import blocks, premiums
from api.rules.mhing.cards import JOKER, KIND_COUNT, KIND_INDEX, KINDS
from api.rules.mhing.exceptional import HAND_SIZE, NothingFits, nothing_fits
from api.rules.mhing.hand import Hand
from api.rules.mhing.premiums import Premium
from api.rules.mhing.search import Reading, best_reading

JSON = dict[str, Any]
ReadingKind = Literal["groups-and-pair", "nothing-fits"]


class ShownGroup(NamedTuple):
    """A group of the chosen reading, with which of its cards are jokers."""

    block: int
    jokers: tuple[bool, ...]
    laid_out: bool

    def to_json(self) -> JSON:
        kinds = blocks.kinds_of(self.block)
        return {
            "cards": [KINDS[k] for k in kinds],
            "notation": _notation(kinds, self.jokers),
            "kind": "sequence" if blocks.is_sequence(self.block) else "triplet",
            "laid_out": self.laid_out,
            "jokers": sum(self.jokers),
        }


@dataclass(frozen=True)
class Score:
    """The scorer's answer: the best reading (`reading` for four groups and a pair, `special` for the
    exceptional hand) or why the hand does not go out. The display (`groups`, `pair`, `cards`) and
    the itemised premiums (`items`) are worked out when asked for."""

    hand: Hand
    wins: bool
    reason_code: str | None = None
    reason: str | None = None
    reading: Reading | None = None
    special: NothingFits | None = None
    counts: tuple[int, ...] = ()

    @property
    def kind(self) -> ReadingKind | None:
        if self.special is not None:
            return "nothing-fits"
        return "groups-and-pair" if self.reading is not None else None

    @property
    def total_premiums(self) -> int:
        """MH-6/MH-7 premiums of the reading plus one per flower."""
        if self.special is not None:
            return self.special.premiums + len(self.hand.flowers)
        if self.reading is not None:
            return self.reading.premiums + len(self.hand.flowers)
        return 0

    @property
    def points(self) -> int:
        return premiums.points(self.total_premiums)

    @cached_property
    def _display(self) -> tuple[tuple[ShownGroup, ...], tuple[bool, bool]]:
        assert self.reading is not None
        hidden, pair_jokers = _place_jokers(self.reading.groups, self.reading.pair, list(self.counts))
        laid = [ShownGroup(g.block, g.jokers, laid_out=True) for g in self.hand.groups]
        return (*laid, *hidden), pair_jokers

    @property
    def groups(self) -> tuple[ShownGroup, ...]:
        """The four groups, laid-out ones first; premiums refer to them by index."""
        return self._display[0] if self.reading is not None else ()

    @property
    def pair(self) -> tuple[int, tuple[bool, bool]] | None:
        return (self.reading.pair, self._display[1]) if self.reading is not None else None

    @property
    def cards(self) -> tuple[tuple[int, bool], ...]:
        """The exceptional hand's 14 cards as (kind, is a joker)."""
        if self.special is None:
            return ()
        cards = [(k, False) for k in range(KIND_COUNT) for _ in range(self.counts[k])]
        cards += [(k, True) for k in self.special.jokers_as]
        return tuple(sorted(cards))

    @cached_property
    def items(self) -> tuple[Premium, ...]:
        flowers = self.hand.flowers
        if self.special is not None:
            code = "nothing-fits-all-honours" if self.special.all_honours else "nothing-fits"
            lead = [Premium("flower", len(flowers), cards=flowers)] if flowers else []
            return (*lead, Premium(code, 1))
        if self.reading is None:
            return ()
        return tuple(premiums.itemise(tuple(g.block for g in self.groups), self.reading.pair, flowers))

    def to_json(self) -> JSON:
        return score_json(self)


def _notation(kinds: tuple[int, ...], jokers: tuple[bool, ...]) -> str:
    return " ".join(f"jk={KINDS[k]}" if j else KINDS[k] for k, j in zip(kinds, jokers, strict=True))


def natural_counts(hand: Hand) -> list[int]:
    counts = [0] * KIND_COUNT
    for card in hand.hidden:
        if card != JOKER:
            counts[KIND_INDEX[card]] += 1
    return counts


_NO_JOKERS = (False, False, False)
# Hidden groups are shown lowest card first, a triplet before a sequence starting on the same card.
_DISPLAY_ORDER = [(blocks.kinds_of(b)[0], blocks.is_sequence(b)) for b in blocks.GROUP_IDS]


def _place_jokers(
    groups: tuple[int, ...], pair: int, counts: list[int]
) -> tuple[list[ShownGroup], tuple[bool, bool]]:
    """Which cards of the hidden groups are jokers: naturals go wherever their kind is needed."""
    order = sorted(groups, key=_DISPLAY_ORDER.__getitem__)
    if sum(counts) == 3 * len(groups) + 2:  # no jokers
        return [ShownGroup(b, _NO_JOKERS, False) for b in order], (False, False)
    left = counts

    def take(kind: int) -> bool:
        if left[kind]:
            left[kind] -= 1
            return False
        return True

    shown = [ShownGroup(b, tuple(take(k) for k in blocks.kinds_of(b)), False) for b in order]
    pair_jokers = (take(pair), take(pair))
    return shown, pair_jokers


def score_hand(hand: Hand) -> Score:
    """The best reading of a winning hand (MH-5) with its premiums (MH-6, MH-7) and points (MH-8)."""
    size = hand.card_count
    if size != HAND_SIZE:
        return Score(
            hand,
            False,
            "wrong-card-count",
            f"{size} cards: a winning hand has {HAND_SIZE} cards besides the flowers (MH-5).",
        )
    counts = natural_counts(hand)
    jokers = hand.hidden_jokers
    fixed = tuple(sorted(g.block for g in hand.groups))
    frozen = tuple(counts)
    reading = best_reading(fixed, frozen, jokers)
    if reading is not None:
        return Score(hand, True, reading=reading, counts=frozen)
    # A hand with a reading into groups is never "nothing fits" as well: a group or pair holds at
    # most one of a set of distinct cards 3 apart, so five blocks would hold at most five of the
    # (at least eight) natural cards. Only a hand without a reading needs the MH-7 check.
    special = nothing_fits(counts, jokers) if not hand.groups else None
    if special is not None:
        return Score(hand, True, special=special, counts=frozen)
    return Score(
        hand,
        False,
        "no-reading",
        "No reading into four groups and a pair (MH-5), and not the exceptional hand (MH-7).",
    )


def premium_json(item: Premium) -> JSON:
    return {
        "code": item.code,
        "name": item.name,
        "rule": item.rule,
        "value": item.value,
        "count": item.times,
        "premiums": item.premiums,
        "groups": list(item.groups),
        "pair": item.pair,
        "occurrences": [list(o) for o in item.occurrences],
        "cards": list(item.cards),
    }


def _reading_json(score: Score) -> JSON | None:
    if not score.wins:
        return None
    if score.kind == "nothing-fits":
        kinds = tuple(k for k, _ in score.cards)
        flags = tuple(j for _, j in score.cards)
        return {
            "kind": score.kind,
            "groups": [],
            "pair": None,
            "cards": [KINDS[k] for k in kinds],
            "notation": _notation(kinds, flags),
            "jokers_as": [KINDS[k] for k, j in score.cards if j],
        }
    assert score.pair is not None
    pair_kind, pair_jokers = score.pair
    pair = {
        "cards": [KINDS[pair_kind]] * 2,
        "notation": _notation((pair_kind, pair_kind), pair_jokers),
        "jokers": sum(pair_jokers),
    }
    groups = [g.to_json() for g in score.groups]
    cards = [KINDS[k] for g in score.groups for k in blocks.kinds_of(g.block)] + [KINDS[pair_kind]] * 2
    jokers_as = [
        KINDS[k]
        for g in score.groups
        if not g.laid_out
        for k, j in zip(blocks.kinds_of(g.block), g.jokers, strict=True)
        if j
    ]
    jokers_as += [KINDS[pair_kind]] * sum(pair_jokers)
    return {
        "kind": score.kind,
        "groups": groups,
        "pair": pair,
        "cards": cards,
        "notation": " | ".join([g["notation"] for g in groups] + [str(pair["notation"])]),
        "jokers_as": jokers_as,
    }


def score_json(score: Score) -> JSON:
    return {
        "wins": score.wins,
        "reason_code": score.reason_code,
        "reason": score.reason,
        "cards": score.hand.card_count,
        "reading": _reading_json(score),
        "premiums": [premium_json(p) for p in score.items],
        "total_premiums": score.total_premiums,
        "points": score.points,
        "flowers": list(score.hand.flowers),
        "discard": score.hand.discard,
        "hand": score.hand.to_json(),
    }
