"""The games as the server hosts them: each `api/games/<game>/` package (its HTTP endpoints, view
schemas, statistics) declares a `SERVER` (api.games.server.GameServer) beside the game's manifest.

Found from api.rules.registry.GAME_FOLDERS, the one list of games; imported on first use, so a
module of the platform may ask for them at any time without an import cycle.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from api.games.server import GameServer
from api.rules.registry import GAME_FOLDERS


@cache
def servers() -> dict[str, GameServer]:
    """Every game's server part, by API name, in the registry's order."""
    found: dict[str, GameServer] = {}
    for folder in GAME_FOLDERS:
        server: GameServer = import_module(f"api.games.{folder}").SERVER
        assert server.manifest.id == folder, f"api/games/{folder} declares {server.manifest.id!r}"
        found[folder] = server
    return found


def server(name: str) -> GameServer | None:
    return servers().get(name)
