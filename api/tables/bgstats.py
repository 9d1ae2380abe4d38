"""A BG Stats import link (`bgstats://…/createPlay.html?data=…`) for a finished game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from api.tables.store import TableRow, require_game

BGSTATS_BASE = "bgstats://app.bgstatsapp.com/createPlay.html?data="


def bgstats_play(table: TableRow, result: Mapping[str, Any]) -> dict[str, Any]:
    game = require_game(table.game)
    winners = set(result["winners"])
    first_seat = table.options.get("first_seat", 0)
    players = [
        {
            "name": entry["name"],
            "sourcePlayerId": f"{table.id}-{entry['seat']}",
            "score": entry.get("score", entry.get("eggs")),
            "winner": entry["seat"] in winners,
            "rank": entry["place"],
            "seatOrder": entry["seat"] + 1,
            "startPlayer": entry["seat"] == first_seat,
        }
        for entry in result["ranking"]
    ]
    return {
        "sourceName": "Kibitz",
        "sourcePlayId": table.id,
        "playDate": table.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, round((table.updated_at - table.created_at).total_seconds() / 60)),
        "game": {"name": game.title, "sourceGameId": game.name, "highestWins": True},
        "players": players,
    }


def bgstats_url(play: Mapping[str, Any]) -> str:
    return BGSTATS_BASE + quote(json.dumps(play, separators=(",", ":"), ensure_ascii=False), safe="")
