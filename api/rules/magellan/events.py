"""Reading the fields of an event; shape problems are MalformedEvent, never IllegalMove."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.common import events as common
from api.rules.common.events import has, is_int
from api.rules.errors import MalformedEvent, say
from api.rules.magellan.constants import EXPLORERS, MONEY_VALUES, PARTS

# Each event type with the fields it takes (besides `type` and the sending `seat`).
_MONEY = (1, 9)
EVENT_FIELDS: dict[str, common.Fields] = {
    "set_board_sheet": {  # MG-2
        "sheet": common.Field("object", "The board sheet: `{explorers: {…}}` (MG-2)", required=True)
    },
    "reveal": {"explorer": common.choice("The explorer turned up; none in digital play (MG-4)", EXPLORERS)},
    "veto": {},  # MG-8 Columbus
    "bid": {"amount": common.integer("The bid (MG-4)", 1, required=True)},
    "pass": {},  # MG-4
    # A whole auction at once ("winner and price", issue 33): every step is checked before any is
    # taken, so a refused bid leaves the card's auction as it was — never half the passes recorded.
    "auction": {
        "steps": common.Field(
            "steps",
            "The card's bids and passes in turn order, each with its player's seat: "
            '`[{"type": "pass", "seat": 1}, {"type": "bid", "seat": 2, "amount": 5}]` (MG-4)',
            required=True,
        )
    },
    "pay": {"cards": common.integers("The money cards paid, by value (MG-6)", *_MONEY, required=True)},
    "vasco_part": {  # MG-8 Vasco da Gama B
        "part": common.choice("The part of the field (MG-8)", PARTS),
        "from_part": common.choice("The part a ship moves from (MG-8)", PARTS),
    },
    # MG-8 Vasco da Gama, MG-9 income (typed in physical play)
    "draw": {"cards": common.integers("The cards drawn, by value; none in digital play (MG-6)", *_MONEY)},
    "slide": {  # MG-8 Magellan
        "value": common.integer("The money card slid under Magellan (MG-8)", *_MONEY),
        "pile": common.integer("The Magellan pile, 0, 1, 2 … (MG-8)", 0),
    },
    "cook_pull": {
        "value": common.integer("The card pulled; none in digital play (MG-8)", *_MONEY)
    },  # MG-8 Cook B
    "swap": {  # MG-8 Marco Polo
        "discard": common.integer("The card given back (MG-8)", *_MONEY, required=True),
        "draw": common.integer("The card drawn instead; none in digital play (MG-8)", *_MONEY),
    },
    "end_swaps": {},  # MG-8 Marco Polo
    "final_hand": {
        "cards": common.integers("The money cards left in the hand (MG-10)", *_MONEY, required=True)
    },
    # Every hand at once (issue 33): all are checked before any is taken, so a refused hand leaves
    # the table as it was — never half the hands recorded.
    "final_hands": {
        "hands": common.Field(
            "seat_cards",
            "Every hand typed in at once: seat number → the money cards left in it, "
            '`{"0": [1, 5], "2": []}` (MG-10)',
            required=True,
        )
    },
    "pizarro_draw": {"value": common.integer("The card drawn; none in digital play (MG-11)", *_MONEY)},
    "pizarro_stop": {},  # MG-11
}
EVENT_TYPES = tuple(EVENT_FIELDS)


def event_type(event: Any) -> str:
    return common.event_type(event, "Magellan", EVENT_FIELDS)


def refuse_in_digital(event: Mapping[str, Any], key: str, server_does: str, rule: str) -> None:
    """Digital play: the server supplies this card, so the event must not name one."""
    if has(event, key):
        raise MalformedEvent(
            "value-not-allowed-digital",
            say(
                "In a digital game the server {server_does}: there is no card value to type in ({rule}).",
                server_does=server_does,
                rule=rule,
            ),
            rule,
        )


def money_value(event: Mapping[str, Any], key: str, what: str, rule: str) -> int:
    value = event.get(key)
    if value is None:
        raise MalformedEvent(
            f"{key.replace('_', '-')}-required",
            say("Give the {what} (1 to 9) ({rule}).", what=what, rule=rule),
            rule,
        )
    if not is_int(value) or value not in MONEY_VALUES:
        raise MalformedEvent(
            "invalid-money-value",
            say("The {what} must be a money value from 1 to 9 ({rule}).", what=what, rule=rule),
            rule,
        )
    return int(value)


def money_cards(
    event: Mapping[str, Any], key: str, what: str, rule: str, allow_empty: bool = False
) -> tuple[int, ...]:
    cards = event.get(key)
    if cards is None:
        raise MalformedEvent(
            f"{key}-required", say("List the {what} by their values ({rule}).", what=what, rule=rule), rule
        )
    if not isinstance(cards, list) or not all(is_int(v) and v in MONEY_VALUES for v in cards):
        raise MalformedEvent(
            "invalid-money-cards",
            say("The {what} must be a list of money values 1 to 9 ({rule}).", what=what, rule=rule),
            rule,
        )
    if not cards and not allow_empty:
        raise MalformedEvent(
            f"{key}-required", say("List at least one of the {what} ({rule}).", what=what, rule=rule), rule
        )
    return tuple(int(v) for v in cards)


def hands(event: Mapping[str, Any], players: int) -> list[tuple[int, Any]]:
    """The `hands` of a final_hands event: (seat, cards) by seat; the cards are read by the hand's
    own check (final_hand)."""
    given = event.get("hands")
    if not isinstance(given, Mapping) or not given:
        raise MalformedEvent(
            "invalid-hands",
            "Give the hands as an object from seat number to the money cards left in that hand (MG-10).",
            "MG-10",
        )
    out: list[tuple[int, Any]] = []
    for key, cards in given.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else None
        if seat is None or seat >= players:
            raise MalformedEvent(
                "invalid-hands",
                "Give the hands as an object from seat number to the money cards left in that hand (MG-10).",
                "MG-10",
            )
        out.append((seat, cards))
    return sorted(out, key=lambda pair: pair[0])


#: The steps an `auction` entry may hold (MG-4), and at most how many (a bound, not a rule).
AUCTION_STEPS = ("bid", "pass")
MAX_AUCTION_STEPS = 64


def auction_steps(event: Mapping[str, Any], players: int) -> list[Mapping[str, Any]]:
    """The `steps` of an auction entry: each a bid or a pass naming its player's seat (the entry
    records several players' decisions, so none is left to be guessed); fields as the single events'."""
    steps = event.get("steps")
    if not isinstance(steps, list) or not steps or len(steps) > MAX_AUCTION_STEPS:
        raise MalformedEvent(
            "invalid-steps",
            "Give the auction as a list of its bids and passes in turn order, each with its player's "
            "seat (MG-4).",
            "MG-4",
        )
    for step in steps:
        seat = step.get("seat") if isinstance(step, Mapping) else None
        if (
            not isinstance(step, Mapping)
            or step.get("type") not in AUCTION_STEPS
            or not is_int(seat)
            or not 0 <= seat < players
        ):
            raise MalformedEvent(
                "invalid-steps",
                "Give the auction as a list of its bids and passes in turn order, each with its "
                "player's seat (MG-4).",
                "MG-4",
            )
        event_type(step)
    return steps


def amount(event: Mapping[str, Any]) -> int:
    value = event.get("amount")
    if value is None:
        raise MalformedEvent("amount-required", "A bid needs an amount (MG-4).", "MG-4")
    if not is_int(value) or value < 1:
        raise MalformedEvent("invalid-amount", "A bid is a whole number, at least 1 (MG-4).", "MG-4")
    return int(value)


def explorer(event: Mapping[str, Any]) -> str:
    return common.str_choice(
        event,
        "explorer",
        EXPLORERS,
        "Say which explorer card was turned up (MG-4).",
        "MG-4",
        "{value!r} is not an explorer; they are {choices} (MG-1).",
        "MG-1",
    )


def part(event: Mapping[str, Any], key: str) -> str | None:
    value = event.get(key)
    if value is None:
        return None
    if value not in PARTS:
        raise MalformedEvent("invalid-part", "The part of the field is either left or right (MG-8).", "MG-8")
    return str(value)


def index(event: Mapping[str, Any], key: str) -> int | None:
    value = event.get(key)
    if value is None:
        return None
    if not is_int(value) or value < 0:
        raise MalformedEvent(
            f"invalid-{key}", "Name the Magellan pile by its number: 0, 1, 2 … (MG-8).", "MG-8"
        )
    return int(value)
