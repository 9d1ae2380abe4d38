"""Which games the platform hosts, by their API name."""

from __future__ import annotations

from api.rules.game import Game
from api.rules.mahe.game import MAHE

GAMES: dict[str, Game] = {
    MAHE.name: MAHE,
}


def get_game(name: str) -> Game | None:
    return GAMES.get(name)
