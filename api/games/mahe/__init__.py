"""Mahé on the server: its endpoints without a table, its view schemas, what a group counts of it."""

from __future__ import annotations

from api.games.mahe import statistics
from api.games.mahe import view_schemas as views
from api.games.server import GameDocs, GameServer
from api.rules.mahe.manifest import MANIFEST

SERVER = GameServer(
    manifest=MANIFEST,
    docs=GameDocs(
        view=views.MaheView,
        legal=views.MaheLegalActions,
        options=views.MaheOptions,
        options_request=views.MaheOptionsRequest,
        result=views.MaheResult,
        actions=views.MAHE_ACTIONS,
        private=views.MahePrivateView,
        also=[views.MaheOptionsRequest, views.TurtleOwners],
        players=views.creation_players,
    ),
    operation_ids={("/api/mahe/move", "post"): "resolveMaheMove"},
    statistics=statistics.STATISTICS,
)
