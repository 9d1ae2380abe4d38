"""Starting a table: players and options (MH-2 first dealer, MH-9 settlement variant)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.common import setup as common
from api.rules.errors import InvalidSetup, say
from api.rules.mhing.state import START, MhingState, Options

MIN_PLAYERS, MAX_PLAYERS = 2, 6
VARIANT_2_MAX = 4
OPTION_KEYS = ("settlement", "first_seat")


def parse_options(options: Mapping[str, Any]) -> Options:
    """Defaults filled in; unknown keys and bad values refused (seat range checked in new_game)."""
    options = common.known_options(options, "Mhing", OPTION_KEYS)
    settlement = options.get("settlement", 1)
    if isinstance(settlement, bool) or settlement not in (1, 2):
        raise InvalidSetup(
            "invalid-option",
            "Option settlement must be 1 (add up to 500) or 2 (pay the winner from 500 each) (MH-9).",
            "MH-9",
        )
    first_seat = common.seat_option(
        options, "first_seat", "Option first_seat (the first dealer) must be a seat number (MH-2).", "MH-2"
    )
    return Options(settlement=int(settlement), first_seat=first_seat)


def options_json(options: Options) -> dict[str, Any]:
    return {"settlement": options.settlement, "first_seat": options.first_seat}


def new_game(players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int) -> MhingState:
    """Everyone at 0 (variant 1) or 500 (variant 2); `first_seat` deals first (MH-2). No chance is
    drawn by the server, so the seed is not used."""
    opts = parse_options(options)
    count = common.player_count(players, "Mhing", MIN_PLAYERS, MAX_PLAYERS, "MH-1")
    if opts.settlement == 2 and count > VARIANT_2_MAX:
        raise InvalidSetup(
            "settlement-player-count",
            say(
                "Settlement variant 2 is for 2 to 4 players, not {count}; choose variant 1 (MH-9).",
                count=count,
            ),
            "MH-9",
        )
    common.seat_in_range("first_seat", opts.first_seat, count, "MH-2")
    names = tuple(common.player_name(seat, raw) for seat, raw in enumerate(players))
    start = START if opts.settlement == 2 else 0
    return MhingState(options=opts, names=names, scores=(start,) * count, dealer=opts.first_seat)
