"""Groups built through the stores, not HTTP: short Mhing games (MH-8 `round_points` rounds, then
MH-9 `end_game`), so tests and benchmarks can file hundreds of finished tables in seconds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.groups.store import GroupStore
from api.tables.store import TableStore


def mhing_table(
    tables: TableStore, rounds: Sequence[tuple[int, int]], seats: int = 2
) -> tuple[str, str, int]:
    """A Mhing table with these (winner seat, points) rounds, not yet ended: (id, token, version)."""
    players = [{"name": f"P{i}"} for i in range(seats)]
    table, token, _ = tables.create("mhing", players, {"settlement": 1})
    version = table.version
    for winner, points in rounds:
        event = {"type": "round_points", "winner": winner % seats, "points": points}
        version = tables.append(table.id, token, version, event).seq
    return table.id, token, version


def end(tables: TableStore, table_id: str, token: str, version: int) -> int:
    """MH-9: the game ends (the table is finished)."""
    return tables.append(table_id, token, version, {"type": "end_game"}).seq


def undo(tables: TableStore, table_id: str, token: str, version: int) -> int:
    return tables.append(table_id, token, version, {"type": "undo"}).seq


def new_group(groups: GroupStore, players: int) -> tuple[str, str, list[str]]:
    group, token = groups.create("Club", [{"name": f"Friend {i}"} for i in range(players)])
    return group.id, token, [p["id"] for p in group.players]


def file_finished(
    groups: GroupStore,
    group_id: str,
    group_token: str,
    seats: Sequence[str],
    rounds: Sequence[tuple[int, int]],
) -> str:
    """A finished Mhing table filed in the group."""
    tables = groups.tables
    table_id, token, version = mhing_table(tables, rounds, len(seats))
    end(tables, table_id, token, version)
    groups.add_table(group_id, group_token, table_id, token, list(seats))
    return table_id


def stores(app: Any) -> tuple[TableStore, GroupStore]:
    from api.http.context import STORE_KEY
    from api.http.groups import GROUPS_KEY

    return app.extensions[STORE_KEY], app.extensions[GROUPS_KEY]
