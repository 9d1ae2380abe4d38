"""Which games the platform hosts, by their API name.

`GAME_FOLDERS` is the one list of games on the server and the phone's referee: each name is a folder
`api/rules/<name>/` with a `manifest.py` (`MANIFEST`, api.rules.manifest) and a `game.py` (`GAME`,
the rules behind api.rules.game.Game). Everything else reads the games from here. Adding a game is
its folders (api/rules, api/games, pwa/js/games), its catalogs and pages, and its name on this line
and on `pwa/js/games/registry.js`'s.
"""

from __future__ import annotations

from importlib import import_module

from api.rules.game import Game
from api.rules.manifest import Manifest

GAME_FOLDERS: tuple[str, ...] = ("mahe", "magellan", "mhing")

MANIFESTS: dict[str, Manifest] = {}
GAMES: dict[str, Game] = {}
for _folder in GAME_FOLDERS:
    _manifest: Manifest = import_module(f"api.rules.{_folder}.manifest").MANIFEST
    assert _manifest.id == _folder, f"api/rules/{_folder}/manifest.py declares {_manifest.id!r}"
    MANIFESTS[_folder] = _manifest
    GAMES[_folder] = import_module(f"api.rules.{_folder}.game").GAME


def get_game(name: str) -> Game | None:
    return GAMES.get(name)


def get_manifest(name: str) -> Manifest | None:
    return MANIFESTS.get(name)


def by_prefix(prefix: str) -> Manifest:
    """The game whose OpenAPI components start with `prefix` ("Mahe" → Mahé)."""
    return next(m for m in MANIFESTS.values() if m.schema_prefix == prefix)
