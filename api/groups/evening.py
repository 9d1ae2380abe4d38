"""An evening of games (issue 33): a table's next game, which the phones of the table follow.

The phone that starts the next game (a rematch, or the group's next game) hands it over with both
tables' write tokens. Every phone that sat at the old table then asks for the next one with the old
table's token and gets the new one's join link: nobody scans a code again. The new table's token is
stored sealed (AES-GCM) under a key derived from the old table's token, which the server keeps only
hashed — so the database alone gives no token away, and a mere reader of the old table (no token)
hears only the new table's read link.

A rematch (the same game, the same players in the same seats) of a group's table is filed in the
group with the same seats: the phone that sat at the group's table may file its rematch without the
group's edit token, since it can add nobody and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Connection, and_, func, insert, select
from sqlalchemy.exc import IntegrityError

from api.db.engine import read_connection, write_transaction
from api.db.schema import game_tables, group_tables, player_groups, table_next
from api.errors import ApiProblem
from api.groups.store import MAX_TABLES, GroupStore
from api.tables.store import TableStore
from api.tables.tokens import token_matches


@dataclass(frozen=True)
class Handover:
    """The next table of `table_id`; `token` only for the holder of the old table's token, `seat`
    (the next table's seat and its token) only for the holder of an old seat's own token."""

    table_id: str
    next_id: str
    game: str
    token: str | None
    groups: list[str]
    seat: tuple[int, str] | None = None


def _key(old_token: str) -> bytes:
    # Not the stored hash (sha256 of the token alone): a different, domain-separated digest.
    return hashlib.sha256(b"kibitz-next-table\x00" + old_token.encode("utf-8")).digest()


def seal(old_token: str, table_id: str, new_token: str) -> str:
    nonce = os.urandom(12)
    sealed = AESGCM(_key(old_token)).encrypt(nonce, new_token.encode("utf-8"), table_id.encode("utf-8"))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(old_token: str, table_id: str, sealed: str) -> str | None:
    raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
    try:
        return AESGCM(_key(old_token)).decrypt(raw[:12], raw[12:], table_id.encode("utf-8")).decode("utf-8")
    except InvalidTag:
        return None


def no_next(table_id: str) -> ApiProblem:
    return ApiProblem(404, "no-next-table", f"No next game was started from table {table_id!r} yet.")


class Evening:
    def __init__(self, tables: TableStore, groups: GroupStore) -> None:
        self.tables, self.groups = tables, groups

    def hand_over(
        self,
        table_id: str,
        token: str | None,
        next_id: str,
        next_token: str | None,
        seats: Sequence[Mapping[str, Any]] = (),
    ) -> Handover:
        """Record `next_id` as the next game of `table_id` (both tokens needed). The first next game
        stands: a second phone that started one too at the same moment hears the first. `seats`
        carries players' own links along ({seat, token, next_seat, next_token}: both seat tokens,
        checked), so a phone that sat at the old table with its own link gets its new one."""
        self.tables.check_token(table_id, token)
        if next_id == table_id:
            raise ApiProblem(422, "same-table", "A table cannot be its own next game.")
        self.tables.check_token(next_id, next_token)
        assert token is not None and next_token is not None  # check_token refuses a missing one
        old, new = self.tables.get(table_id), self.tables.get(next_id)
        sealed_seats = self._sealed_seats(table_id, next_id, seats)
        announced: list[tuple[str, int]] = []
        try:
            with write_transaction(self.tables.engine) as conn:
                known = (
                    conn.execute(select(table_next).where(table_next.c.table_id == table_id))
                    .mappings()
                    .first()
                )
                if known is None:
                    conn.execute(
                        insert(table_next).values(
                            table_id=table_id,
                            next_id=next_id,
                            sealed_token=seal(token, table_id, next_token),
                            sealed_seats=sealed_seats,
                            added_at=datetime.now(UTC),
                        )
                    )
                    if _rematch(old.game, old.players, new.game, new.players):
                        announced = self._file_rematch(conn, table_id, next_id)
        except IntegrityError:
            announced = []  # another phone's next game was recorded a moment earlier: it stands
        for key, stamp in announced:  # the group's live streams hear of the new table
            self.groups.on_commit(key, stamp)
        return self.next_of(table_id, token)

    def _seat_hashes(self, table_id: str) -> list[str]:
        with read_connection(self.tables.engine) as conn:
            row = conn.execute(
                select(game_tables.c.seat_token_hashes).where(game_tables.c.id == table_id)
            ).first()
        return list(row[0] or []) if row is not None else []

    def _sealed_seats(
        self, table_id: str, next_id: str, seats: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each old seat's next seat token, sealed under the old seat's token (both checked)."""
        old, new = self._seat_hashes(table_id), self._seat_hashes(next_id)
        sealed: list[dict[str, Any]] = []
        for item in seats:
            seat, next_seat = item["seat"], item["next_seat"]
            if not (0 <= seat < len(old) and 0 <= next_seat < len(new)):
                raise ApiProblem(422, "seat-not-found", "A seat named in the hand-over is not at its table.")
            if not (
                token_matches(item["token"], old[seat]) and token_matches(item["next_token"], new[next_seat])
            ):
                raise ApiProblem(403, "bad-seat-token", "A seat token of the hand-over is not that seat's.")
            if any(s["seat"] == seat for s in sealed):
                raise ApiProblem(422, "duplicate-seat", "A seat is handed over twice.")
            bound = f"{table_id}:{seat}"
            sealed.append(
                {
                    "seat": seat,
                    "next_seat": next_seat,
                    "sealed": seal(item["token"], bound, item["next_token"]),
                }
            )
        return sealed

    def _file_rematch(self, conn: Connection, table_id: str, next_id: str) -> list[tuple[str, int]]:
        """File the rematch in every group the old table is in, with the old table's seats — at the
        group's next place, with its game, as GroupStore.add_table files a table: a membership
        without a place was missing from the group's exports, which page by place (issue 33)."""
        rows = conn.execute(select(group_tables).where(group_tables.c.table_id == table_id)).mappings().all()
        filed = []
        for row in rows:
            # The group's row locked (PostgreSQL; SQLite writes one at a time), as GroupStore does:
            # the next place is read by one adder at a time.
            conn.execute(
                select(player_groups.c.id).where(player_groups.c.id == row["group_id"]).with_for_update()
            ).first()
            count, last = conn.execute(
                select(func.count(), func.max(group_tables.c.position)).where(
                    group_tables.c.group_id == row["group_id"]
                )
            ).one()
            if count >= MAX_TABLES:
                continue  # a full group files no more (GroupStore refuses with group-full)
            there = conn.execute(
                select(group_tables.c.table_id).where(
                    and_(group_tables.c.group_id == row["group_id"], group_tables.c.table_id == next_id)
                )
            ).first()
            if there is not None:
                continue
            conn.execute(
                insert(group_tables).values(
                    group_id=row["group_id"],
                    table_id=next_id,
                    seats=list(row["seats"]),
                    abandoned=False,
                    added_at=datetime.now(UTC),
                    game=row["game"],
                    position=(last or 0) + 1,
                    finished=False,
                    counted=False,
                )
            )
            filed.append(self.groups._announce(conn, row["group_id"]))
        return filed

    def next_of(self, table_id: str, token: str | None, seat: int | None = None) -> Handover:
        """The next game of `table_id`; with the old table's write token (checked: a wrong one is
        refused, not quietly answered as a reader) its token too; with `seat` and that seat's own
        token instead, the next game's seat for that player and its token."""
        self.tables.get(table_id)  # 404 for no such table
        if token and seat is not None:
            hashes = self._seat_hashes(table_id)
            if not 0 <= seat < len(hashes):
                raise ApiProblem(404, "seat-not-found", "The table has no such seat.")
            if not token_matches(token, hashes[seat]):
                raise ApiProblem(403, "bad-seat-token", "This link is not for this seat.")
        elif token:
            self.tables.check_token(table_id, token)
        with read_connection(self.tables.engine) as conn:
            row = conn.execute(select(table_next).where(table_next.c.table_id == table_id)).mappings().first()
            if row is None:
                raise no_next(table_id)
            groups = [
                g
                for (g,) in conn.execute(
                    select(group_tables.c.group_id).where(group_tables.c.table_id == row["next_id"])
                ).all()
            ]
        new = self.tables.get(row["next_id"])
        if token and seat is not None:
            mine = next((s for s in row["sealed_seats"] or [] if s["seat"] == seat), None)
            opened_seat = unseal(token, f"{table_id}:{seat}", mine["sealed"]) if mine else None
            handed = (int(mine["next_seat"]), opened_seat) if mine and opened_seat else None
            return Handover(table_id, new.id, new.game, None, [], handed)
        opened = unseal(token, table_id, row["sealed_token"]) if token else None
        return Handover(table_id, new.id, new.game, opened, groups)


def _rematch(
    game: str, players: list[dict[str, object]], new_game: str, new_players: list[dict[str, object]]
) -> bool:
    """The same game with the same players in the same seats (names compared as typed)."""
    return game == new_game and [p.get("name") for p in players] == [p.get("name") for p in new_players]
