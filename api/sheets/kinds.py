"""Which games have board sheets, and how each validates one (the rules own the format)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from api.errors import ApiProblem


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


@cache
def sheet_kinds() -> dict[str, SheetKind]:
    """The games with board sheets (api.games.server.GameServer.sheet_kind), by API name."""
    from api.games import servers  # the game packages import SheetKind from here

    return {name: g.sheet_kind for name, g in servers().items() if g.sheet_kind is not None}


def sheet_kind(game: str) -> SheetKind:
    kind = sheet_kinds().get(game)
    if kind is None:
        raise ApiProblem(
            422, "no-board-sheets", f"{game!r} has no board sheets; only {', '.join(sheet_kinds())} does."
        )
    return kind
