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
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives import serialization
from sqlalchemy import Connection, Engine, Table, Text, and_, cast, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from api.db.engine import read_connection, write_transaction
from api.db.schema import game_tables, group_figures, group_imports, group_tables, player_groups
from api.errors import ApiProblem
from api.groups import figures as kept
from api.groups.facts import facts_of
from api.groups.imports import ImportedPlay, folded, seat_players
from api.groups.offloop import off_the_loop
from api.tables.changes import CHANNEL
from api.tables.record import build_record
from api.tables.store import TableStore
from api.tables.tokens import hash_token, is_our_id, new_table_id, new_write_token, token_matches

MAX_PLAYERS = 60
# Tables one group holds (docs/architecture.md, limits). Reads of a group cost the same whatever its
# size (kept figures, keyset pages); the cap bounds what is left: a stream's statuses (one small
# row per table) and a rebuild of the figures of a group from before they were kept.
MAX_TABLES = 5000
_SYNC_TRIES = 8


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
    """One table of the group: the group player in each seat, and whether it was given up; what
    the group keeps of it (issue 31): its game, place, finished flag and finished game's facts."""

    table_id: str
    seats: list[str]
    abandoned: bool
    added_at: datetime
    game: str | None = None
    position: int = 0
    finished: bool = False
    facts: dict[str, Any] | None = None
    facts_version: int | None = None
    counted: bool = False
    # An imported result (a BG Stats play, migration 0015): no table behind it; its day, end and the
    # names the file gave.
    imported: bool = False
    played_at: datetime | None = None
    ended_at: datetime | None = None
    names: list[str] | None = None

    @property
    def status(self) -> str:
        return "abandoned" if self.abandoned else "finished" if self.finished else "playing"


