"""Magellan's board sheets (MG-2) as the sheets store and library handle them (api.sheets.kinds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.magellan import serial, sheet
from api.sheets.kinds import SheetKind


def _missing(data: Mapping[str, Any]) -> list[str]:
    """Entries still empty for either side of any explorer (a table needs only its own sides)."""
    parsed = sheet.parse_sheet(data)
    explorers = list(sheet.blank_sheet()["explorers"])
    missing: list[str] = []
    for side in ("A", "B"):
        missing += sheet.missing_entries(parsed, {explorer: side for explorer in explorers})
    return missing


def _entries(data: Mapping[str, Any]) -> dict[str, int | None]:
    parsed = sheet.parse_sheet(data)
    return {sheet.label(slot): value for slot, value in zip(sheet.SLOTS, parsed.values, strict=True)}


def _of_table(state: Mapping[str, Any]) -> dict[str, Any]:
    return sheet.sheet_json(serial.load(state).sheet)


def _scored(state: Mapping[str, Any]) -> bool:
    """MG-10/MG-12: the game is over and scored, every number its scoring needed was on the sheet."""
    return serial.load(state).stage == "finished"


SHEET_KIND = SheetKind(
    blank=sheet.blank_sheet,
    normalize=lambda data: sheet.sheet_json(sheet.parse_sheet(data)),
    missing=_missing,
    entries=_entries,
    of_table=_of_table,
    scored=_scored,
)
