"""What everything outside a game's folders knows about the game: its manifest (issue 34, item 1).

Each game declares one `MANIFEST` in `api/rules/<game>/manifest.py`; the registry
(api.rules.registry) finds it from the game's folder name, and the server's game package
(api/games/<game>/) and the phone's (pwa/js/games/<game>/) add what needs Flask or a browser. Code
outside those folders reads a game through these fields and never by its name. Pure standard library:
the phone's referee reads it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from api.rules.common.events import Fields

JSON = dict[str, Any]
Helper = Callable[[JSON], JSON]


@dataclass(frozen=True)
class Manifest:
    """One game's facts as data."""

    id: str  # the API name: `game` in tables, records, groups; the folder under api/rules and pwa/js/games
    title: str  # as players write it
    schema_prefix: str  # the prefix of its OpenAPI component names ("Mahe" → MaheView, MaheEvent)
    min_players: int
    max_players: int
    rules: str  # the rule-number prefix in REFEREE.md ("MA" → MA-1 … MA-12)
    events: Mapping[str, Fields]  # every event type and its fields: what the referee checks
    # The stateless requests the phone's referee answers for the game's screens (op → handler;
    # api.rules.referee registers each as "<id>.<op>").
    helpers: Mapping[str, Helper] = field(default_factory=dict)
