"""The library of board sheets (MG-2): numbers typed in at one table, shared with every group that
owns the same edition of the game.

MG-2 Decision: the software never invents a printed value. The library only passes on numbers that
players typed in from their own board: a sheet is *published* for an edition (the printed board it
was typed from) by whoever holds its edit token, and a table that plays with those numbers
*confirms* them when its players found them equal to their own board. A publication's count is the
number of distinct tables that confirmed it — a table counts once, however often it confirms.

Publications of one edition whose numbers differ in any entry (a misprint, a typo, another print
run) are kept apart, each with its own numbers and its own count; they are never merged, and the
listing names the entries they disagree on so people can look at their board.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from api.db.engine import read_connection, write_transaction
from api.db.schema import sheet_confirmations, sheet_publications
from api.errors import ApiProblem
from api.sheets.kinds import sheet_kind
from api.sheets.store import SheetRow
from api.tables.tokens import is_our_id, new_table_id

MAX_LISTED = 200  # publications in one listing answer, the most confirmed first


@dataclass(frozen=True)
class Publication:
    id: str
    game: str
    edition: str
    data: dict[str, Any]
    filled: int
    confirmations: int
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


_COUNTS = (
    select(
        sheet_confirmations.c.publication_id,
        func.count().label("confirmations"),
        func.max(sheet_confirmations.c.confirmed_at).label("last_confirmed_at"),
    )
    .group_by(sheet_confirmations.c.publication_id)
    .subquery()
)
_LISTING = select(
    sheet_publications,
    func.coalesce(_COUNTS.c.confirmations, 0).label("confirmations"),
    _COUNTS.c.last_confirmed_at,
).select_from(sheet_publications.outerjoin(_COUNTS, _COUNTS.c.publication_id == sheet_publications.c.id))


def _publication(row: Mapping[str, Any]) -> Publication:
    return Publication(
        id=row["id"],
        game=row["game"],
        edition=row["edition"],
        data=row["data"],
        filled=row["filled"],
        confirmations=int(row["confirmations"]),
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


class SheetLibrary:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def publish(self, sheet: SheetRow, edition: str) -> tuple[Publication, bool]:
        """Publish a sheet's numbers for `edition`; (publication, True) when new. The same numbers
        published again for the same edition are the same publication (False); other numbers are a
        publication of their own, never merged."""
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
        }
        with write_transaction(self.engine) as conn:
            created = _insert_new(conn, sheet_publications, values)
            row = (
                conn.execute(
                    _LISTING.where(
                        sheet_publications.c.game == sheet.game,
                        sheet_publications.c.edition_key == key,
                        sheet_publications.c.fingerprint == digest,
                    )
                )
                .mappings()
                .one()
            )
        return _publication(row), created

    def get(self, publication_id: str) -> Publication:
        if not is_our_id(publication_id):
            raise publication_not_found(publication_id)
        with read_connection(self.engine) as conn:
            row = conn.execute(_LISTING.where(sheet_publications.c.id == publication_id)).mappings().first()
        if row is None:
            raise publication_not_found(publication_id)
        return _publication(row)

    def confirm(
        self, publication_id: str, table_id: str, table_game: str, table_state: Mapping[str, Any]
    ) -> tuple[Publication, bool]:
        """A table (whose token the caller checked) confirms a publication: every number in it is on
        the table's own sheet, equal. (publication, True) when this table counted for the first time."""
        publication = self.get(publication_id)
        if table_game != publication.game:
            raise ApiProblem(
                422, "wrong-game", "This table plays another game than the published board sheet."
            )
        kind = sheet_kind(publication.game)
        theirs = kind.entries(kind.of_table(table_state))
        differing = [
            label
            for label, value in kind.entries(publication.data).items()
            if value is not None and theirs.get(label) != value
        ]
        if differing:
            raise ApiProblem(
                409,
                "sheet-disagrees",
                "The table's board sheet does not have these numbers as published; only a table "
                "that plays with the same numbers can confirm them (MG-2).",
                entries=differing,
            )
        with write_transaction(self.engine) as conn:
            counted = _insert_new(
                conn,
                sheet_confirmations,
                {"publication_id": publication_id, "table_id": table_id, "confirmed_at": datetime.now(UTC)},
            )
        return self.get(publication_id), counted

    def listing(self, game: str, edition: str | None = None) -> list[dict[str, Any]]:
        """Publications of a game grouped by edition, the most confirmed edition and publication
        first; each edition names the entries its publications disagree on."""
        kind = sheet_kind(game)
        query = _LISTING.where(sheet_publications.c.game == game)
        if edition is not None:
            query = query.where(sheet_publications.c.edition_key == edition_key(edition))
        query = query.order_by(
            func.coalesce(_COUNTS.c.confirmations, 0).desc(),
            sheet_publications.c.published_at,
            sheet_publications.c.id,
        ).limit(MAX_LISTED)
        with read_connection(self.engine) as conn:
            rows = conn.execute(query).mappings().all()
        groups: dict[str, list[Publication]] = {}
        for row in rows:
            groups.setdefault(row["edition_key"], []).append(_publication(row))
        editions = [
            {
                "edition": min(group, key=lambda p: p.published_at).edition,
                "confirmations": sum(p.confirmations for p in group),
                "publications": group,
                "disagreements": disagreements([kind.entries(p.data) for p in group]),
            }
            for group in groups.values()
        ]
        editions.sort(key=lambda e: (-e["confirmations"], e["edition"].casefold()))
        return editions


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
        "published_at": publication.published_at,
        "last_confirmed_at": publication.last_confirmed_at,
    }
