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
    #: Every entry of a (normalized) sheet by its label, None where not typed in: what a library
    #: compares publications and a table's sheet by.
    entries: Callable[[Mapping[str, Any]], dict[str, int | None]]
    #: The sheet a table of this game plays with now, from its stored state.
    of_table: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: Whether a table of this game reached the end of scoring (its sheet's numbers were played).
    scored: Callable[[Mapping[str, Any]], bool]


def _magellan_missing(data: Mapping[str, Any]) -> list[str]:
    """Entries still empty for either side of any explorer (a table needs only its own sides)."""
    sheet = magellan_sheet.parse_sheet(data)
    explorers = list(magellan_sheet.blank_sheet()["explorers"])
    missing: list[str] = []
    for side in ("A", "B"):
        missing += magellan_sheet.missing_entries(sheet, {explorer: side for explorer in explorers})
    return missing


def _magellan_entries(data: Mapping[str, Any]) -> dict[str, int | None]:
    sheet = magellan_sheet.parse_sheet(data)
    return {
        magellan_sheet.label(slot): value
        for slot, value in zip(magellan_sheet.SLOTS, sheet.values, strict=True)
    }


def _magellan_of_table(state: Mapping[str, Any]) -> dict[str, Any]:
    from api.rules.magellan import serial

    return magellan_sheet.sheet_json(serial.load(state).sheet)


def _magellan_scored(state: Mapping[str, Any]) -> bool:
    """MG-10/MG-12: the game is over and scored, every number its scoring needed was on the sheet."""
    from api.rules.magellan import serial

    return serial.load(state).stage == "finished"


SHEET_KINDS: dict[str, SheetKind] = {
    "magellan": SheetKind(
        blank=magellan_sheet.blank_sheet,
        normalize=lambda data: magellan_sheet.sheet_json(magellan_sheet.parse_sheet(data)),
        missing=_magellan_missing,
        entries=_magellan_entries,
        of_table=_magellan_of_table,
        scored=_magellan_scored,
    ),
}


def sheet_kind(game: str) -> SheetKind:
    kind = SHEET_KINDS.get(game)
    if kind is None:
        raise ApiProblem(
            422, "no-board-sheets", f"{game!r} has no board sheets; only {', '.join(SHEET_KINDS)} does."
        )
    return kind
