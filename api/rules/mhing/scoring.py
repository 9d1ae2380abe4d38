"""The scorer: a hand in, its best reading with every premium itemised and the points out (MH-5 … MH-8).

A hand that does not go out is answered with why (`wins` false, `reason_code`, `reason`), not
refused: the app asks while the player is still typing. Whether the last card was a discard does not
change the premiums; it is carried through for the settlement (MH-9 variant 2: the discarder pays
double). It decides one thing: the exceptional hand (MH-7) never goes out on a discard (MH-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from api.rules.errors import say
from api.rules.mhing import blocks, premiums
from api.rules.mhing.cards import JOKER, KIND_COUNT, KIND_INDEX, KINDS
from api.rules.mhing.exceptional import HAND_SIZE, NothingFits, nothing_fits
from api.rules.mhing.hand import Hand
from api.rules.mhing.premiums import Premium
from api.rules.mhing.search import Reading, best_reading

JSON = dict[str, Any]
NOTHING_FITS_ON_DISCARD = "nothing-fits-on-discard"
ReadingKind = Literal["groups-and-pair", "nothing-fits"]


class ShownGroup(NamedTuple):
    """A group of the chosen reading, with which of its cards are jokers."""

    block: int
    jokers: tuple[bool, ...]
    laid_out: bool

    def to_json(self) -> JSON:
        block, jokers = self.block, self.jokers
        return {
            "cards": list(_GROUP_CARDS[block]),
            "notation": _notation(_GROUP_KINDS[block], jokers) if True in jokers else _GROUP_NOTATION[block],
            "kind": _GROUP_KIND_NAME[block],
            "laid_out": self.laid_out,
            "jokers": sum(jokers),
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

    # `_display` and `items` are worked out once and kept in the instance's __dict__ (as
    # functools.cached_property would, without its lock).
    @property
    def _display(self) -> tuple[tuple[ShownGroup, ...], tuple[bool, bool]]:
        known: tuple[tuple[ShownGroup, ...], tuple[bool, bool]] | None = self.__dict__.get("_shown")
        if known is None:
            assert self.reading is not None
            hidden, pair_jokers = _place_jokers(self.reading.groups, self.reading.pair, list(self.counts))
            laid = [ShownGroup(g.block, g.jokers, laid_out=True) for g in self.hand.groups]
            known = self.__dict__["_shown"] = ((*laid, *hidden), pair_jokers)
        return known

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

    @property
    def items(self) -> tuple[Premium, ...]:
        """Every premium, line by line (MH-6, MH-7; flowers first)."""
        known: tuple[Premium, ...] | None = self.__dict__.get("_items")
        if known is None:
            known = self.__dict__["_items"] = self._itemise()
        return known

    def _itemise(self) -> tuple[Premium, ...]:
        flowers = self.hand.flowers
        if self.special is not None:
            code = "nothing-fits-all-honours" if self.special.all_honours else "nothing-fits"
            lead = [Premium("flower", len(flowers), cards=flowers)] if flowers else []
            return (*lead, Premium(code, 1))
        reading = self.reading
        if reading is None:
            return ()
        # The blocks of `groups` (laid-out first, then display order) without placing the jokers.
        shown = sorted(reading.groups, key=_DISPLAY_KEY.__getitem__)
        laid = self.hand.groups
        if laid:
            shown = [g.block for g in laid] + shown
        return tuple(premiums.itemise(tuple(shown), reading.pair, flowers))

    def to_json(self) -> JSON:
        return score_json(self)


def _notation(kinds: tuple[int, ...], jokers: tuple[bool, ...]) -> str:
    return " ".join(f"jk={KINDS[k]}" if j else KINDS[k] for k, j in zip(kinds, jokers, strict=True))


# A hidden card → its slot in a count list: its kind, or one more slot after the kinds for jokers.
_COUNT_SLOT = {**KIND_INDEX, JOKER: KIND_COUNT}


def _hidden_counts(hidden: tuple[str, ...]) -> list[int]:
    """The hidden natural cards per kind, followed by the number of hidden jokers."""
    counts = [0] * (KIND_COUNT + 1)
    slot = _COUNT_SLOT
    for card in hidden:
        counts[slot[card]] += 1
    return counts


def natural_counts(hand: Hand) -> list[int]:
    counts = _hidden_counts(hand.hidden)
    counts.pop()
    return counts


_NO_JOKERS = (False, False, False)
# Hidden groups are shown lowest card first, a triplet before a sequence starting on the same card.
_DISPLAY_KEY = [2 * blocks.kinds_of(b)[0] + blocks.is_sequence(b) for b in blocks.GROUP_IDS]
# Per block: its kinds, its cards, its notation without jokers, "sequence" or "triplet".
_GROUP_KINDS = [blocks.kinds_of(b) for b in blocks.GROUP_IDS]
_GROUP_CARDS = [tuple(KINDS[k] for k in kinds) for kinds in _GROUP_KINDS]
_GROUP_NOTATION = [" ".join(cards) for cards in _GROUP_CARDS]
_PAIR_NOTATION = [f"{card} {card}" for card in KINDS]
_GROUP_KIND_NAME = ["sequence" if blocks.is_sequence(b) else "triplet" for b in blocks.GROUP_IDS]


def _place_jokers(
    groups: tuple[int, ...], pair: int, counts: list[int]
) -> tuple[list[ShownGroup], tuple[bool, bool]]:
    """Which cards of the hidden groups are jokers: naturals go wherever their kind is needed."""
    order = sorted(groups, key=_DISPLAY_KEY.__getitem__)
    if sum(counts) == 3 * len(groups) + 2:  # no jokers
        return [ShownGroup(b, _NO_JOKERS, False) for b in order], (False, False)
    left = counts

    def take(kind: int) -> bool:
        if left[kind]:
            left[kind] -= 1
            return False
        return True

    shown = [ShownGroup(b, tuple(take(k) for k in _GROUP_KINDS[b]), False) for b in order]
    pair_jokers = (take(pair), take(pair))
    return shown, pair_jokers


def score_hand(hand: Hand) -> Score:
    """The best reading of a winning hand (MH-5) with its premiums (MH-6, MH-7) and points (MH-8)."""
    laid = hand.groups
    size = 3 * len(laid) + len(hand.hidden)  # hand.card_count
    if size != HAND_SIZE:
        return Score(
            hand,
            False,
            "wrong-card-count",
            f"{size} cards: a winning hand has {HAND_SIZE} cards besides the flowers (MH-5).",
        )
    counts = _hidden_counts(hand.hidden)
    jokers = counts.pop()
    fixed = tuple(sorted(g.block for g in laid)) if laid else ()
    frozen = tuple(counts)
    reading = best_reading(fixed, frozen, jokers)
    if reading is not None:
        return Score(hand, True, reading=reading, counts=frozen)
    # A hand with a reading into groups is never "nothing fits" as well: a group or pair holds at
    # most one of a set of distinct cards 3 apart, so five blocks would hold at most five of the
    # (at least eight) natural cards. Only a hand without a reading needs the MH-7 check.
    special = nothing_fits(counts, jokers) if not laid else None
    if special is not None and hand.discard:
        # MH-3 Decision: the exceptional hand has no group and no pair, so no discard can complete it.
        why = say(
            "The exceptional hand (MH-7) has no group and no pair, so a discard cannot complete it: it "
            "goes out only with a card from the stack, and nobody pays as the discarder (MH-3)."
        )
        return Score(hand, False, NOTHING_FITS_ON_DISCARD, why)
    if special is not None:
        return Score(hand, True, special=special, counts=frozen)
    return Score(
        hand,
        False,
        "no-reading",
        "No reading into four groups and a pair (MH-5), and not the exceptional hand (MH-7).",
    )


def premium_json(item: Premium) -> JSON:
    code, times, groups, pair, occurrences, cards = item
    name, rule, value = premiums.LINES[code]
    return {
        "code": code,
        "name": name,
        "rule": rule,
        "value": value,
        "count": times,
        "premiums": value * times,
        "groups": list(groups),
        "pair": pair,
        "occurrences": [list(o) for o in occurrences],
        "cards": list(cards),
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
    pair_card = KINDS[pair_kind]
    pair_notation = (
        _notation((pair_kind, pair_kind), pair_jokers) if True in pair_jokers else _PAIR_NOTATION[pair_kind]
    )
    pair = {"cards": [pair_card, pair_card], "notation": pair_notation, "jokers": sum(pair_jokers)}
    shown = score.groups
    groups = [g.to_json() for g in shown]
    group_cards = _GROUP_CARDS
    cards = [card for g in shown for card in group_cards[g.block]]
    cards += (pair_card, pair_card)
    jokers_as = [
        KINDS[k]
        for g in shown
        if not g.laid_out and True in g.jokers
        for k, j in zip(_GROUP_KINDS[g.block], g.jokers, strict=True)
        if j
    ]
    jokers_as += [pair_card] * sum(pair_jokers)
    return {
        "kind": score.kind,
        "groups": groups,
        "pair": pair,
        "cards": cards,
        "notation": " | ".join([g["notation"] for g in groups] + [pair_notation]),
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
