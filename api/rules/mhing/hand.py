"""A hand as the players type it: laid-out groups, hidden cards, flowers, and how the last card came.

Laid-out groups (MH-3) stay as laid out (MH-5), so a joker in one is declared as the card it stands
for: `jk=b4` in `b3 jk=b4 b5`. A bare `jk` is accepted in a group only where it can stand for one
card alone (`dr dr jk`, `b3 jk b5`); `b3 b4 jk` must say `jk=b2` or `jk=b5`. Jokers among the hidden
cards are never declared: the referee assigns them to score best (MH-5).

Groups are written as a list (each a string or a list of cards) or as one string with the groups
separated by `|` or `;`: `"b3 jk=b4 b5 | dr dr dr"`. Flowers typed among the hidden cards are set
aside as flowers, as at the table (MH-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, say
from api.rules.mhing import blocks
from api.rules.mhing.cards import (
    JOKER,
    KIND_INDEX,
    KINDS,
    CardsInput,
    check_copies,
    format_cards,
    is_flower,
    parse_card,
    parse_cards,
    tokens,
)

MAX_GROUPS = 4
_DECLARED = "jk="


@dataclass(frozen=True)
class Group:
    """A laid-out group: the block it reads as, and which of its three cards are jokers."""

    block: int
    jokers: tuple[bool, bool, bool]

    @property
    def kinds(self) -> tuple[int, int, int]:
        return blocks.kinds_of(self.block)

    @property
    def physical(self) -> tuple[str, ...]:
        """The cards on the table: jokers as `jk`."""
        return tuple(JOKER if j else KINDS[k] for k, j in zip(self.kinds, self.jokers, strict=True))

    @property
    def notation(self) -> str:
        """`b3 jk=b4 b5`."""
        return " ".join(
            f"{_DECLARED}{KINDS[k]}" if j else KINDS[k] for k, j in zip(self.kinds, self.jokers, strict=True)
        )


@dataclass(frozen=True)
class Hand:
    """One player's cards at the end of a round (flowers aside)."""

    groups: tuple[Group, ...] = ()
    hidden: tuple[str, ...] = ()
    flowers: tuple[str, ...] = ()
    discard: bool = False

    @property
    def card_count(self) -> int:
        """Cards that count for going out: flowers aside (MH-5)."""
        return 3 * len(self.groups) + len(self.hidden)

    @property
    def hidden_jokers(self) -> int:
        return self.hidden.count(JOKER)

    def physical_cards(self) -> list[str]:
        return [c for g in self.groups for c in g.physical] + list(self.hidden) + list(self.flowers)

    def to_json(self) -> dict[str, Any]:
        return {
            "groups": [g.notation for g in self.groups],
            "hidden": format_cards(self.hidden),
            "flowers": format_cards(self.flowers),
            "discard": self.discard,
        }


def _group_token(token: str) -> tuple[int | None, bool]:
    """(kind or None for an undeclared joker, is a joker) for one card of a group."""
    if token.startswith(_DECLARED):
        stands_for = token[len(_DECLARED) :]
        card = parse_card(stands_for)
        if card == JOKER or is_flower(card):
            raise IllegalMove(
                "invalid-joker",
                say("A joker stands for any card but a flower or a joker, not {card} (MH-5).", card=card),
                "MH-5",
            )
        return KIND_INDEX[card], True
    card = parse_card(token)
    if is_flower(card):
        raise IllegalMove(
            "flower-in-group",
            say(
                "{card} is a flower: flowers are laid out on their own, never in a group (MH-2, MH-5).",
                card=card,
            ),
            "MH-5",
        )
    if card == JOKER:
        return None, True
    return KIND_INDEX[card], False


