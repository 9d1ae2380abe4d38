"""The library of board sheets (MG-2): numbers typed in at one table, shared with every group that
owns the same edition of the game.

MG-2 Decision: the software never invents a printed value. The library only passes on numbers that
players typed in from their own board: a sheet is *published* for an edition (the printed board it
was typed from) by whoever holds its edit token, and a table that plays with those numbers
*confirms* them when its players found them equal to their own board.

What a confirmation is worth (issue 31, hole 4) — one client must not be able to inflate it:

- A confirmation counts only once its table reached the end of scoring (MG-10, the game over and
  scored) with every published number on its board sheet, equal: until then it is `pending`, and a
  table that finished with other numbers never counts (`void`). Never-played tables count nothing.
- A table counts once, however often it confirms.
- One client (a keyed hash of its network address — an IPv6 client by its /64 — never the address)
  counts once per edition: its first counted confirmation there. `confirmations` is the number of
  distinct clients whose table played the numbers to scoring; `tables` counts every such table.

Publications of one edition whose numbers differ in any entry (a misprint, a typo, another print
run) are kept apart, each with its own numbers and its own count; they are never merged, and the
listing names the entries they disagree on so people can look at their board.

What a listing shows cannot be crowded out by one publisher: each edition lists its publications
most confirmed first and, among equals, one publisher's first publication before anyone's second
(then the oldest first); without an edition at most PER_EDITION per edition and MAX_EDITIONS
editions, the most confirmed first and, among equals, a publisher's first edition before its
second. Publishing new numbers spends the client's daily budget (api.http.sheets).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, and_, case, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from api.db.engine import read_connection, write_transaction
from api.db.schema import game_tables, sheet_confirmations, sheet_publications
from api.errors import ApiProblem
from api.sheets.kinds import sheet_kind
from api.sheets.store import SheetRow
from api.tables.tokens import is_our_id, new_table_id

MAX_LISTED = 200  # publications of one edition when the listing asks for that edition
PER_EDITION = 10  # publications of each edition when the listing asks for a whole game
MAX_EDITIONS = 20  # editions when the listing asks for a whole game (at most 200 publications in all)


@dataclass(frozen=True)
class Publication:
    id: str
    game: str
    edition: str
    data: dict[str, Any]
    filled: int
    confirmations: int
    tables: int
    published_at: datetime
    last_confirmed_at: datetime | None


def edition_key(edition: str) -> str:
    """One edition however it is typed: Unicode NFC, case folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", edition).casefold().split())


