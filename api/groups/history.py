"""A group's history, statistics and head-to-head, worked out from its tables' recorded logs.

The recount here is the oracle of the kept figures (api.groups.figures, which the HTTP reads serve):
tests/api/test_group_figures.py checks that both say the same after any sequence of changes.

Each finished table's facts come from replaying its export record (api.groups.facts), so a club can
re-derive every figure from the exports; abandoned and unfinished tables are listed but never
counted. Facts are kept per (table, version): a finished game's log only changes by an undo, which
moves the version on.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from api.groups.facts import GameFacts, facts_of, statistics_of
from api.groups.figures import facts_from
from api.groups.store import GroupRow, Membership, TableFacts, imported_table, utc
from api.rules.registry import GAMES
from api.tables.record import build_record
from api.tables.store import TableRow, TableStore

JSON = dict[str, Any]


@dataclass(frozen=True)
class Played:
    """One table of the group as history shows it; `facts` only for a finished, kept game."""

    membership: Membership
    table: TableRow | TableFacts
    last_entry_at: Any
    facts: GameFacts | None

    @property
    def status(self) -> str:
        if self.membership.abandoned:
            return "abandoned"
        return "finished" if self.table.finished else "playing"


class FactsCache:
    """Facts per (table id, version), the most recent 4,096 kept."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.known: OrderedDict[tuple[str, int], tuple[GameFacts, Any]] = OrderedDict()

    def played(self, tables: TableStore, membership: Membership) -> Played:
        if membership.imported:  # no log to replay: the file's scores and winners are its facts
            return kept(membership, imported_table(membership))
        table = tables.get(membership.table_id)
        key = (table.id, table.version)
        if table.finished and key in self.known:
            self.known.move_to_end(key)
            facts, last = self.known[key]
            return Played(membership, table, last, None if membership.abandoned else facts)
        table, entries = tables.log(table.id)
        last = utc(entries[-1]["at"]) if entries else table.created_at
        if not table.finished:
            return Played(membership, table, last, None)
        facts = facts_of(build_record(table, entries, tables.key))
        self.known[(table.id, table.version)] = (facts, last)
        while len(self.known) > self.size:
            self.known.popitem(last=False)
        return Played(membership, table, last, None if membership.abandoned else facts)


def kept(membership: Membership, table: TableFacts) -> Played:
    """A table as the group keeps it: no log read, no replay (its last entry is the row's
    `updated_at`; its facts those kept at its version, api.groups.store)."""
    current = table.finished and membership.facts is not None and membership.facts_version == table.version
    facts = facts_from(membership.facts) if current and not membership.abandoned else None  # type: ignore[arg-type]
    return Played(membership, table, table.updated_at, facts)


def _names(group: GroupRow) -> dict[str, str]:
    return {p["id"]: p["name"] for p in group.players}


def history_entry(group: GroupRow, played: Played) -> JSON:
    table, seats = played.table, played.membership.seats
    names = _names(group)
    facts = played.facts
    started = table.created_at
    ended = played.last_entry_at
    imported = played.membership.imported
    logged = table.finished and not imported
    return {
        "table_id": table.id,
        "game": table.game,
        "status": played.status,
        "started_at": started,
        "last_entry_at": ended,
        "duration_seconds": max(0, int((ended - started).total_seconds())),
        "players": [
            {
                "seat": seat,
                "player_id": player_id,
                "name": names.get(player_id, table.players[seat]["name"]),
                "score": facts.scores[seat] if facts else None,
                "winner": seat in facts.winners if facts else False,
            }
            for seat, player_id in enumerate(seats)
        ],
        "winners": [seats[seat] for seat in facts.winners] if facts else [],
        "record_path": f"/api/tables/{table.id}/export" if logged else None,
        "bgstats_path": f"/api/tables/{table.id}/export/bgstats" if logged else None,
        "table_path": None if imported else f"/#/t/{table.id}",
        "imported": imported,
    }


