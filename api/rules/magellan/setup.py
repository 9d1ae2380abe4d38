"""Starting a game: options and MG-3 setup (ships, starting money sets, draw stack, explorer decks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.common import setup as common
from api.rules.errors import InvalidSetup, say
from api.rules.magellan.cards import remove, shuffled
from api.rules.magellan.constants import (
    CARDS_PER_EXPLORER,
    EXPLORERS,
    FULL_MONEY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PHASES,
    SIDES,
    STARTING_HAND,
)
from api.rules.magellan.engine import settle
from api.rules.magellan.sheet import parse_sheet, sheet_json
from api.rules.magellan.state import Deck, MagellanState, Options, Player

OPTION_KEYS = ("sides", "depth", "chance", "auctioneer", "board_sheet")


def parse_options(options: Mapping[str, Any]) -> Options:
    """Defaults filled in; unknown keys and bad values refused (the seat range is checked in new_game)."""
    options = common.known_options(options, "Magellan", OPTION_KEYS)
    raw_sides = options.get("sides")
    if raw_sides is None:  # left out or null: every explorer on side A (MG-1); `false` is no map
        raw_sides = {}
    if not isinstance(raw_sides, Mapping):
        raise InvalidSetup("invalid-option", 'Option sides must map explorers to "A" or "B" (MG-1).', "MG-1")
    bad = sorted(str(k) for k in raw_sides if k not in EXPLORERS)
    if bad:
        raise InvalidSetup(
            "invalid-option",
            say(
                "Option sides: unknown explorer {items}; the explorers are {items2}.",
                items=", ".join(bad),
                items2=", ".join(EXPLORERS),
            ),
            "MG-1",
        )
    sides = tuple(raw_sides.get(e, "A") for e in EXPLORERS)
    if any(side not in SIDES for side in sides):
        raise InvalidSetup("invalid-option", 'Option sides: each side is "A" or "B" (MG-1).', "MG-1")
    depth = options.get("depth", "outcomes")
    if depth not in ("outcomes", "ledger"):
        raise InvalidSetup("invalid-option", 'Option depth must be "outcomes" or "ledger".')
    chance = common.chance_option(options)
    auctioneer = common.seat_option(
        options, "auctioneer", "Option auctioneer must be a seat number (MG-3).", "MG-3"
    )
    return Options(
        sides=sides,
        depth="ledger" if depth == "ledger" else "outcomes",
        chance=chance,
        auctioneer=auctioneer,
        board_sheet=parse_sheet(options.get("board_sheet")),
    )


def options_json(options: Options) -> dict[str, Any]:
    return {
        "sides": options.side_map(),
        "depth": options.depth,
        "chance": options.chance,
        "auctioneer": options.auctioneer,
        "board_sheet": sheet_json(options.board_sheet),
    }


def _player(seat: int, raw: Any) -> Player:
    return Player(name=common.player_name(seat, raw).strip())


def full_deck(phase: int) -> tuple[str, ...]:
    """MG-1: 3 / 2 / 1 cards of each explorer in the phase I / II / III deck."""
    return tuple(e for e in EXPLORERS for _ in range(CARDS_PER_EXPLORER[phase]))


def new_game(players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int) -> MagellanState:
    """MG-3: 6 ships and a money set 1–9 each; the rest is the draw stack; three decks shuffled."""
    opts = parse_options(options)
    common.check_seed(seed)
    count = common.player_count(players, "Magellan", MIN_PLAYERS, MAX_PLAYERS, "MG-3")
    common.seat_in_range("auctioneer", opts.auctioneer, count, "MG-3")
    seats = tuple(_player(seat, raw) for seat, raw in enumerate(players))
    digital = opts.chance == "digital"
    decks = tuple(
        Deck(hidden=shuffled(full_deck(p), seed, f"deck/{p}") if digital else full_deck(p)) for p in PHASES
    )
    draw: tuple[int, ...] = ()
    if opts.depth == "ledger":
        seats = tuple(Player(name=p.name, hand=STARTING_HAND) for p in seats)
        rest = remove(FULL_MONEY, STARTING_HAND * count)
        draw = shuffled(rest, seed, "money/0") if digital else rest
    return settle(
        MagellanState(options=opts, seed=seed, players=seats, decks=decks, sheet=opts.board_sheet, draw=draw)
    )
