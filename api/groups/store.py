"""Groups: created like a table (an id to read, an edit token to change), holding players and the
tables they played. Which group player sat in which seat is recorded when a table joins the group,
so history and statistics follow a person across games, whatever name was typed at the table."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives import serialization
from sqlalchemy import Connection, Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from api.db.engine import read_connection, write_transaction
from api.db.schema import game_tables, group_tables, player_groups
from api.errors import ApiProblem
from api.tables.changes import CHANNEL
from api.tables.store import TableStore
from api.tables.tokens import hash_token, is_our_id, new_table_id, new_write_token, token_matches

MAX_PLAYERS = 60


def group_key(group_id: str) -> str:
    """The change feed's key for a group's own changes (a table added or abandoned); table ids
    never hold a colon."""
    return f"group:{group_id}"


@dataclass(frozen=True)
class GroupRow:
    id: str
    name: str
    players: list[dict[str, Any]]
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Membership:
    """One table of the group: the group player in each seat, and whether it was given up."""

    table_id: str
    seats: list[str]
    abandoned: bool
    added_at: datetime


def utc(moment: datetime) -> datetime:
    """SQLite hands timestamps back without their zone; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _row(mapping: Mapping[str, Any]) -> GroupRow:
    return GroupRow(
        id=mapping["id"],
        name=mapping["name"],
        players=list(mapping["players"]),
        version=mapping["version"],
        created_at=utc(mapping["created_at"]),
        updated_at=utc(mapping["updated_at"]),
    )


def group_not_found(group_id: str) -> ApiProblem:
    return ApiProblem(404, "group-not-found", f"There is no group with the id {group_id!r}.")


def new_player_id() -> str:
    return secrets.token_urlsafe(6)


