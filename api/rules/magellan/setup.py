"""Starting a game: options and MG-3 setup (ships, starting money sets, draw stack, explorer decks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.errors import InvalidSetup
from api.rules.magellan.chance import shuffled
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
from api.rules.magellan.money import remove
from api.rules.magellan.sheet import parse_sheet, sheet_json
from api.rules.magellan.state import Deck, MagellanState, Options, Player

OPTION_KEYS = ("sides", "depth", "chance", "auctioneer", "board_sheet")


def parse_options(options: Mapping[str, Any]) -> Options:
    """Defaults filled in; unknown keys and bad values refused (the seat range is checked in new_game)."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("invalid-option", "Options must be an object.")
    unknown = sorted(str(k) for k in options if k not in OPTION_KEYS)
    if unknown:
        raise InvalidSetup(
            "unknown-option",
            f"Unknown option {', '.join(unknown)}; Magellan knows {', '.join(OPTION_KEYS)}.",
        )
    raw_sides = options.get("sides") or {}
    if not isinstance(raw_sides, Mapping):
        raise InvalidSetup("invalid-option", 'Option sides must map explorers to "A" or "B" (MG-1).', "MG-1")
    bad = sorted(str(k) for k in raw_sides if k not in EXPLORERS)
    if bad:
        raise InvalidSetup(
            "invalid-option",
            f"Option sides: unknown explorer {', '.join(bad)}; the explorers are {', '.join(EXPLORERS)}.",
            "MG-1",
        )
    sides = tuple(raw_sides.get(e, "A") for e in EXPLORERS)
    if any(side not in SIDES for side in sides):
        raise InvalidSetup("invalid-option", 'Option sides: each side is "A" or "B" (MG-1).', "MG-1")
    depth = options.get("depth", "outcomes")
    if depth not in ("outcomes", "ledger"):
        raise InvalidSetup("invalid-option", 'Option depth must be "outcomes" or "ledger".')
    chance = options.get("chance", "physical")
    if chance not in ("physical", "digital"):
        raise InvalidSetup("invalid-option", 'Option chance must be "physical" or "digital".')
    auctioneer = options.get("auctioneer", 0)
    if isinstance(auctioneer, bool) or not isinstance(auctioneer, int) or auctioneer < 0:
        raise InvalidSetup("invalid-option", "Option auctioneer must be a seat number (MG-3).", "MG-3")
    return Options(
        sides=sides,
        depth="ledger" if depth == "ledger" else "outcomes",
        chance="digital" if chance == "digital" else "physical",
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
    if not isinstance(raw, Mapping):
        raise InvalidSetup("invalid-player", f"Player {seat + 1} must be an object with a name.")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidSetup("invalid-player", f"Player {seat + 1} needs a name.")
    return Player(name=name.strip())


def full_deck(phase: int) -> tuple[str, ...]:
    """MG-1: 3 / 2 / 1 cards of each explorer in the phase I / II / III deck."""
    return tuple(e for e in EXPLORERS for _ in range(CARDS_PER_EXPLORER[phase]))


def new_game(players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int) -> MagellanState:
    """MG-3: 6 ships and a money set 1–9 each; the rest is the draw stack; three decks shuffled."""
    opts = parse_options(options)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSetup("invalid-seed", "The seed must be an integer.")
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidSetup("player-count", "Players must be a list.", "MG-3")
    count = len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidSetup("player-count", f"Magellan is for 3 to 6 players, not {count}.", "MG-3")
    if opts.auctioneer >= count:
        raise InvalidSetup(
            "invalid-option", f"Option auctioneer must be a seat from 0 to {count - 1} (MG-3).", "MG-3"
        )
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
