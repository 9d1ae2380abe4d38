"""The self-contained record of a finished game, and its verification by replay."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from api.errors import ApiProblem
from api.rules.errors import RuleError
from api.rules.replay import replay
from api.tables.store import TableRow, require_game

RECORD_FORMAT = "kibitz-record/1"


def require_finished(table: TableRow) -> None:
    if not table.finished:
        raise ApiProblem(
            409,
            "game-not-finished",
            "Only a finished game can be exported; the log so far is at /events.",
        )


def build_record(table: TableRow, entries: list[dict[str, Any]]) -> dict[str, Any]:
    game = require_game(table.game)
    result = game.result(game.load(table.state))
    return {
        "format": RECORD_FORMAT,
        "game": table.game,
        "table_id": table.id,
        "players": table.players,
        "options": table.options,
        "seed": table.seed,
        "events": [{"seq": e["seq"], "event": e["event"]} for e in entries],
        "result": result,
        "created_at": table.created_at.isoformat(),
        "finished_at": table.updated_at.isoformat(),
    }


def record_csv(record: Mapping[str, Any]) -> str:
    """Standings, one player a row, with the game's own score columns."""
    ranking = (record.get("result") or {}).get("ranking", [])
    winners = set((record.get("result") or {}).get("winners", []))
    score_keys = [k for k in (ranking[0] if ranking else {}) if k not in {"seat", "name", "place"}]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "seat", "name", *score_keys, "winner"])
    for entry in ranking:
        writer.writerow(
            [
                entry["place"],
                entry["seat"],
                spreadsheet_safe(entry["name"]),
                *(entry.get(k) for k in score_keys),
                entry["seat"] in winners,
            ]
        )
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs: a leading ' defuses =HYPERLINK(…) and friends
    (OWASP's advice on CSV injection)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def verify_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay the record's log from its seed and compare the outcome with the one it claims."""
    game = require_game(str(record["game"]))
    events = [entry["event"] for entry in record["events"]]
    try:
        options = game.normalize_options(record.get("options") or {})
        state = replay(game, record["players"], options, int(record["seed"]), events)
    except RuleError as error:
        return {
            "valid": False,
            "finished": False,
            "result": None,
            "claimed_result_matches": False,
            "problem": {"code": error.code, "detail": error.detail, "rule": error.rule},
        }
    result = game.result(state)
    claimed = record.get("result")
    matches = claimed is None or claimed == result
    return {
        "valid": result is not None and matches,
        "finished": result is not None,
        "result": result,
        "claimed_result_matches": matches,
        "problem": None
        if result is not None and matches
        else {
            "code": "result-mismatch" if result is not None else "game-not-finished",
            "detail": "The recorded result differs from the replayed one."
            if result is not None
            else "The log does not reach the end of the game.",
            "rule": None,
        },
    }