def player_entries(
    raw: Sequence[Mapping[str, Any]], known: Sequence[Mapping[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The players as stored: an `id` kept where it is one of ours, a new one otherwise."""
    ids = {p["id"] for p in known}
    players: list[dict[str, Any]] = []
    for entry in raw:
        given = entry.get("id")
        if given is not None and given not in ids:
            raise ApiProblem(422, "unknown-player", f"The group has no player with the id {given!r}.")
        players.append(
            {
                "id": given or new_player_id(),
                "name": entry["name"],
                "colour": entry.get("colour"),
                "emoji": entry.get("emoji"),
            }
        )
    seen = [p["id"] for p in players]
    if len(set(seen)) != len(seen):
        raise ApiProblem(422, "duplicate-player", "A player is listed twice.")
    names = [p["name"].casefold() for p in players]
    if len(set(names)) != len(names):
        raise ApiProblem(422, "duplicate-player-name", "Two players of the group have the same name.")
    if len(players) > MAX_PLAYERS:
        raise ApiProblem(422, "too-many-players", f"A group holds at most {MAX_PLAYERS} players.")
    return players


def creation_digest(name: str, players: Sequence[Mapping[str, Any]]) -> str:
    """The canonical creation body of a group (its name and each player's name, colour and emoji,
    in order), hashed: what a creation key's edit token is bound to."""
    body = {
        "name": name,
        "players": [{"name": p["name"], "colour": p.get("colour"), "emoji": p.get("emoji")} for p in players],
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class GroupStore:
    def __init__(self, engine: Engine, tables: TableStore) -> None:
        self.engine = engine
        self.tables = tables
        # Called after a committed change of a group's tables (added, abandoned) with the group's
        # feed key and a stamp: the live streams of this process listen to it (api.tables.changes).
        self.on_commit: Callable[[str, int], object] = lambda _key, _stamp: None

    def _announce(self, conn: Connection, group_id: str) -> tuple[str, int]:
        """Tell the group's streams on every server: on PostgreSQL a notice on the tables' channel,
        sent when this transaction commits (api.tables.changes listens to it)."""
        key, stamp = group_key(group_id), time.time_ns() // 1000
        if self.engine.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(CHANNEL, f"{key}:{stamp}")))
        return key, stamp

    def create(self, name: str, players: Sequence[Mapping[str, Any]]) -> tuple[GroupRow, str]:
        group, token, _replayed = self.create_once(name, players)
        return group, token

    def create_once(
        self, name: str, players: Sequence[Mapping[str, Any]], idempotency_key: str | None = None
    ) -> tuple[GroupRow, str, bool]:
        """A new group and its edit token. With an `Idempotency-Key` (a phone that started the group
        offline sends it when it is back) the id is derived from the key, and the edit token from
        the key *and* the creation's body, both with the server's secret: a retry whose answer was
        lost finds the group it made and answers it again (`replayed`), and the same key with
        another body finds the group but cannot make its token (422), whatever became of the group
        since — with no column of its own: nothing to migrate."""
        now = datetime.now(UTC)
        if idempotency_key:
            group_id, token = self._derived(idempotency_key, creation_digest(name, players))
            prior = self._created(group_id, idempotency_key, token, name, players)
            if prior is not None:
                return prior[0], prior[1], True
        else:
            group_id, token = new_table_id(), new_write_token()
        values = {
            "id": group_id,
            "name": name,
            "players": player_entries(players),
            "version": 1,
            "created_at": now,
            "updated_at": now,
        }
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(insert(player_groups).values(**values, edit_token_hash=hash_token(token)))
        except IntegrityError:  # the same key at the same moment (a retry racing the first try)
            prior = None
            if idempotency_key:
                prior = self._created(group_id, idempotency_key, token, name, players)
            if prior is None:
                raise
            return prior[0], prior[1], True
        return _row(values), token, False

    def _derived(self, key: str, digest: str | None) -> tuple[str, str]:
        """The group id (from the key alone) and the edit token (from the key and the body's digest;
        None: from the key alone, as groups made before issue 31 got it) a creation with this key
        gets: keyed by a secret every server of this installation shares (the records' signing key,
        api.tables.chain)."""
        private = self.tables.key.private.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )
        secret = hashlib.sha256(b"kibitz-group-creation:" + private).digest()

        def derive(purpose: str, size: int) -> str:
            digest = hmac.new(secret, f"{purpose}:{key}".encode(), hashlib.sha256).digest()
            return base64.urlsafe_b64encode(digest[:size]).decode("ascii")

        token_purpose = "edit-token" if digest is None else f"edit-token:{digest}"
        return derive("id", 12), derive(token_purpose, 24)

    def _created(
        self, group_id: str, key: str, token: str, name: str, players: Sequence[Mapping[str, Any]]
    ) -> tuple[GroupRow, str] | None:
        """The group an earlier creation with this key made, with its edit token, for the very body
        that made it; None when there is none. The token is recomputed from this request's body and
        handed out only when it *is* the group's (its stored hash matches): another body never gets
        it, however the group changed since (422)."""
        if not is_our_id(group_id):
            return None
        with read_connection(self.engine) as conn:
            row = conn.execute(select(player_groups).where(player_groups.c.id == group_id)).mappings().first()
        if row is None:
            return None
        if token_matches(token, row["edit_token_hash"]):
            return _row(row), token
        # A group made before the token was bound to the body (from the key alone): answered only
        # while it is still as it was made (version 1) and to the body that made it.
        _, legacy = self._derived(key, None)
        if token_matches(legacy, row["edit_token_hash"]) and row["version"] == 1:
            asked = [(p["name"], p.get("colour"), p.get("emoji")) for p in players]
            made = [(p["name"], p.get("colour"), p.get("emoji")) for p in row["players"]]
            if (row["name"], made) == (name, asked):
                return _row(row), legacy
        raise ApiProblem(
            422,
            "idempotency-key-reused",
            "This Idempotency-Key was already used for a different request; use a new key.",
        )

    def get(self, group_id: str) -> GroupRow:
        if not is_our_id(group_id):
            raise group_not_found(group_id)
        with read_connection(self.engine) as conn:
            row = conn.execute(select(player_groups).where(player_groups.c.id == group_id)).mappings().first()
        if row is None:
            raise group_not_found(group_id)
        return _row(row)

    def check_token(self, group_id: str, token: str | None) -> GroupRow:
        if not is_our_id(group_id):
            raise group_not_found(group_id)
        with read_connection(self.engine) as conn:
            row = conn.execute(select(player_groups).where(player_groups.c.id == group_id)).mappings().first()
        if row is None:
            raise group_not_found(group_id)
        _verify(row, token)
        return _row(row)

    def update(
        self, group_id: str, token: str | None, name: str, players: Sequence[Mapping[str, Any]], expected: int
    ) -> GroupRow:
        with write_transaction(self.engine) as conn:
            row = conn.execute(select(player_groups).where(player_groups.c.id == group_id)).mappings().first()
            if row is None or not is_our_id(group_id):
                raise group_not_found(group_id)
            _verify(row, token)
            if row["version"] != expected:
                raise _stale(row["version"], expected)
            new_players = player_entries(players, row["players"])
            kept = {p["id"] for p in new_players}
            seated = {
                seat
                for (seats,) in conn.execute(
                    select(group_tables.c.seats).where(group_tables.c.group_id == group_id)
                )
                for seat in seats
            }
            if seated - kept:
                raise ApiProblem(
                    422,
                    "player-has-games",
                    "A player who has played tables of the group cannot be removed (rename them instead).",
                )
            written = {
                "name": name,
                "players": new_players,
                "version": expected + 1,
                "updated_at": datetime.now(UTC),
            }
            changed = conn.execute(
                update(player_groups)
                .where(and_(player_groups.c.id == group_id, player_groups.c.version == expected))
                .values(**written)
            ).rowcount
            if changed != 1:
                raise _stale(expected + 1, expected)
        return _row({**row, **written})

    def add_table(
        self, group_id: str, token: str | None, table_id: str, table_token: str | None, seats: Sequence[str]
    ) -> Membership:
        """Join a table to the group: both tokens needed (nobody files someone else's game)."""
        group = self.check_token(group_id, token)
        table = self.tables.get(table_id)
        self.tables.check_token(table_id, table_token)
        ids = {p["id"] for p in group.players}
        if len(seats) != len(table.players):
            raise ApiProblem(
                422,
                "seats-mismatch",
                f"The table has {len(table.players)} seats; name a group player for each.",
            )
        if unknown := [s for s in seats if s not in ids]:
            raise ApiProblem(422, "unknown-player", f"The group has no player with the id {unknown[0]!r}.")
        if len(set(seats)) != len(seats):
            raise ApiProblem(422, "duplicate-player", "One group player cannot sit in two seats.")
        with write_transaction(self.engine) as conn:
            known = (
                conn.execute(
                    select(group_tables).where(
                        and_(group_tables.c.group_id == group_id, group_tables.c.table_id == table_id)
                    )
                )
                .mappings()
                .first()
            )
            if known is not None:
                if list(known["seats"]) != list(seats):
                    raise ApiProblem(
                        409, "table-already-in-group", "This table is in the group with other seats."
                    )
                return _membership(known)
            values = {
                "group_id": group_id,
                "table_id": table_id,
                "seats": list(seats),
                "abandoned": False,
                "added_at": datetime.now(UTC),
            }
            conn.execute(insert(group_tables).values(**values))
            announced = self._announce(conn, group_id)
        self.on_commit(*announced)
        return _membership(values)

    def set_abandoned(self, group_id: str, token: str | None, table_id: str, abandoned: bool) -> Membership:
        self.check_token(group_id, token)
        where = and_(group_tables.c.group_id == group_id, group_tables.c.table_id == table_id)
        with write_transaction(self.engine) as conn:
            if conn.execute(update(group_tables).where(where).values(abandoned=abandoned)).rowcount != 1:
                raise ApiProblem(404, "table-not-in-group", "This table is not one of the group's.")
            row = conn.execute(select(group_tables).where(where)).mappings().one()
            announced = self._announce(conn, group_id)
        self.on_commit(*announced)
        return _membership(row)

    def memberships(self, group_id: str) -> list[Membership]:
        with read_connection(self.engine) as conn:
            rows = (
                conn.execute(
                    select(group_tables)
                    .where(group_tables.c.group_id == group_id)
                    .order_by(group_tables.c.added_at, group_tables.c.table_id)
                )
                .mappings()
                .all()
            )
        return [_membership(r) for r in rows]

    def outcomes(self, group_id: str) -> list[tuple[str, str]]:
        """Each table of the group, oldest first, with its status: `finished`, `abandoned` or
        `playing` (one read; what a group's live stream compares)."""
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(group_tables.c.table_id, group_tables.c.abandoned, game_tables.c.finished)
                .join(game_tables, game_tables.c.id == group_tables.c.table_id)
                .where(group_tables.c.group_id == group_id)
                .order_by(group_tables.c.added_at, group_tables.c.table_id)
            ).all()
        return [
            (table_id, "abandoned" if abandoned else "finished" if finished else "playing")
            for table_id, abandoned, finished in rows
        ]


def _membership(row: Mapping[str, Any]) -> Membership:
    return Membership(row["table_id"], list(row["seats"]), bool(row["abandoned"]), utc(row["added_at"]))


def _verify(row: Mapping[str, Any], token: str | None) -> None:
    if not token:
        raise ApiProblem(401, "edit-token-required", "Changing a group needs its edit token.")
    if not token_matches(token, row["edit_token_hash"]):
        raise ApiProblem(403, "bad-edit-token", "This edit token does not belong to this group.")


def _stale(current: int, expected: int) -> ApiProblem:
    return ApiProblem(
        409,
        "stale-version",
        f"The group is at version {current}, not {expected}: read it again and redo your change.",
    )
