"""Mhing on the server: its endpoints without a table (hand score, waits, points, claims), its view
schemas, what a group counts of it."""

from __future__ import annotations

from api.games.mhing import statistics
from api.games.mhing import view_schemas as views
from api.games.server import EventKind, GameDocs, GameServer
from api.rules.mhing.manifest import MANIFEST

SERVER = GameServer(
    manifest=MANIFEST,
    docs=GameDocs(
        view=views.MhingView,
        legal=views.MhingLegalActions,
        options=views.MhingOptions,
        options_request=views.MhingOptionsRequest,
        result=views.MhingResult,
        actions=views.MHING_ACTIONS,
        also=[views.MhingOptionsRequest],
        event_kinds={
            "hand": EventKind(
                views.hand_field, lambda low: {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"}
            )
        },
    ),
    operation_ids={
        ("/api/mhing/score", "post"): "scoreMhingHand",
        ("/api/mhing/waits", "post"): "listMhingWaits",
        ("/api/mhing/points", "get"): "getMhingPoints",
        ("/api/mhing/points", "post"): "postMhingPoints",
        ("/api/mhing/claims", "post"): "resolveMhingClaims",
    },
    problem_texts={
        ("/api/mhing/score", "post", 422): "An unknown card, an impossible count (MH-1), a bad group, or "
        "`invalid-request`",
    },
    statistics=statistics.STATISTICS,
)
