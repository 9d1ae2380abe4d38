"""Mhing as the platform knows it (api.rules.manifest)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.manifest import Manifest
from api.rules.mhing.claims import resolve_json
from api.rules.mhing.events import EVENT_FIELDS
from api.rules.mhing.hand import parse_hand
from api.rules.mhing.scoring import score_hand, score_json
from api.rules.mhing.setup import MAX_PLAYERS, MIN_PLAYERS
from api.rules.mhing.waits import waits_json

JSON = dict[str, Any]


def _hand(body: Mapping[str, Any], discard: bool = False) -> Any:
    return parse_hand(body.get("groups"), body["hidden"], body.get("flowers"), discard)


MANIFEST = Manifest(
    id="mhing",
    title="Mhing",
    schema_prefix="Mhing",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules="MH",
    events=EVENT_FIELDS,
    helpers={
        "score": lambda r: score_json(score_hand(_hand(r["body"], r["body"]["discard"]))),
        "waits": lambda r: waits_json(_hand(r["body"], r["body"].get("discard", False))),
        "claims": lambda r: resolve_json(**r["body"]),
    },
)
