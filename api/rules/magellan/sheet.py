"""Board sheets (MG-2): the money bags and crowns printed on each explorer's fields.

The numbers are on the players' own boards, not in the rule text, so the software never invents
them: a sheet starts all null and players type the numbers in once. Numbers a rule fixes are rules,
not sheet data (they are accepted in the JSON shape but never asked for and never used):
Magellan's fields score through the slid money cards (MG-2, MG-10 Example), a ship on Vasco da Gama
side B's left part scores no crowns (MG-8, MG-10), and the ship on Pizarro side B field III scores
the Pizarro draw instead (MG-11).

JSON shape: `{"explorers": {<explorer>: {"A": {"I": {"bags": n, "crowns": n}, "II": …, "III": …},
"B": …}}}`, where Vasco da Gama side B has `{"left": {…}, "right": {…}}` per field; every number is
a whole number 0–99 or null. Omitted parts of the shape read as null.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from api.rules.errors import InvalidSetup, say
from api.rules.magellan.constants import EXPLORER_NAMES, EXPLORERS, FIELDS, PARTS, ROMAN, SIDES
from api.rules.magellan.powers import POWERS

WHATS = ("bags", "crowns")
MAX_NUMBER = 99

#: (explorer, side, field, part, "bags" | "crowns"); part is "left"/"right" only for Vasco side B.
Slot = tuple[str, str, int, str | None, str]


def parts_of(explorer: str, side: str) -> tuple[str | None, ...]:
    """Vasco da Gama side B fields have a left and a right part (MG-2, MG-8); other fields are whole."""
    return PARTS if POWERS[explorer, side, 1].part_choice else (None,)


SLOTS: tuple[Slot, ...] = tuple(
    (explorer, side, field, part, what)
    for explorer in EXPLORERS
    for side in SIDES
    for field in FIELDS
    for part in parts_of(explorer, side)
    for what in WHATS
)
_INDEX = {slot: i for i, slot in enumerate(SLOTS)}


def crowns_fixed_by_rule(explorer: str, side: str, field: int, part: str | None) -> str | None:
    """Why a field's crowns are not sheet data (the rule scores it otherwise), or None."""
    crowns = POWERS[explorer, side, field].crowns
    if crowns == "slid-cards":
        return "Magellan scores through the money cards slid under him, not field crowns (MG-2, MG-10)"
    if crowns == "right-part" and part == "left":
        return "a ship on Vasco da Gama's left part scores no crowns (MG-8, MG-10)"
    if crowns == "pizarro-draw":
        return "the ship on Pizarro side B field III scores the Pizarro draw instead (MG-11)"
    return None


def label(slot: Slot) -> str:
    """Human-readable, e.g. "Cook side B field II: crowns"."""
    explorer, side, field, part, what = slot
    where = f"{EXPLORER_NAMES[explorer]} side {side} field {ROMAN[field]}"
    if part is not None:
        where += f" {part} part"
    return f"{where}: {what}"


@dataclass(frozen=True)
class BoardSheet:
    """One value (or None: not entered yet) per slot of SLOTS."""

    values: tuple[int | None, ...]

    def get(self, explorer: str, side: str, field: int, part: str | None, what: str) -> int | None:
        return self.values[_INDEX[(explorer, side, field, part, what)]]

    def bags(self, explorer: str, side: str, field: int, part: str | None) -> int | None:
        return self.get(explorer, side, field, part, "bags")

    def crowns(self, explorer: str, side: str, field: int, part: str | None) -> int | None:
        """Crowns a ship there scores: 0 where a rule fixes it (see crowns_fixed_by_rule)."""
        if crowns_fixed_by_rule(explorer, side, field, part) is not None:
            return 0
        return self.get(explorer, side, field, part, "crowns")


BLANK = BoardSheet(values=(None,) * len(SLOTS))


def blank_sheet() -> dict[str, Any]:
    """The full JSON shape with every number null (MG-2 Decision: nothing invented)."""
    return sheet_json(BLANK)


def sheet_json(sheet: BoardSheet) -> dict[str, Any]:
    explorers: dict[str, Any] = {}
    for explorer in EXPLORERS:
        sides: dict[str, Any] = {}
        for side in SIDES:
            fields: dict[str, Any] = {}
            for field in FIELDS:
                parts = {
                    part: {what: sheet.get(explorer, side, field, part, what) for what in WHATS}
                    for part in parts_of(explorer, side)
                }
                fields[ROMAN[field]] = parts.get(None, parts)
            sides[side] = fields
        explorers[explorer] = sides
    return {"explorers": explorers}


