"""A page per player of a group (issue 33, item 9): games and wins per game, win rate, best and average
score, last played, win streaks and records, each record with the table it happened at.

Worked out from the player's finished, kept tables in the order they joined the group (their place):
streaks need that order and a record can be taken back by an undo, so they are not kept as sums in
the group's figures. The tables come from one bounded walk of the group's own rows (the facts each
membership keeps, api.groups.store.walk: at most the group's cap of tables, no log read, no replay);
the per-game figures come from the kept figures when no date filter applies. The same function run
over tables replayed from their records (api.groups.history) is the oracle of
tests/api/test_group_figures.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from api.groups.facts import statistics_of
from api.groups.history import Played, _per_game, _rate
from api.groups.store import GroupRow
from api.rules.registry import GAMES

JSON = dict[str, Any]

def _record_value(played: Played, seat: int) -> int:
    """The value the seat sets the player's record at this game to (api.games.server.GameStatistics)."""
    facts = played.facts
    assert facts is not None
    return statistics_of(facts.game).record_value(facts, seat)


def player_page(
    group: GroupRow,
    played: Sequence[Played],
    player_id: str,
    by_game: Mapping[str, JSON] | None = None,
) -> JSON:
    """The player's page from the group's tables in place order (oldest first); `by_game` when the
    kept figures already hold it (the same as the recount of these tables, by the property)."""
    person = next(p for p in group.players if p["id"] == player_id)
    mine = [
        (p, p.membership.seats.index(player_id))
        for p in sorted(played, key=lambda p: p.membership.position)
        if p.facts is not None and player_id in p.membership.seats
    ]
    if by_game is None:
        by_game = {
            name: _per_game(name, [(p.facts, seat) for p, seat in mine if p.facts and p.facts.game == name])
            for name in GAMES
            if any(p.facts and p.facts.game == name for p, _ in mine)
        }
    last: dict[str, datetime] = {}
    records: dict[str, JSON] = {}
    run = longest = 0
    for p, seat in mine:
        facts = p.facts
        assert facts is not None
        game = facts.game
        at = p.last_entry_at
        if game not in last or at > last[game]:
            last[game] = at
        won = seat in facts.winners
        run = run + 1 if won else 0
        longest = max(longest, run)
        value = _record_value(p, seat)
        held = records.get(game)
        if value > 0 and (held is None or value > held["value"]):  # a tie keeps the first time
            records[game] = {
                "game": game,
                "kind": statistics_of(game).record,
                "value": value,
                "table_id": p.table.id,
                "at": at,
            }
    games = sum(int(f["games"]) for f in by_game.values())
    wins = sum(int(f["wins"]) for f in by_game.values())
    return {
        "player_id": person["id"],
        "name": person["name"],
        "colour": person.get("colour"),
        "emoji": person.get("emoji"),
        "games": games,
        "wins": wins,
        "win_rate": _rate(wins, games),
        "last_played_at": max(last.values()) if last else None,
        "by_game": dict(by_game),
        "last_played": [{"game": g, "at": last[g]} for g in GAMES if g in last],
        "streaks": {"current": run, "longest": longest},
        "records": [records[g] for g in GAMES if g in records],
    }
