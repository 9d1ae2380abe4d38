"""Which games the platform hosts, by their API name."""

from __future__ import annotations

from api.rules.game import Game
from api.rules.magellan.game import MAGELLAN
from api.rules.mahe.game import MAHE
from api.rules.mhing.game import MHING

GAMES: dict[str, Game] = {
    MAHE.name: MAHE,
    MAGELLAN.name: MAGELLAN,
    MHING.name: MHING,
}


def get_game(name: str) -> Game | None:
    return GAMES.get(name)
