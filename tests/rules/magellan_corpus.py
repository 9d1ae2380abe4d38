"""A recorded corpus of whole Magellan games that pins the referee's behaviour byte for byte.

Every side combination (64), both depths and both chance modes, with undos now and then (never of
the server's draws, GEN-1). For each
game the corpus keeps the events and one SHA-256 over every step's dumped state, legal actions,
public view and result. Refactoring the engine must leave every hash as it is; regenerate (only
when behaviour is meant to change) with `python -m tests.rules.magellan_corpus`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from api.rules.magellan.game import MAGELLAN
from api.rules.replay import advance, chance_stands
from tests.rules.magellan_support import TEST_SHEET, players, random_event, sides_from

CORPUS = Path(__file__).with_name("data") / "magellan_corpus.json.gz"
Event = dict[str, Any]


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def step_digest(digest: Any, state: Any) -> None:
    for part in (
        MAGELLAN.dump(state),
        MAGELLAN.legal_actions(state),
        MAGELLAN.public_view(state),
        MAGELLAN.result(state),
    ):
        digest.update(canonical(part))


def replay_digest(game: dict[str, Any]) -> str:
    """The hash of every step of one recorded game, replayed through today's engine."""
    options = MAGELLAN.normalize_options(game["options"])
    states = [MAGELLAN.new_game(game["players"], options, game["seed"])]
    digest = hashlib.sha256()
    step_digest(digest, states[-1])
    for event in game["events"]:
        states = advance(MAGELLAN, states, event)
        step_digest(digest, states[-1])
    return digest.hexdigest()


def record(sides: int, seed: int) -> dict[str, Any]:
    """One whole game: seat count, depth, chance and sheet drawn from `seed`; undos ~3 %."""
    rng = random.Random(seed)
    count = 3 + seed % 4
    options: dict[str, Any] = {
        "depth": ("outcomes", "ledger")[seed % 2],
        "chance": ("physical", "digital")[seed // 2 % 2],
        "sides": dict(sides_from(sides)),
        "auctioneer": rng.randrange(count),
    }
    if rng.random() < 0.5:
        options["board_sheet"] = TEST_SHEET
    seats = players(count)
    states = [MAGELLAN.new_game(seats, MAGELLAN.normalize_options(options), seed)]
    events: list[Event] = []
    while MAGELLAN.result(states[-1]) is None:
        undo = len(states) > 1 and rng.random() < 0.03
        # GEN-1: the server's draws stand, and with them everything before.
        undo = undo and not chance_stands(MAGELLAN, states[-2], states[-1])
        event = {"type": "undo"} if undo else random_event(states[-1], rng)
        states = advance(MAGELLAN, states, event)
        events.append(event)
    game = {"players": seats, "options": options, "seed": seed, "events": events}
    return {**game, "digest": replay_digest(game)}


def recorded() -> list[dict[str, Any]]:
    return list(json.loads(gzip.decompress(CORPUS.read_bytes())))


if __name__ == "__main__":
    games = [record(sides, 1000 + sides) for sides in range(64)]
    CORPUS.parent.mkdir(exist_ok=True)
    CORPUS.write_bytes(gzip.compress(canonical(games), mtime=0))
    print(f"{len(games)} games, {sum(len(g['events']) for g in games)} events, {CORPUS.stat().st_size} bytes")
