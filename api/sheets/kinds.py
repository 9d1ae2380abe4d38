"""Which games have board sheets, and how each validates one (the rules own the format)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from api.errors import ApiProblem
from api.rules.magellan import sheet as magellan_sheet


@dataclass(frozen=True)
class SheetKind:
    blank: Callable[[], dict[str, Any]]
    normalize: Callable[[Mapping[str, Any]], dict[str, Any]]
    missing: Callable[[Mapping[str, Any]], list[str]]


def _magellan_missing(data: Mapping[str, Any]) -> list[str]:
    """Entries still empty for either side of any explorer (a table needs only its own sides)."""
    sheet = magellan_sheet.parse_sheet(data)
    explorers = list(magellan_sheet.blank_sheet()["explorers"])
    missing: list[str] = []
    for side in ("A", "B"):
        missing += magellan_sheet.missing_entries(sheet, {explorer: side for explorer in explorers})
    return missing


SHEET_KINDS: dict[str, SheetKind] = {
    "magellan": SheetKind(
        blank=magellan_sheet.blank_sheet,
        normalize=lambda data: magellan_sheet.sheet_json(magellan_sheet.parse_sheet(data)),
        missing=_magellan_missing,
    ),
}


def sheet_kind(game: str) -> SheetKind:
    kind = SHEET_KINDS.get(game)
    if kind is None:
        raise ApiProblem(
            422, "no-board-sheets", f"{game!r} has no board sheets; only {', '.join(SHEET_KINDS)} does."
        )
    return kind
