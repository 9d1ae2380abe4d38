"""Create, read and update named board sheets; updates need the sheet's edit token."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, insert, select, update

from api.db.engine import read_connection, write_transaction
from api.db.schema import board_sheets
from api.errors import ApiProblem
from api.sheets.kinds import SheetKind, sheet_kind
from api.tables.tokens import hash_token, is_our_id, new_table_id, new_write_token, token_matches


@dataclass(frozen=True)
class SheetRow:
    id: str
    game: str
    name: str
    data: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime


def _utc(moment: datetime) -> datetime:
    """SQLite hands timestamps back without their zone; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _row(mapping: Mapping[Any, Any]) -> SheetRow:
    return SheetRow(
        id=mapping["id"],
        game=mapping["game"],
        name=mapping["name"],
        data=mapping["data"],
        version=mapping["version"],
        created_at=_utc(mapping["created_at"]),
        updated_at=_utc(mapping["updated_at"]),
    )


def sheet_not_found(sheet_id: str) -> ApiProblem:
    return ApiProblem(404, "sheet-not-found", f"There is no board sheet with the id {sheet_id!r}.")


class SheetStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, game: str, name: str, data: Mapping[str, Any]) -> tuple[SheetRow, str]:
        kind = sheet_kind(game)
        values = {
            "id": new_table_id(),
            "game": game,
            "name": name,
            "data": kind.normalize(data),
            "version": 1,
            "created_at": datetime.now(UTC),
        }
        values["updated_at"] = values["created_at"]
        token = new_write_token()
        with write_transaction(self.engine) as conn:
            conn.execute(insert(board_sheets).values(**values, edit_token_hash=hash_token(token)))
        return _row(values), token

    def get(self, sheet_id: str) -> SheetRow:
        if not is_our_id(sheet_id):
            raise sheet_not_found(sheet_id)
        with read_connection(self.engine) as conn:
            row = conn.execute(select(board_sheets).where(board_sheets.c.id == sheet_id)).mappings().first()
        if row is None:
            raise sheet_not_found(sheet_id)
        return _row(row)

    def with_token(self, sheet_id: str, token: str | None) -> SheetRow:
        """The sheet, for the holder of its edit token only (401 without one, 403 for another)."""
        with read_connection(self.engine) as conn:
            return _row(_held_row(conn, sheet_id, token))

    def update(
        self,
        sheet_id: str,
        token: str | None,
        name: str,
        data: Mapping[str, Any],
        expected_version: int,
    ) -> SheetRow:
        with write_transaction(self.engine) as conn:
            row = _held_row(conn, sheet_id, token)
            if row["version"] != expected_version:
                raise _stale(row["version"], expected_version)
            normalized = sheet_kind(row["game"]).normalize(data)
            # Compare-and-swap: of several writers that read the same version, exactly one matches
            # here; the others find the version moved on (PostgreSQL re-checks the row after the
            # winner commits) and change nothing.
            written = {
                "name": name,
                "data": normalized,
                "version": expected_version + 1,
                "updated_at": datetime.now(UTC),
            }
            changed = conn.execute(
                update(board_sheets)
                .where(and_(board_sheets.c.id == sheet_id, board_sheets.c.version == expected_version))
                .values(**written)
            ).rowcount
            if changed != 1:
                raise _stale(expected_version + 1, expected_version)
        # The winner's answer is what it wrote, not a re-read a later writer may already have moved on.
        return _row({**row, **written})


def _stale(current: int, expected: int) -> ApiProblem:
    return ApiProblem(
        409,
        "stale-version",
        f"The sheet was changed meanwhile (version {current}, you had {expected}); "
        "reload it and enter your change again.",
    )


def sheet_view(sheet: SheetRow) -> dict[str, Any]:
    kind: SheetKind = sheet_kind(sheet.game)
    return {
        "id": sheet.id,
        "game": sheet.game,
        "name": sheet.name,
        "version": sheet.version,
        "data": sheet.data,
        "missing": kind.missing(sheet.data),
        "complete": not kind.missing(sheet.data),
        "created_at": sheet.created_at,
        "updated_at": sheet.updated_at,
    }


def _held_row(conn: Any, sheet_id: str, token: str | None) -> Any:
    """The sheet's row, for the holder of its edit token only (404 unknown, 401 without a token,
    403 for another): reading it for the library and changing it check alike."""
    if not is_our_id(sheet_id):
        raise sheet_not_found(sheet_id)
    row = conn.execute(select(board_sheets).where(board_sheets.c.id == sheet_id)).mappings().first()
    if row is None:
        raise sheet_not_found(sheet_id)
    if not token:
        raise ApiProblem(401, "edit-token-required", "Changing a sheet needs its edit token.")
    if not token_matches(token, row["edit_token_hash"]):
        raise ApiProblem(403, "bad-edit-token", "This edit token does not belong to this sheet.")
    return row
