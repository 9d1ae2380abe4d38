"""Magellan as the platform knows it (api.rules.manifest)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.magellan.constants import MAX_PLAYERS, MIN_PLAYERS
from api.rules.magellan.events import EVENT_FIELDS
from api.rules.magellan.scoring import odds
from api.rules.magellan.stateless import score_position, stack_counts
from api.rules.manifest import Manifest

JSON = dict[str, Any]


def _pizarro_odds(request: Mapping[str, Any]) -> JSON:
    """As POST /api/magellan/pizarro/odds answers (MG-11)."""
    body = request["body"]
    drawn = list(body["drawn"])
    stack = stack_counts(body.get("stack"), [*body.get("known_cards", []), *drawn])
    return odds(stack, body.get("total", sum(drawn)), body.get("target"))


MANIFEST = Manifest(
    id="magellan",
    title="Magellan",
    schema_prefix="Magellan",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules="MG",
    events=EVENT_FIELDS,
    helpers={"score": lambda r: score_position(r["body"]), "odds": _pizarro_odds},
)
