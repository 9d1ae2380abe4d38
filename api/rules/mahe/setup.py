"""Starting a game: players, colours and options (MA-1, MA-2, MA-11, MA-12)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.common import setup as common
from api.rules.errors import InvalidSetup, say, term
from api.rules.mahe.chance import shuffled_deck
from api.rules.mahe.constants import MAX_PLAYERS, MIN_PLAYERS, PILE_SIZE, SET_ASIDE, TURTLE_COLOURS
from api.rules.mahe.state import MaheState, Options, Player, Supply, Turn
from api.rules.mahe.track import Position

OPTION_KEYS = ("chance", "egg_dice_variant", "first_seat")


def parse_options(options: Mapping[str, Any]) -> Options:
    """Defaults filled in; unknown keys and bad values refused (the seat range is checked in new_game)."""
    options = common.known_options(options, "Mahé", OPTION_KEYS)
    chance = common.chance_option(options, "MA-12")
    variant = options.get("egg_dice_variant", False)
    if not isinstance(variant, bool):
        raise InvalidSetup(
            "invalid-option", "Option egg_dice_variant must be true or false (MA-11).", "MA-11"
        )
    first_seat = common.seat_option(
        options, "first_seat", "Option first_seat must be a seat number, 0 or more (MA-2).", "MA-2"
    )
    return Options(
        chance=chance,
        egg_dice_variant=variant,
        first_seat=first_seat,
    )


def options_json(options: Options) -> dict[str, Any]:
    return {
        "chance": options.chance,
        "egg_dice_variant": options.egg_dice_variant,
        "first_seat": options.first_seat,
    }


def _player(seat: int, raw: Any, colours_each: int, count: int, taken: set[str]) -> Player:
    name = common.player_name(seat, raw, "a name and colours")
    colours = raw.get("colours")
    if (
        not isinstance(colours, Sequence)
        or isinstance(colours, str)
        or not all(isinstance(c, str) for c in colours)
    ):
        raise InvalidSetup("invalid-player", say("{name} needs a list of turtle colours.", name=name), "MA-2")
    if len(colours) != colours_each:
        turtles = term("two turtles") if colours_each == 2 else term("one turtle")
        said = (
            say(
                "With {count} players each player plays {turtles}: {name} gave only one colour (MA-2).",
                count=count,
                turtles=turtles,
                name=name,
            )
            if len(colours) == 1
            else say(
                "With {count} players each player plays {turtles}: {name} gave {count2} colours (MA-2).",
                count=count,
                turtles=turtles,
                name=name,
                count2=len(colours),
            )
        )
        raise InvalidSetup("colour-count", said, "MA-2")
    for colour in colours:
        if colour not in TURTLE_COLOURS:
            raise InvalidSetup(
                "unknown-colour",
                say(
                    "{colour} is not a turtle colour; choose from {items} (MA-1).",
                    colour=repr(colour),
                    items=", ".join(TURTLE_COLOURS),
                ),
                "MA-1",
            )
        if colour in taken:
            raise InvalidSetup(
                "duplicate-colour", say("The {colour} turtle is chosen twice (MA-1).", colour=colour), "MA-1"
            )
        taken.add(colour)
    return Player(name=name, colours=tuple(colours))


def first_order(player: Player) -> tuple[str, ...] | None:
    """One-turtle players need no choice; two-turtle players choose the order each turn (MA-9)."""
    return player.colours if len(player.colours) == 1 else None


def new_game(players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int) -> MaheState:
    """MA-2: turtles on the raft, 4 cards away unseen, 20 on the pile with the top one face up."""
    opts = parse_options(options)
    common.check_seed(seed, "MA-12")
    count = common.player_count(players, "Mahé", MIN_PLAYERS, MAX_PLAYERS, "MA-2", cite_rule=True)
    colours_each = 2 if count <= 3 else 1
    taken: set[str] = set()
    seats = tuple(_player(seat, raw, colours_each, count, taken) for seat, raw in enumerate(players))
    common.seat_in_range("first_seat", opts.first_seat, count, "MA-2")
    if opts.chance == "digital":
        deck = shuffled_deck(seed)
        pile = deck[SET_ASIDE:]
        supply = Supply(
            face_up=pile[0],
            pile_count=PILE_SIZE,
            awaiting_reveal=False,
            hidden=pile[1:],
            set_aside=deck[:SET_ASIDE],
        )
    else:
        # Physical: someone turns up the first card and types its value in before the first move.
        supply = Supply(face_up=None, pile_count=PILE_SIZE, awaiting_reveal=True)
    start = seats[opts.first_seat]
    return MaheState(
        options=opts,
        seed=seed,
        players=seats,
        position=Position.start(c for p in seats for c in p.colours),
        supply=supply,
        turn=Turn(seat=opts.first_seat, turtle_order=first_order(start)),
    )