@dataclass(frozen=True)
class TableFacts:
    """The table columns a group's history shows (its state left unread)."""

    id: str
    game: str
    players: list[dict[str, Any]]
    finished: bool
    version: int
    created_at: datetime
    updated_at: datetime


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
        # A table that finishes or is reopened updates the figures of the groups it is in.
        tables.on_result_change = self.table_changed

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
                conn.execute(insert(group_figures).values(group_id=group_id, figures=kept.empty(), version=1))
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
                for source in (group_tables, group_imports)  # imported plays count as games too
                for (seats,) in conn.execute(select(source.c.seats).where(source.c.group_id == group_id))
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
            # The group's row locked (PostgreSQL; SQLite writes one at a time): the count and the
            # next place are read by one adder at a time.
            conn.execute(
                select(player_groups.c.id).where(player_groups.c.id == group_id).with_for_update()
            ).first()
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
            count, last = _places(conn, group_id)
            if count >= MAX_TABLES:
                raise ApiProblem(
                    422,
                    "group-full",
                    f"A group holds at most {MAX_TABLES} tables; start a new group for more games.",
                )
            values = {
                "group_id": group_id,
                "table_id": table_id,
                "seats": list(seats),
                "abandoned": False,
                "added_at": datetime.now(UTC),
                "game": table.game,
                "position": (last or 0) + 1,
                "finished": False,  # the sync below sets it with the facts, in one transaction
                "counted": False,
            }
            conn.execute(insert(group_tables).values(**values))
            announced = self._announce(conn, group_id)
        self.on_commit(*announced)
        if table.finished:
            self.sync(group_id, table_id)
        return _membership(values)

    def set_abandoned(self, group_id: str, token: str | None, table_id: str, abandoned: bool) -> Membership:
        """Give a table up (or take that back): out of (into) the figures in the same transaction."""
        self.check_token(group_id, token)
        self._sync(group_id, table_id, abandoned=abandoned)
        membership = self.membership(group_id, table_id)
        assert membership is not None
        return membership

    # -- the kept figures ----------------------------------------------------------------------

    def groups_of(self, table_id: str) -> list[str]:
        with read_connection(self.engine) as conn:
            return list(
                conn.execute(
                    select(group_tables.c.group_id).where(group_tables.c.table_id == table_id)
                ).scalars()
            )

    def table_changed(self, table_id: str) -> None:
        """The table store's hook: a table finished, or was reopened by an undo. Only tables that
        are in a group pay (one indexed read otherwise)."""
        for group_id in self.groups_of(table_id):
            self.sync(group_id, table_id)

    def sync(self, group_id: str, table_id: str) -> None:
        """Bring one membership and the group's figures in line with the table as it is now."""
        self._sync(group_id, table_id, abandoned=None)

    def _facts_now(self, table_id: str) -> tuple[int, dict[str, Any]]:
        """The finished table's facts and the version they are of: the log read here, the replay
        beside the loop (O(that table))."""
        table, entries = self.tables.log(table_id)

        def work() -> dict[str, Any]:
            return kept.facts_json(facts_of(build_record(table, entries, self.tables.key)))

        return table.version, off_the_loop(work)

    def _sync(self, group_id: str, table_id: str, *, abandoned: bool | None) -> None:
        """Subtract the membership's counted facts and add what counts now, in one transaction
        that holds the group's figures row (FOR UPDATE on PostgreSQL; SQLite writes one at a time),
        so two servers syncing at once each see the other's result. A finished table's facts are
        worked out before, outside the transaction; if the table moved on meanwhile, again."""
        fresh: tuple[int, dict[str, Any]] | None = None
        for _ in range(_SYNC_TRIES):
            with write_transaction(self.engine) as conn:
                where = and_(group_tables.c.group_id == group_id, group_tables.c.table_id == table_id)
                row = conn.execute(
                    select(group_figures.c.figures, group_figures.c.version)
                    .where(group_figures.c.group_id == group_id)
                    .with_for_update()
                ).first()
                member = conn.execute(select(group_tables).where(where)).mappings().first()
                if member is None:
                    raise ApiProblem(404, "table-not-in-group", "This table is not one of the group's.")
                finished, version = conn.execute(
                    select(game_tables.c.finished, game_tables.c.version).where(game_tables.c.id == table_id)
                ).one()
                facts, facts_version = member["facts"], member["facts_version"]
                if finished and facts_version != version and fresh is not None and fresh[0] == version:
                    facts_version, facts = fresh
                stale = bool(finished) and facts_version != version
                if not stale:
                    now_abandoned = bool(member["abandoned"]) if abandoned is None else abandoned
                    counted = bool(finished) and not now_abandoned and row is not None
                    if row is not None:
                        figures = row[0]
                        if member["counted"] and member["facts"] is not None:
                            kept.apply(figures, kept.facts_from(member["facts"]), member["seats"], -1)
                        if counted:
                            kept.apply(figures, kept.facts_from(facts), member["seats"], 1)
                        conn.execute(
                            update(group_figures)
                            .where(group_figures.c.group_id == group_id)
                            .values(figures=figures, version=row[1] + 1)
                        )
                    conn.execute(
                        update(group_tables)
                        .where(where)
                        .values(
                            abandoned=now_abandoned,
                            finished=bool(finished),
                            facts=facts,
                            facts_version=facts_version,
                            counted=counted,  # without a figures row yet, its rebuild counts it
                        )
                    )
                    announced = self._announce(conn, group_id)
            if not stale:
                self.on_commit(*announced)
                return
            fresh = self._facts_now(table_id)
        raise ApiProblem(
            503, "group-busy", "The group's table kept changing; try again.", headers={"Retry-After": "1"}
        )

    def figures(self, group_id: str) -> dict[str, Any]:
        """The group's kept figures (one read); a group from before they were kept has them built
        once, here."""
        with read_connection(self.engine) as conn:
            row = conn.execute(
                select(group_figures.c.figures).where(group_figures.c.group_id == group_id)
            ).first()
        if row is not None:
            lagging = self.lagging(group_id)
            if not lagging:
                return dict(row[0])
            for table_id in lagging:
                self.sync(group_id, table_id)
            return self.figures(group_id)
        self.rebuild(group_id)
        return self.figures(group_id)

    def lagging(self, group_id: str) -> list[str]:
        """Tables whose finished status or version moved on without their sync (a process that
        died between an append's commit and the figures' update): one indexed read of the
        group's memberships, so such a table is caught up by the next read, never lost."""
        facts_version = group_tables.c.facts_version
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(group_tables.c.table_id)
                .join(game_tables, game_tables.c.id == group_tables.c.table_id)
                .where(
                    group_tables.c.group_id == group_id,
                    (group_tables.c.finished != game_tables.c.finished)
                    | (game_tables.c.finished & facts_version.is_distinct_from(game_tables.c.version)),
                )
            ).all()
        return [table_id for (table_id,) in rows]

    def rebuild(self, group_id: str) -> None:
        """Figures for a group that has none (made before migration 0012): every membership synced
        into a fresh row. O(tables) once per group; the cap on tables bounds it."""
        with write_transaction(self.engine) as conn:
            conn.execute(
                select(player_groups.c.id).where(player_groups.c.id == group_id).with_for_update()
            ).first()
            if conn.execute(
                select(group_figures.c.group_id).where(group_figures.c.group_id == group_id)
            ).first():
                return
            conn.execute(
                update(group_tables).where(group_tables.c.group_id == group_id).values(counted=False)
            )
            figures = kept.empty()
            for seats, facts in conn.execute(
                select(group_imports.c.seats, group_imports.c.facts).where(
                    group_imports.c.group_id == group_id
                )
            ):
                kept.apply(figures, kept.facts_from(facts), seats, 1)
            conn.execute(insert(group_figures).values(group_id=group_id, figures=figures, version=1))
        for membership in self.memberships(group_id):
            self.sync(group_id, membership.table_id)

    def recount(self, group_id: str) -> dict[str, Any]:
        """The figures summed afresh from the memberships' kept facts (what `figures` must equal)."""
        figures = kept.empty()
        for membership in [*self.memberships(group_id), *self.imports(group_id)]:
            if membership.counted and membership.facts is not None:
                kept.apply(figures, kept.facts_from(membership.facts), membership.seats, 1)
        return figures

    def memberships(self, group_id: str) -> list[Membership]:
        """Every membership, by place (O(tables): for the recount and rebuild, not for reads)."""
        with read_connection(self.engine) as conn:
            rows = (
                conn.execute(
                    select(group_tables)
                    .where(group_tables.c.group_id == group_id)
                    .order_by(group_tables.c.position)
                )
                .mappings()
                .all()
            )
        return [_membership(r) for r in rows]

    def membership(self, group_id: str, table_id: str) -> Membership | None:
        with read_connection(self.engine) as conn:
            row = (
                conn.execute(
                    select(group_tables).where(
                        and_(group_tables.c.group_id == group_id, group_tables.c.table_id == table_id)
                    )
                )
                .mappings()
                .first()
            )
        return None if row is None else _membership(row)

    def memberships_of(self, group_id: str, table_ids: Sequence[str]) -> dict[str, Membership]:
        """These tables' memberships, in one read."""
        if not table_ids:
            return {}
        where = and_(group_tables.c.group_id == group_id, group_tables.c.table_id.in_(list(table_ids)))
        with read_connection(self.engine) as conn:
            rows = conn.execute(select(group_tables).where(where)).mappings().all()
        return {r["table_id"]: _membership(r) for r in rows}

    def count(self, group_id: str) -> int:
        with read_connection(self.engine) as conn:
            return int(
                conn.execute(select(func.count()).where(group_tables.c.group_id == group_id)).scalar_one()
            )

    def page(
        self,
        group_id: str,
        *,
        limit: int,
        before: int | None = None,
        after: int | None = None,
        game: str | None = None,
        player: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        imports: bool = True,
    ) -> list[Membership]:
        """Up to `limit` memberships by place: newest first below `before`, or oldest first above
        `after` (a keyset page: one indexed range read, whatever the group's size). `since` and
        `until` keep the tables started in [since, until) (a join on the tables' start; at most
        the group's cap of rows passed over)."""
        where = _filters(group_id, game, player, since, until)
        if after is not None:
            where.append(group_tables.c.position > after)
            order = group_tables.c.position.asc()
        else:
            if before is not None:
                where.append(group_tables.c.position < before)
            order = group_tables.c.position.desc()
        query = select(group_tables)
        if since is not None or until is not None:
            query = query.join(game_tables, game_tables.c.id == group_tables.c.table_id)
        imported_where = _import_filters(group_id, game, player, since, until)
        if after is not None:
            imported_where.append(group_imports.c.position > after)
            imported_order = group_imports.c.position.asc()
        else:
            if before is not None:
                imported_where.append(group_imports.c.position < before)
            imported_order = group_imports.c.position.desc()
        with read_connection(self.engine) as conn:
            rows = conn.execute(query.where(and_(*where)).order_by(order).limit(limit)).mappings().all()
            imported = (
                conn.execute(
                    select(group_imports).where(and_(*imported_where)).order_by(imported_order).limit(limit)
                ).mappings()
                if imports
                else []
            )
            found = [_membership(r) for r in rows] + [_imported(r) for r in imported]
        # Both keyset pages merged by place (one sequence of places for tables and imports).
        found.sort(key=lambda m: m.position, reverse=after is None)
        return found[:limit]

    def walk(
        self,
        group_id: str,
        *,
        player: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[tuple[Membership, TableFacts]]:
        """The counted tables (finished, kept) of the group, or of one player, oldest place first,
        each with its shown columns: one read of the group's own rows and the tables' small columns
        (their facts as the group keeps them; no log, no replay). O(those tables), at most the
        group's cap (MAX_TABLES): what a player's page and a date-filtered statistics walk."""
        where = _filters(group_id, None, player, since, until)
        where.append(group_tables.c.counted.is_(True))
        cols = game_tables.c
        query = (
            select(
                group_tables,
                cols.players.label("t_players"),
                cols.finished.label("t_finished"),
                cols.version.label("t_version"),
                cols.created_at.label("t_created_at"),
                cols.updated_at.label("t_updated_at"),
            )
            .join(game_tables, cols.id == group_tables.c.table_id)
            .where(and_(*where))
            .order_by(group_tables.c.position.asc())
            .limit(MAX_TABLES)
        )
        with read_connection(self.engine) as conn:
            rows = conn.execute(query).mappings().all()
            imported = conn.execute(
                select(group_imports)
                .where(and_(*_import_filters(group_id, None, player, since, until)))
                .order_by(group_imports.c.position.asc())
                .limit(MAX_TABLES)
            ).mappings()
            imports = [(m, imported_table(m)) for m in map(_imported, imported)]
        walked = [(_membership(r), _table_facts(r, "table_id", "t_")) for r in rows]
        return sorted(walked + imports, key=lambda pair: pair[0].position)

    def plays(self, group_id: str) -> dict[str, datetime]:
        """Per game, when the group last played it: the latest entry of its finished, kept tables
        (one grouped read over the group's rows)."""
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(group_tables.c.game, func.max(game_tables.c.updated_at))
                .join(game_tables, game_tables.c.id == group_tables.c.table_id)
                .where(group_tables.c.group_id == group_id, group_tables.c.counted.is_(True))
                .group_by(group_tables.c.game)
            ).all()
            imported = conn.execute(
                select(group_imports.c.game, func.max(group_imports.c.ended_at))
                .where(group_imports.c.group_id == group_id)
                .group_by(group_imports.c.game)
            ).all()
        last: dict[str, datetime] = {}
        for game, at in [*rows, *imported]:
            if game is not None and at is not None and (game not in last or utc(at) > last[game]):
                last[str(game)] = utc(at)
        return last

    def imports(self, group_id: str) -> list[Membership]:
        """Every imported result of the group, by place (O(imports): for the recount and tests)."""
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(group_imports)
                .where(group_imports.c.group_id == group_id)
                .order_by(group_imports.c.position)
            ).mappings()
            return [_imported(r) for r in rows]

    def import_plays(
        self, group_id: str, token: str | None, plays: Sequence[ImportedPlay]
    ) -> tuple[int, int, list[str]]:
        """File a BG Stats export's plays in the group, all or nothing, in one transaction that
        holds the group's row and figures: players the group lacks join it (by name, case and
        accents ignored), each new play takes the next place and goes into the figures. A play
        already imported (its key) or one Kibitz itself sent to BG Stats from a table of this group
        is passed over, so the same file twice adds nothing. → (imported, passed over, new names)"""
        self.check_token(group_id, token)  # 404, 401, 403 before anything is read or built
        self.figures(group_id)  # a group from before kept figures has them built first
        with write_transaction(self.engine) as conn:
            row = (
                conn.execute(select(player_groups).where(player_groups.c.id == group_id).with_for_update())
                .mappings()
                .first()
            )
            if row is None or not is_our_id(group_id):
                raise group_not_found(group_id)
            _verify(row, token)
            keys = [p.key for p in plays]
            known_keys = {
                k
                for chunk in _chunks(keys)
                for (k,) in conn.execute(
                    select(group_imports.c.import_key).where(
                        group_imports.c.group_id == group_id, group_imports.c.import_key.in_(chunk)
                    )
                )
            }
            sources = [p.source_id for p in plays if p.source_id]
            own = {
                t
                for chunk in _chunks(sources)
                for (t,) in conn.execute(
                    select(group_tables.c.table_id).where(
                        group_tables.c.group_id == group_id, group_tables.c.table_id.in_(chunk)
                    )
                )
            }
            fresh = [p for p in plays if p.key not in known_keys and p.source_id not in own]
            if not fresh:
                return 0, len(plays), []
            ids, new_names = seat_players(fresh, row["players"])
            players = list(row["players"])
            if new_names:
                players = player_entries([*players, *({"name": n} for n in new_names)], players)
                conn.execute(
                    update(player_groups)
                    .where(player_groups.c.id == group_id)
                    .values(players=players, version=row["version"] + 1, updated_at=datetime.now(UTC))
                )
                ids = {folded(str(p["name"])): str(p["id"]) for p in players}
            count, last = _places(conn, group_id)
            if count + len(fresh) > MAX_TABLES:
                raise ApiProblem(
                    422, "group-full", "The import would take the group past its most tables (5,000)."
                )
            figures_row = conn.execute(
                select(group_figures.c.figures, group_figures.c.version)
                .where(group_figures.c.group_id == group_id)
                .with_for_update()
            ).one()
            figures = figures_row[0]
            now = datetime.now(UTC)
            for place, play in enumerate(fresh, start=(last or 0) + 1):
                seats = [ids[folded(name)] for name in play.names]
                facts = kept.facts_json(play.facts)
                conn.execute(
                    insert(group_imports).values(
                        group_id=group_id,
                        import_key=play.key,
                        position=place,
                        game=play.game,
                        played_at=play.played_at,
                        ended_at=play.played_at + _duration(play),
                        names=list(play.names),
                        seats=seats,
                        facts=facts,
                        imported_at=now,
                    )
                )
                kept.apply(figures, play.facts, seats, 1)
            conn.execute(
                update(group_figures)
                .where(group_figures.c.group_id == group_id)
                .values(figures=figures, version=figures_row[1] + 1)
            )
            announced = self._announce(conn, group_id)
        self.on_commit(*announced)
        return len(fresh), len(plays) - len(fresh), new_names

    def table_facts(self, table_ids: Sequence[str]) -> dict[str, TableFacts]:
        """The shown columns of these tables, in one read (their states left unread)."""
        if not table_ids:
            return {}
        cols = game_tables.c
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(
                    cols.id,
                    cols.game,
                    cols.players,
                    cols.finished,
                    cols.version,
                    cols.created_at,
                    cols.updated_at,
                ).where(cols.id.in_(list(table_ids)))
            ).mappings()
            return {r["id"]: _table_facts(r, "id") for r in rows}

    def latest_of_game(self, group_id: str, game: str) -> Membership | None:
        """The group's latest table of a game (one indexed read: `last_seating` per game)."""
        found = self.page(group_id, limit=1, game=game, imports=False)
        return found[0] if found else None

    def outcomes(self, group_id: str) -> list[tuple[str, str]]:
        """Each table of the group, by place, with its status: `finished`, `abandoned` or
        `playing` (one read of the group's own small rows; what a group's live stream compares)."""
        with read_connection(self.engine) as conn:
            rows = conn.execute(
                select(group_tables.c.table_id, group_tables.c.abandoned, group_tables.c.finished)
                .where(group_tables.c.group_id == group_id)
                .order_by(group_tables.c.position)
            ).all()
        return [
            (table_id, "abandoned" if abandoned else "finished" if finished else "playing")
            for table_id, abandoned, finished in rows
        ]


