"""Magellan on the server: its endpoints without a table (scoring, Pizarro odds, sheet check), its
view schemas and board sheet, what a group counts of it."""

from __future__ import annotations

from api.games.magellan import sheets, statistics
from api.games.magellan import view_schemas as views
from api.games.server import EventKind, GameDocs, GameServer
from api.rules.magellan.game import SECRET_EVENT_FIELDS
from api.rules.magellan.manifest import MANIFEST

SERVER = GameServer(
    manifest=MANIFEST,
    docs=GameDocs(
        view=views.MagellanView,
        legal=views.MagellanLegalActions,
        options=views.MagellanOptions,
        options_request=views.MagellanOptionsRequest,
        result=views.MagellanResult,
        actions=views.MAGELLAN_ACTIONS,
        private=views.MagellanPrivateView,
        also=[
            views.SheetEntry,
            views.SheetParts,
            views.NextCard,
            views.RuleFixed,
            views.MagellanOptionsRequest,
            views.MoneyStack,
            views.MagellanSides,
        ],
        event_kinds={
            "object": EventKind(views.sheet_field, lambda low: {"explorers": {}}),
            "seat_cards": EventKind(views.seat_cards_field, lambda low: {"0": [low]}),
            "steps": EventKind(
                views.steps_field,
                lambda low: [{"type": "pass", "seat": 0}, {"type": "bid", "seat": 1, "amount": 3}],
            ),
        },
        # What the open log masks while the game runs (api.rules.magellan.game.public_event).
        masked={kind: fields[0] for kind, fields in SECRET_EVENT_FIELDS.items()},
    ),
    operation_ids={
        ("/api/magellan/score", "post"): "scoreMagellanPosition",
        ("/api/magellan/pizarro/odds", "post"): "pizarroOdds",
        ("/api/magellan/board-sheet/check", "post"): "checkBoardSheet",
    },
    problem_texts={
        ("/api/magellan/score", "post", 422): "An impossible position, `board-sheet-incomplete` (MG-2) or "
        "`invalid-request`",
    },
    passed_on=frozenset(
        {
            ("api/games/magellan/endpoints.py", "error.code"),
            ("api/rules/magellan/engine.py", "error.code"),
            ("api/rules/magellan/stateless.py", "error.code"),
        }
    ),
    statistics=statistics.STATISTICS,
    sheet_kind=sheets.SHEET_KIND,
)