def parse_group(text: CardsInput) -> Group:
    """One laid-out group: three cards forming a triplet or a sequence (MH-5)."""
    items = tokens(text, "group")
    shown = " ".join(items)
    if len(items) != 3:
        raise IllegalMove(
            "group-size",
            say("A group has three cards; {shown} has {count} (MH-5).", shown=repr(shown), count=len(items)),
            "MH-5",
        )
    read = [_group_token(t) for t in items]
    known = [k for k, _ in read if k is not None]
    open_jokers = sum(1 for k, _ in read if k is None)
    if open_jokers:
        fits = {b for b in blocks.GROUP_IDS if _contains(blocks.kinds_of(b), known)}
        if len(fits) != 1:
            raise IllegalMove(
                "undeclared-joker",
                say(
                    "Say which card each joker in {shown} stands for, e.g. jk=b5: a laid-out group stays as "
                    "laid out (MH-5).",
                    shown=repr(shown),
                ),
                "MH-5",
            )
        block = fits.pop()
    else:
        found = blocks.block_of(tuple(known))
        if found is None:
            raise IllegalMove(
                "not-a-group",
                say(
                    "{shown} is neither a triplet (three identical cards) nor a sequence (three consecutive "
                    "cards of one suit) (MH-5).",
                    shown=repr(shown),
                ),
                "MH-5",
            )
        block = found
    # Place jokers: declared ones on their card, open ones on whatever the naturals leave free.
    naturals = [k for k, j in read if not j and k is not None]
    declared = [k for k, j in read if j and k is not None]
    flags: list[bool] = []
    for kind in blocks.kinds_of(block):
        if kind in naturals:
            naturals.remove(kind)
            flags.append(False)
        else:
            if kind in declared:
                declared.remove(kind)
            flags.append(True)
    return Group(block=block, jokers=(flags[0], flags[1], flags[2]))


def _contains(kinds: tuple[int, int, int], known: list[int]) -> bool:
    rest = list(kinds)
    for k in known:
        if k not in rest:
            return False
        rest.remove(k)
    return True


def parse_groups(raw: Any) -> tuple[Group, ...]:
    """A list of groups, or one string with groups separated by `|` or `;`."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        parts: Sequence[Any] = [p for p in raw.replace(";", "|").split("|") if p.strip()]
    elif isinstance(raw, Sequence):
        parts = raw
    else:
        raise MalformedEvent(
            "invalid-groups",
            "Groups must be a list of groups or a string like 'b1 b2 b3 | dr dr dr'.",
            "MH-10",
        )
    groups = tuple(parse_group(p) for p in parts)
    if len(groups) > MAX_GROUPS:
        raise IllegalMove(
            "too-many-groups",
            say("A hand has four groups and a pair, not {count} groups (MH-5).", count=len(groups)),
            "MH-5",
        )
    return groups


def parse_hand(
    groups: Any = None,
    hidden: CardsInput | None = None,
    flowers: CardsInput | None = None,
    discard: bool = False,
) -> Hand:
    """The whole hand, with the MH-1 limits checked over every card in it."""
    laid_out = parse_groups(groups)
    if hidden is not None and any(t.startswith(_DECLARED) for t in tokens(hidden, "hidden cards")):
        raise IllegalMove(
            "joker-declared-in-hidden",
            "Jokers among the hidden cards are not declared: the referee makes each one the card that "
            "scores best (MH-5). Declare jokers only in laid-out groups.",
            "MH-5",
        )
    in_hand = parse_cards(hidden if hidden is not None else "", "hidden cards")
    aside = parse_cards(flowers if flowers is not None else "", "flowers")
    not_flowers = [c for c in aside if not is_flower(c)]
    if not_flowers:
        raise IllegalMove(
            "not-a-flower",
            say(
                "{not_flowers} is not a flower; flowers are f1–f4 (MH-1, MH-10).", not_flowers=not_flowers[0]
            ),
            "MH-10",
        )
    if not isinstance(discard, bool):
        raise MalformedEvent("invalid-discard", "discard must be true or false (MH-9).", "MH-9")
    hand = Hand(
        groups=laid_out,
        hidden=tuple(c for c in in_hand if not is_flower(c)),
        flowers=aside + tuple(c for c in in_hand if is_flower(c)),
        discard=discard,
    )
    check_copies(hand.physical_cards())
    return hand


def hand_from_json(data: Any, *, discard: bool | None = None) -> Hand:
    """A hand object `{"groups", "hidden", "flowers", "discard"}` as the API and events carry it."""
    if not isinstance(data, Mapping):
        raise MalformedEvent("hand-required", "The hand must be an object with groups, hidden and flowers.")
    unknown = sorted(str(k) for k in data if k not in ("groups", "hidden", "flowers", "discard"))
    if unknown:
        raise MalformedEvent(
            "unknown-hand-field", say("A hand has no field {items}.", items=", ".join(unknown))
        )
    return parse_hand(
        data.get("groups"),
        data.get("hidden"),
        data.get("flowers"),
        data.get("discard", False) if discard is None else discard,
    )