def _places(conn: Connection, group_id: str) -> tuple[int, int | None]:
    """How many places the group's tables and imports take, and the last one (one sequence)."""
    count, last = conn.execute(
        select(func.count(), func.max(group_tables.c.position)).where(group_tables.c.group_id == group_id)
    ).one()
    more, latest = conn.execute(
        select(func.count(), func.max(group_imports.c.position)).where(group_imports.c.group_id == group_id)
    ).one()
    return int(count) + int(more), max((p for p in (last, latest) if p is not None), default=None)


def _chunks(values: Sequence[str], size: int = 500) -> list[list[str]]:
    return [list(values[i : i + size]) for i in range(0, len(values), size)]


def _duration(play: ImportedPlay) -> timedelta:
    return timedelta(seconds=play.duration_seconds)


def _import_filters(
    group_id: str, game: str | None, player: str | None, since: datetime | None, until: datetime | None
) -> list[Any]:
    """The conditions of a page or walk over imported results (dates on the day played)."""
    return _conditions(group_imports, group_imports.c.played_at, group_id, game, player, since, until)


def _imported(row: Mapping[str, Any]) -> Membership:
    """An imported result as a membership: always finished and counted, its facts at version 0."""
    return Membership(
        f"import-{row['import_key'][:16]}",
        list(row["seats"]),
        False,
        utc(row["imported_at"]),
        row["game"],
        int(row["position"]),
        True,
        dict(row["facts"]),
        0,
        True,
        True,
        utc(row["played_at"]),
        utc(row["ended_at"]),
        list(row["names"]),
    )