def _bad(detail: str) -> InvalidSetup:
    return InvalidSetup("invalid-board-sheet", say("Board sheet: {detail}", detail=detail), "MG-2")


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _bad(f"{where} must be an object.")
    return value


def _keys(node: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    allowed = list(allowed)
    unknown = sorted(str(k) for k in node if k not in allowed)
    if unknown:
        raise _bad(f"{where} has unknown entries {', '.join(unknown)}; expected {', '.join(allowed)}.")


def parse_sheet(data: Any) -> BoardSheet:
    """Validate the JSON shape; omitted entries are null. InvalidSetup `invalid-board-sheet` otherwise."""
    root = _object(data, "The sheet")
    _keys(root, ["explorers"], "The sheet")
    explorers = _object(root.get("explorers"), '"explorers"')
    _keys(explorers, EXPLORERS, '"explorers"')
    values: list[int | None] = list(BLANK.values)
    for explorer in EXPLORERS:
        name = EXPLORER_NAMES[explorer]
        sides = _object(explorers.get(explorer), name)
        _keys(sides, SIDES, name)
        for side in SIDES:
            fields = _object(sides.get(side), f"{name} side {side}")
            _keys(fields, (ROMAN[f] for f in FIELDS), f"{name} side {side}")
            for field in FIELDS:
                where = f"{name} side {side} field {ROMAN[field]}"
                node = _object(fields.get(ROMAN[field]), where)
                parts = parts_of(explorer, side)
                if parts != (None,):
                    _keys(node, PARTS, where)
                for part in parts:
                    part_where = where if part is None else f"{where} {part} part"
                    leaf = node if part is None else _object(node.get(part), part_where)
                    _keys(leaf, WHATS, part_where)
                    for what in WHATS:
                        value = leaf.get(what)
                        if value is not None and (
                            isinstance(value, bool)
                            or not isinstance(value, int)
                            or not 0 <= value <= MAX_NUMBER
                        ):
                            raise _bad(
                                f"{part_where}: {what} must be a whole number from 0 to {MAX_NUMBER}, "
                                f"or null while not entered; got {value!r}."
                            )
                        values[_INDEX[(explorer, side, field, part, what)]] = value
    return BoardSheet(values=tuple(values))


def side_map(sides: Mapping[str, str]) -> dict[str, str]:
    """Sides per explorer, "A" where not given."""
    return {explorer: sides.get(explorer, "A") for explorer in EXPLORERS}


def needed_slots(sides: Mapping[str, str]) -> list[Slot]:
    """Every entry a game with these sides can need: all bags, and the crowns no rule fixes."""
    chosen = side_map(sides)
    return [
        slot
        for slot in SLOTS
        if slot[1] == chosen[slot[0]]
        and not (slot[4] == "crowns" and crowns_fixed_by_rule(slot[0], slot[1], slot[2], slot[3]))
    ]


def missing_entries(
    sheet: BoardSheet, sides: Mapping[str, str], slots: Iterable[Slot] | None = None
) -> list[str]:
    """Labels of the entries still null among `slots` (default: everything these sides need)."""
    wanted = needed_slots(sides) if slots is None else list(dict.fromkeys(slots))
    return [label(slot) for slot in wanted if sheet.values[_INDEX[slot]] is None]


def form_json() -> dict[str, Any]:
    """Every entry of each explorer's side in the form's order, as the phone builds its sheet form
    and board from: field, part, bags or crowns, the label `missing_entries` names it by, and where a
    rule fixes the crowns the kind of crowns it scores instead (the `powers` name). The phone reads
    this instead of knowing MG-2 itself."""
    form: dict[str, Any] = {}
    for explorer, side, field, part, what in SLOTS:
        fixed = what == "crowns" and crowns_fixed_by_rule(explorer, side, field, part) is not None
        form.setdefault(explorer, {}).setdefault(side, []).append(
            {
                "field": field,
                "part": part,
                "what": what,
                "label": label((explorer, side, field, part, what)),
                "fixed": POWERS[explorer, side, field].crowns if fixed else None,
            }
        )
    return form


def rule_fixed_entries(sides: Mapping[str, str]) -> list[dict[str, str]]:
    """The crowns entries a rule fixes for these sides, with the reason (shown beside the form)."""
    chosen = side_map(sides)
    fixed: list[dict[str, str]] = []
    for explorer, side, field, part, what in SLOTS:
        reason = crowns_fixed_by_rule(explorer, side, field, part)
        if what == "crowns" and side == chosen[explorer] and reason is not None:
            fixed.append({"entry": label((explorer, side, field, part, what)), "reason": reason})
    return fixed
