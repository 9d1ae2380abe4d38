"""Plays of a BG Stats export (`BGStatsExport.json`) as results a group can count (issue 33, item 9).

A play of Mahé, Magellan or Mhing (its game matched by name, ignoring case and accents) becomes an
imported result: the day, who sat (by the names in the file), each score and who won. There is no
event log behind it, so only scores and winners count: the figures only a log gives (Mahé busts,
Magellan points by source, Mhing hands and premiums) stay those of the recorded games. Plays of
other games and plays the file marks `ignored` are left out; a play of ours that cannot be counted
(no whole-number score, a seat count the game does not allow, a player twice) refuses the whole file
(422): an import is all or nothing. Each play is keyed by its own id in the file (its `uuid`, else
its content), so the same file imported twice adds nothing.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from api.errors import ApiProblem
from api.groups.facts import GameFacts, statistics_of
from api.rules.registry import GAMES, get_game

MAX_PLAYS = 5000  # a group's cap of tables (api.groups.store.MAX_TABLES)


def folded(name: str) -> str:
    """A name compared without case, accents or spacing: "Mahé", "MAHE" and " mahe " are one."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def game_names() -> dict[str, str]:
    """Folded title → our game, from the games' own titles (what the boxes print)."""
    names: dict[str, str] = {}
    for name in GAMES:
        game = get_game(name)
        assert game is not None
        names[folded(game.title)] = name
        names[folded(name)] = name
    return names


@dataclass(frozen=True)
class ImportedPlay:
    key: str
    game: str
    played_at: datetime
    duration_seconds: int
    names: tuple[str, ...]
    facts: GameFacts
    source_id: str | None  # a play Kibitz itself sent to BG Stats names its table here


def _extra(game: str, score: int) -> dict[str, Any]:
    """What a log would add, as far as a score alone says it (the game's own reading; the rest is
    unknown and counts as nothing)."""
    return statistics_of(game).imported_extra(score)


def _score(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str):
        text = raw.strip()
        if text.lstrip("-").isdigit() and len(text) <= 9:
            return int(text)
    return None


def _played_at(raw: str) -> datetime:
    """BG Stats writes the day as "2024-01-05 20:15:00" (the phone's time, no zone): kept as written,
    read as UTC."""
    return datetime.strptime(raw[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


def _key(play: Mapping[str, Any], game: str) -> str:
    uuid = play.get("uuid")
    basis: Any = ["uuid", uuid] if uuid else ["play", game, play["playDate"], play["playerScores"]]
    canonical = json.dumps(basis, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def plays_of(export: Mapping[str, Any]) -> list[ImportedPlay]:
    """The export's plays of our games, oldest first (the export as its schema loaded it).
    422 `bad-bgstats-play` for a play of ours that cannot be counted."""
    ours = game_names()
    games = {int(g["id"]): ours.get(folded(g["name"])) for g in export["games"]}
    people = {int(p["id"]): str(p["name"]) for p in export["players"]}
    found: dict[str, ImportedPlay] = {}
    for play in export["plays"]:
        game = games.get(int(play["gameRefId"]))
        if game is None or play.get("ignored"):
            continue
        rules = get_game(game)
        assert rules is not None
        seats = play["playerScores"]
        when = play["playDate"]
        try:
            played_at = _played_at(when)
        except ValueError:
            raise ApiProblem(
                422,
                "bad-bgstats-play",
                "A play in the file has a day or time that does not exist.",
                play_date=when,
            ) from None
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise ApiProblem(
                422,
                "bad-bgstats-play",
                "A play in the file has a number of players its game does not allow.",
                play_date=when,
            )
        names, scores, winners = [], [], []
        for seat, entry in enumerate(seats):
            name = people.get(int(entry["playerRefId"]))
            if name is None:
                raise ApiProblem(
                    422,
                    "bad-bgstats-play",
                    "A play in the file names a player the file does not list.",
                    play_date=when,
                )
            score = _score(entry.get("score"))
            if score is None:
                raise ApiProblem(
                    422,
                    "bad-bgstats-play",
                    "A play in the file has a player without a whole-number score.",
                    play_date=when,
                )
            names.append(name)
            scores.append(score)
            if entry.get("winner"):
                winners.append(seat)
        if len({folded(n) for n in names}) != len(names):
            raise ApiProblem(
                422, "bad-bgstats-play", "A play in the file names one player twice.", play_date=when
            )
        facts = GameFacts(
            game, tuple(scores), tuple(winners), tuple(_extra(game, s) for s in scores), progress=()
        )
        key = _key(play, game)
        minutes = play.get("durationMin") or 0
        found[key] = ImportedPlay(
            key,
            game,
            played_at,
            max(0, min(int(minutes), 7 * 24 * 60)) * 60,
            tuple(names),
            facts,
            str(play["sourcePlayId"]) if play.get("sourcePlayId") else None,
        )
    if len(found) > MAX_PLAYS:
        raise ApiProblem(
            422, "group-full", "The file has more plays of these games than a group holds (5,000)."
        )
    return sorted(found.values(), key=lambda p: (p.played_at, p.key))


def ended(play: ImportedPlay) -> datetime:
    return play.played_at + timedelta(seconds=play.duration_seconds)


def seat_players(
    plays: Sequence[ImportedPlay], group_players: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, str], list[str]]:
    """Folded name → group player id for the names the group knows, and the names it does not
    (in first-seen order): those join the group with the import."""
    known = {folded(str(p["name"])): str(p["id"]) for p in group_players}
    new: list[str] = []
    seen = set(known)
    for play in plays:
        for name in play.names:
            if folded(name) not in seen:
                seen.add(folded(name))
                new.append(name.strip())
    return known, new