def imported_table(membership: Membership) -> TableFacts:
    """The table columns history shows, for an imported result (there is no table)."""
    assert membership.played_at is not None and membership.ended_at is not None
    return TableFacts(
        membership.table_id,
        str(membership.game),
        [{"name": n} for n in membership.names or []],
        True,
        0,
        membership.played_at,
        membership.ended_at,
    )


def _filters(
    group_id: str, game: str | None, player: str | None, since: datetime | None, until: datetime | None
) -> list[Any]:
    """The conditions of a page or walk (dates on the tables' start: the join is the caller's)."""
    return _conditions(group_tables, game_tables.c.created_at, group_id, game, player, since, until)


def _conditions(
    rows: Table,
    day: Any,
    group_id: str,
    game: str | None,
    player: str | None,
    since: datetime | None,
    until: datetime | None,
) -> list[Any]:
    """A group's rows (its tables or its imported results), by game, player and dates on `day`."""
    where: list[Any] = [rows.c.group_id == group_id]
    if game is not None:
        where.append(rows.c.game == game)
    if player is not None:
        escaped = player.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append(cast(rows.c.seats, Text).like(f'%"{escaped}"%', escape="\\"))
    if since is not None:
        where.append(day >= since)
    if until is not None:
        where.append(day < until)
    return where


def _table_facts(row: Mapping[str, Any], id_column: str, prefix: str = "") -> TableFacts:
    """A table's facts from a row of its columns (named with `prefix` where a join renamed them)."""
    return TableFacts(
        row[id_column],
        row["game"],
        list(row[f"{prefix}players"]),
        bool(row[f"{prefix}finished"]),
        int(row[f"{prefix}version"]),
        utc(row[f"{prefix}created_at"]),
        utc(row[f"{prefix}updated_at"]),
    )


def _membership(row: Mapping[str, Any]) -> Membership:
    return Membership(
        row["table_id"],
        list(row["seats"]),
        bool(row["abandoned"]),
        utc(row["added_at"]),
        row.get("game"),
        int(row.get("position") or 0),
        bool(row.get("finished")),
        row.get("facts"),
        row.get("facts_version"),
        bool(row.get("counted")),
    )


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