def history(group: GroupRow, played: Iterable[Played], game: str | None, player: str | None) -> list[JSON]:
    chosen = [
        p
        for p in played
        if (game is None or p.table.game == game) and (player is None or player in p.membership.seats)
    ]
    chosen.sort(key=lambda p: (p.last_entry_at, p.table.id), reverse=True)
    return [history_entry(group, p) for p in chosen]


def _rate(wins: int, games: int) -> float:
    return round(wins / games, 4) if games else 0.0


def _per_game(game: str, rows: Sequence[tuple[GameFacts, int]]) -> JSON:
    """One player's figures in one game; rows are (facts, the player's seat)."""
    scores = [facts.scores[seat] for facts, seat in rows]
    wins = sum(seat in facts.winners for facts, seat in rows)
    figures: JSON = {
        "games": len(rows),
        "wins": wins,
        "win_rate": _rate(wins, len(rows)),
        "average_score": round(sum(scores) / len(scores), 2) if scores else 0.0,
        "best_score": max(scores) if scores else None,
    }
    figures.update(statistics_of(game).recount_player([facts.extra[seat] for facts, seat in rows]))
    return figures


def statistics(group: GroupRow, played: Iterable[Played], game: str | None = None) -> JSON:
    """Per player (overall and per game) and per game, over finished tables that were not abandoned."""
    counted = [p for p in played if p.facts is not None and (game is None or p.table.game == game)]
    players = []
    for person in group.players:
        mine = [
            (p.facts, p.membership.seats.index(person["id"]))
            for p in counted
            if person["id"] in p.membership.seats
        ]
        by_game = {
            name: _per_game(name, [(f, s) for f, s in mine if f.game == name])
            for name in GAMES
            if any(f.game == name for f, _ in mine)
        }
        wins = sum(seat in facts.winners for facts, seat in mine)
        players.append(
            {
                "player_id": person["id"],
                "name": person["name"],
                "games": len(mine),
                "wins": wins,
                "win_rate": _rate(wins, len(mine)),
                "by_game": by_game,
            }
        )
    games = {}
    for name in GAMES:
        of_game = [p.facts for p in counted if p.facts.game == name]  # type: ignore[union-attr]
        if not of_game:
            continue
        summary: JSON = {"games": len(of_game)}
        summary.update(statistics_of(name).recount_summary(of_game))
        games[name] = summary
    return {"players": players, "games": games, "counted_tables": len(counted)}


def head_to_head(group: GroupRow, played: Iterable[Played], a: str, b: str) -> JSON:
    """Two players over the finished games they both played: wins, and who finished ahead."""
    together = [
        p for p in played if p.facts is not None and a in p.membership.seats and b in p.membership.seats
    ]
    out = {
        "a": a,
        "b": b,
        "games": len(together),
        "a_wins": 0,
        "b_wins": 0,
        "a_ahead": 0,
        "b_ahead": 0,
        "level": 0,
    }
    for p in together:
        facts = p.facts
        assert facts is not None
        sa, sb = p.membership.seats.index(a), p.membership.seats.index(b)
        out["a_wins"] += sa in facts.winners
        out["b_wins"] += sb in facts.winners
        if facts.scores[sa] > facts.scores[sb]:
            out["a_ahead"] += 1
        elif facts.scores[sb] > facts.scores[sa]:
            out["b_ahead"] += 1
        else:
            out["level"] += 1
    names = _names(group)
    return {**out, "a_name": names.get(a), "b_name": names.get(b)}


def progress(played: Played) -> JSON | None:
    """The score over the game, one line per seat (per move for Mahé, per round for Mhing)."""
    if played.facts is None or not played.facts.progress:
        return None
    lines = list(zip(*played.facts.progress, strict=True))
    return {"table_id": played.table.id, "game": played.table.game, "lines": [list(line) for line in lines]}