def fingerprint(data: Mapping[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def publication_not_found(publication_id: str) -> ApiProblem:
    return ApiProblem(404, "publication-not-found", "There is no published board sheet with this id.")


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# Counted confirmations, each with its client's turn in its edition: only a client's first one
# there (turn 1) counts towards `confirmations`; a confirmation stored before clients were kept
# stands for a client of its own (its table).
_WHO = func.coalesce(sheet_confirmations.c.client, sheet_confirmations.c.table_id)
_COUNTED = (
    select(
        sheet_confirmations.c.publication_id,
        sheet_confirmations.c.counted_at,
        func.row_number()
        .over(
            partition_by=(sheet_publications.c.game, sheet_publications.c.edition_key, _WHO),
            order_by=(sheet_confirmations.c.counted_at, sheet_confirmations.c.publication_id),
        )
        .label("turn"),
    )
    .select_from(
        sheet_confirmations.join(
            sheet_publications, sheet_publications.c.id == sheet_confirmations.c.publication_id
        )
    )
    .where(sheet_confirmations.c.status == "counted")
    .subquery()
)
_COUNTS = (
    select(
        _COUNTED.c.publication_id,
        func.sum(case((_COUNTED.c.turn == 1, 1), else_=0)).label("confirmations"),
        func.count().label("tables"),
        func.max(_COUNTED.c.counted_at).label("last_confirmed_at"),
    )
    .group_by(_COUNTED.c.publication_id)
    .subquery()
)
_CONFIRMATIONS = func.coalesce(_COUNTS.c.confirmations, 0)
_LISTING = select(
    sheet_publications,
    _CONFIRMATIONS.label("confirmations"),
    func.coalesce(_COUNTS.c.tables, 0).label("tables"),
    _COUNTS.c.last_confirmed_at,
).select_from(sheet_publications.outerjoin(_COUNTS, _COUNTS.c.publication_id == sheet_publications.c.id))
# Confirmations waiting for their table, whose table is over now: settled on the next read.
_SETTLE = (
    select(
        sheet_confirmations.c.publication_id,
        sheet_confirmations.c.table_id,
        sheet_publications.c.game,
        sheet_publications.c.data,
        game_tables.c.game.label("table_game"),
        game_tables.c.state,
    )
    .select_from(
        sheet_confirmations.join(game_tables, game_tables.c.id == sheet_confirmations.c.table_id).join(
            sheet_publications, sheet_publications.c.id == sheet_confirmations.c.publication_id
        )
    )
    .where(sheet_confirmations.c.status == "pending", game_tables.c.finished.is_(True))
)


def _publication(row: Mapping[str, Any]) -> Publication:
    return Publication(
        id=row["id"],
        game=row["game"],
        edition=row["edition"],
        data=row["data"],
        filled=row["filled"],
        confirmations=int(row["confirmations"]),
        tables=int(row["tables"]),
        published_at=_utc(row["published_at"]) or datetime.now(UTC),
        last_confirmed_at=_utc(row["last_confirmed_at"]),
    )


def _insert_new(conn: Connection, table: Any, values: Mapping[str, Any]) -> bool:
    """INSERT unless the row's unique key is already there; True when this call added it. Never
    raises on a duplicate, so a PostgreSQL transaction stays usable after a lost race."""
    dialect = conn.dialect.name
    statement: Any
    if dialect == "postgresql":
        statement = postgresql.insert(table).values(**values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        statement = sqlite.insert(table).values(**values).on_conflict_do_nothing()
    else:  # pragma: no cover - Kibitz runs on SQLite and PostgreSQL only
        statement = insert(table).values(**values)
    first_key = next(iter(table.primary_key.columns))
    return conn.execute(statement.returning(first_key)).first() is not None


def differing(
    publication_game: str, published: Mapping[str, Any], table_state: Mapping[str, Any]
) -> list[str]:
    """The published entries the table's own sheet does not have, equal (empty: it plays them)."""
    kind = sheet_kind(publication_game)
    theirs = kind.entries(kind.of_table(table_state))
    return [
        label
        for label, value in kind.entries(published).items()
        if value is not None and theirs.get(label) != value
    ]


def _scored_with(publication_game: str, published: Mapping[str, Any], table_state: Mapping[str, Any]) -> bool:
    """The table reached the end of scoring (MG-10) with every published number on its sheet."""
    return sheet_kind(publication_game).scored(table_state) and not differing(
        publication_game, published, table_state
    )


class SheetLibrary:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def publish(
        self,
        sheet: SheetRow,
        edition: str,
        publisher: str | None = None,
        spend: Callable[[], None] = lambda: None,
    ) -> tuple[Publication, bool]:
        """Publish a sheet's numbers for `edition`; (publication, True) when new. The same numbers
        published again for the same edition are the same publication (False); other numbers are a
        publication of their own, never merged. `spend` is called before a *new* publication is
        stored (the publisher's budget: it raises to refuse); `publisher` tags it (a client hash)."""
        kind = sheet_kind(sheet.game)
        data = kind.normalize(sheet.data)
        filled = sum(value is not None for value in kind.entries(data).values())
        if filled == 0:
            raise ApiProblem(
                422,
                "empty-sheet",
                "This board sheet has no numbers yet; type in at least one from your board before "
                "publishing it (MG-2).",
            )
        key = edition_key(edition)
        if not key:
            raise ApiProblem(
                422,
                "edition-required",
                "Name the edition the numbers were typed from, e.g. the publisher and year on the box.",
            )
        digest = fingerprint(data)
        same = _LISTING.where(
            sheet_publications.c.game == sheet.game,
            sheet_publications.c.edition_key == key,
            sheet_publications.c.fingerprint == digest,
        )
        with read_connection(self.engine) as conn:
            known = conn.execute(same).mappings().first()
        if known is not None:
            return _publication(known), False
        spend()
        values = {
            "id": new_table_id(),
            "game": sheet.game,
            "edition": " ".join(unicodedata.normalize("NFC", edition).split()),
            "edition_key": key,
            "data": data,
            "fingerprint": digest,
            "filled": filled,
            "sheet_id": sheet.id,
            "published_at": datetime.now(UTC),
            "publisher": publisher,
        }
        with write_transaction(self.engine) as conn:
            created = _insert_new(conn, sheet_publications, values)
            row = conn.execute(same).mappings().one()
        return _publication(row), created

    def get(self, publication_id: str) -> Publication:
        if not is_our_id(publication_id):
            raise publication_not_found(publication_id)
        self.settle()
        with read_connection(self.engine) as conn:
            row = conn.execute(_LISTING.where(sheet_publications.c.id == publication_id)).mappings().first()
        if row is None:
            raise publication_not_found(publication_id)
        return _publication(row)

    def settle(self) -> int:
        """Decide the pending confirmations whose table is over now: `counted` when it reached the
        end of scoring with the published numbers, else `void`. Each confirmation is settled once,
        when its table is first seen finished, so the work is bounded by the tables that finish;
        never-finished tables cost one indexed look. A table reopened later by an undo keeps what
        it earned: it did reach the scoring with these numbers. The number settled."""
        with read_connection(self.engine) as conn:
            rows = conn.execute(_SETTLE).mappings().all()
        if not rows:
            return 0
        now = datetime.now(UTC)
        with write_transaction(self.engine) as conn:
            for row in rows:
                counts = row["table_game"] == row["game"] and _scored_with(
                    row["game"], row["data"], row["state"]
                )
                conn.execute(
                    update(sheet_confirmations)
                    .where(
                        and_(
                            sheet_confirmations.c.publication_id == row["publication_id"],
                            sheet_confirmations.c.table_id == row["table_id"],
                            sheet_confirmations.c.status == "pending",
                        )
                    )
                    .values(status="counted" if counts else "void", counted_at=now if counts else None)
                )
        return len(rows)

    def confirm(
        self,
        publication_id: str,
        table_id: str,
        table_game: str,
        table_state: Mapping[str, Any],
        client: str | None = None,
    ) -> tuple[Publication, bool]:
        """A table (whose token the caller checked) confirms a publication: every number in it is on
        the table's own sheet, equal. Recorded once per table; (publication, True) when the table
        counts — it reached the end of scoring with these numbers — else it waits (`pending`) and
        counts when the table is scored, if it still has them then."""
        publication = self.get(publication_id)
        if table_game != publication.game:
            raise ApiProblem(
                422, "wrong-game", "This table plays another game than the published board sheet."
            )
        disagreeing = differing(publication.game, publication.data, table_state)
        if disagreeing:
            raise ApiProblem(
                409,
                "sheet-disagrees",
                "The table's board sheet does not have these numbers as published; only a table "
                "that plays with the same numbers can confirm them (MG-2).",
                entries=disagreeing,
            )
        now = datetime.now(UTC)
        scored = sheet_kind(publication.game).scored(table_state)
        with write_transaction(self.engine) as conn:
            _insert_new(
                conn,
                sheet_confirmations,
                {
                    "publication_id": publication_id,
                    "table_id": table_id,
                    "confirmed_at": now,
                    "client": client,
                    "status": "counted" if scored else "pending",
                    "counted_at": now if scored else None,
                },
            )
            status = conn.execute(
                select(sheet_confirmations.c.status).where(
                    sheet_confirmations.c.publication_id == publication_id,
                    sheet_confirmations.c.table_id == table_id,
                )
            ).scalar_one()
        # Recorded pending before, scored now: settle() counts it (or voids it).
        publication = self.get(publication_id)
        if status == "pending" and scored:
            with read_connection(self.engine) as conn:
                status = conn.execute(
                    select(sheet_confirmations.c.status).where(
                        sheet_confirmations.c.publication_id == publication_id,
                        sheet_confirmations.c.table_id == table_id,
                    )
                ).scalar_one()
        return publication, status == "counted"

    def listing(
        self, game: str, edition: str | None = None, after: int = 0, limit: int | None = None
    ) -> tuple[list[dict[str, Any]], int | None]:
        """Publications of a game grouped by edition, the most confirmed edition and publication
        first; each edition names the entries its publications disagree on. Among publications (and
        editions) with as many confirmations, one publisher's first comes before anyone's second: a
        client that publishes a hundred sheets pushes nobody else's out of the bounded answer.

        A page at a time: after the `after`-th place, `limit` places (editions of a whole game,
        publications of one edition), and the `after` of the next page (None on the last)."""
        kind = sheet_kind(game)
        self.settle()
        publisher = func.coalesce(sheet_publications.c.publisher, sheet_publications.c.id)
        order = (sheet_publications.c.published_at, sheet_publications.c.id)
        query = _LISTING.add_columns(
            func.row_number()
            .over(partition_by=(sheet_publications.c.edition_key, publisher), order_by=order)
            .label("turn"),
            func.row_number().over(partition_by=publisher, order_by=order).label("game_turn"),
        ).where(sheet_publications.c.game == game)
        if edition is not None:
            query = query.where(sheet_publications.c.edition_key == edition_key(edition))
        ranked = query.subquery()
        place = func.row_number().over(
            partition_by=ranked.c.edition_key,
            order_by=(ranked.c.confirmations.desc(), ranked.c.turn, ranked.c.published_at, ranked.c.id),
        )
        placed = select(ranked, place.label("place")).subquery()
        if edition is not None:
            limit = limit or MAX_LISTED
            window = (placed.c.place > after) & (placed.c.place <= after + limit + 1)
        else:
            limit = limit or MAX_EDITIONS
            window = placed.c.place <= PER_EDITION
        final = select(placed).where(window).order_by(placed.c.edition_key, placed.c.place)
        with read_connection(self.engine) as conn:
            rows = conn.execute(final).mappings().all()
        groups: dict[str, list[Publication]] = {}
        turns: dict[str, int] = {}
        for row in rows:
            groups.setdefault(row["edition_key"], []).append(_publication(row))
            turns[row["edition_key"]] = min(turns.get(row["edition_key"], row["game_turn"]), row["game_turn"])
        ordered = sorted(
            groups.items(),
            key=lambda item: (
                -sum(p.confirmations for p in item[1]),
                turns[item[0]],
                min(p.published_at for p in item[1]),
                item[1][0].edition.casefold(),
            ),
        )
        editions = [
            {
                "edition": min(group, key=lambda p: p.published_at).edition,
                "confirmations": sum(p.confirmations for p in group),
                "publications": group,
                "disagreements": disagreements([kind.entries(p.data) for p in group]),
            }
            for _key, group in ordered
        ]
        if edition is not None:
            if not editions:
                return [], None
            listed = editions[0]["publications"]
            more = len(listed) > limit
            editions[0]["publications"] = listed[:limit]
            editions[0]["disagreements"] = disagreements([kind.entries(p.data) for p in listed[:limit]])
            return editions, (after + limit if more else None)
        more = len(editions) > after + limit
        return editions[after : after + limit], (after + limit if more else None)


def disagreements(sheets: Sequence[Mapping[str, int | None]]) -> list[str]:
    """Entries that two publications both have, with different numbers."""
    if not sheets:
        return []
    return [
        label
        for label in sheets[0]
        if len({sheet[label] for sheet in sheets if sheet.get(label) is not None}) > 1
    ]


def publication_view(publication: Publication) -> dict[str, Any]:
    return {
        "id": publication.id,
        "game": publication.game,
        "edition": publication.edition,
        "data": publication.data,
        "filled": publication.filled,
        "confirmations": publication.confirmations,
        "tables": publication.tables,
        "published_at": publication.published_at,
        "last_confirmed_at": publication.last_confirmed_at,
    }
