"""Mahé as the platform knows it (api.rules.manifest)."""

from __future__ import annotations

from api.rules.mahe.constants import MAX_PLAYERS, MIN_PLAYERS
from api.rules.mahe.events import EVENT_FIELDS
from api.rules.manifest import Manifest

MANIFEST = Manifest(
    id="mahe",
    title="Mahé",
    schema_prefix="Mahe",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules="MA",
    events=EVENT_FIELDS,
)
