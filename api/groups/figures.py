"""A group's figures kept as its tables change (issue 31), instead of recounted on every read.

Each finished, kept table adds its facts (api.groups.facts) to the group's figures; an undo that
reopens it, an abandonment, or a newer version of its facts takes them out again. So the figures are
sums and counters only — a best score is the highest score whose counter is above zero, never a bare
maximum that could not be taken back — and the same table added then taken out leaves them exactly
as they were. Statistics and head-to-head are then rendered from the figures in O(players), and equal
the recount of api.groups.history (the oracle of tests/api/test_group_figures.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.groups.facts import GameFacts, statistics_of
from api.rules.registry import GAMES

JSON = dict[str, Any]
PAIR = "\x1f"  # between the two player ids of a pair (player ids are URL-safe base64)


def facts_json(facts: GameFacts) -> JSON:
    return {
        "game": facts.game,
        "scores": list(facts.scores),
        "winners": list(facts.winners),
        "extra": list(facts.extra),
        "progress": [list(step) for step in facts.progress],
    }


def facts_from(stored: Mapping[str, Any]) -> GameFacts:
    return GameFacts(
        str(stored["game"]),
        tuple(int(s) for s in stored["scores"]),
        tuple(int(s) for s in stored["winners"]),
        tuple(dict(e) for e in stored["extra"]),
        tuple(tuple(int(v) for v in step) for step in stored.get("progress") or ()),
    )


def empty() -> JSON:
    return {"players": {}, "games": {}, "pairs": {}}


def add_count(counter: dict[str, int], key: str, amount: int) -> None:
    """Add to a counter, dropping keys that come back to zero (so `max` of its keys is exact)."""
    value = counter.get(key, 0) + amount
    if value:
        counter[key] = value
    else:
        counter.pop(key, None)


def add_counts(target: dict[str, Any], values: Mapping[str, int], sign: int) -> None:
    for key, value in values.items():
        add_count(target, key, sign * int(value))


def apply(figures: JSON, facts: GameFacts, seats: Sequence[str], sign: int) -> None:
    """Add (sign 1) or take out (sign -1) one finished table: O(seats²)."""
    game = facts.game
    summary = figures["games"].setdefault(game, {})
    add_count(summary, "games", sign)
    counts = statistics_of(game)
    counts.add_summary(summary, facts, sign)
    for seat, player in enumerate(seats):
        mine = figures["players"].setdefault(player, {}).setdefault(game, {})
        extra = facts.extra[seat]
        score = facts.scores[seat]
        add_count(mine, "games", sign)
        add_count(mine, "wins", sign * int(seat in facts.winners))
        add_count(mine, "score_sum", sign * score)
        add_count(mine.setdefault("scores", {}), str(score), sign)
        counts.add_player(mine, extra, sign)
    for i, a in enumerate(seats):
        for j, b in enumerate(seats):
            if a < b:
                pair = figures["pairs"].setdefault(f"{a}{PAIR}{b}", {})
                sa, sb = facts.scores[i], facts.scores[j]
                add_counts(
                    pair,
                    {
                        "games": 1,
                        "a_wins": int(i in facts.winners),
                        "b_wins": int(j in facts.winners),
                        "a_ahead": int(sa > sb),
                        "b_ahead": int(sb > sa),
                        "level": int(sa == sb),
                    },
                    sign,
                )


def _rate(wins: int, games: int) -> float:
    return round(wins / games, 4) if games else 0.0


def top(counter: Mapping[str, int]) -> int | None:
    return max((int(k) for k, n in counter.items() if n > 0), default=None)


def premium_list(premiums: Mapping[str, int]) -> list[JSON]:
    """Most frequent first; a tie in code order (so two counts of the same premiums read alike)."""
    return [{"code": c, "count": n} for c, n in sorted(premiums.items(), key=lambda kv: (-kv[1], kv[0])) if n]


def _per_game(game: str, mine: Mapping[str, Any]) -> JSON:
    games = int(mine.get("games", 0))
    wins = int(mine.get("wins", 0))
    out: JSON = {
        "games": games,
        "wins": wins,
        "win_rate": _rate(wins, games),
        "average_score": round(mine.get("score_sum", 0) / games, 2) if games else 0.0,
        "best_score": top(mine.get("scores", {})),
    }
    out.update(statistics_of(game).player_figures(mine, games))
    return out


def statistics(players: Sequence[Mapping[str, Any]], figures: Mapping[str, Any], game: str | None) -> JSON:
    """The statistics as api.groups.history.statistics words them, from the kept figures."""
    chosen = [name for name in GAMES if game is None or name == game]
    rows = []
    for person in players:
        mine = figures["players"].get(person["id"], {})
        by_game = {name: _per_game(name, mine[name]) for name in chosen if mine.get(name, {}).get("games")}
        games = sum(f["games"] for f in by_game.values())
        wins = sum(f["wins"] for f in by_game.values())
        rows.append(
            {
                "player_id": person["id"],
                "name": person["name"],
                "games": games,
                "wins": wins,
                "win_rate": _rate(wins, games),
                "by_game": by_game,
            }
        )
    summaries: JSON = {}
    for name in chosen:
        kept = figures["games"].get(name, {})
        if not kept.get("games"):
            continue
        summary: JSON = {"games": int(kept["games"])}
        summary.update(statistics_of(name).summary_figures(kept))
        summaries[name] = summary
    return {
        "players": rows,
        "games": summaries,
        "counted_tables": sum(s["games"] for s in summaries.values()),
    }


def head_to_head(names: Mapping[str, str], figures: Mapping[str, Any], a: str, b: str) -> JSON:
    low, high = sorted((a, b))
    pair = figures["pairs"].get(f"{low}{PAIR}{high}", {})
    got = {k: int(pair.get(k, 0)) for k in ("games", "a_wins", "b_wins", "a_ahead", "b_ahead", "level")}
    if low != a:  # stored in id order: turn it round
        got = {
            "games": got["games"],
            "a_wins": got["b_wins"],
            "b_wins": got["a_wins"],
            "a_ahead": got["b_ahead"],
            "b_ahead": got["a_ahead"],
            "level": got["level"],
        }
    return {"a": a, "b": b, **got, "a_name": names.get(a), "b_name": names.get(b)}
