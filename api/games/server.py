"""What the server adds to a game's manifest (api.rules.manifest): the parts that need Flask and
marshmallow. Each game package `api/games/<game>/__init__.py` declares one `SERVER`; api.games finds
it from the game's folder name. Code outside the game packages reads a game through these fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, fields

from api.rules.common.events import Field
from api.rules.manifest import Manifest
from api.sheets.kinds import SheetKind

JSON = dict[str, Any]


@dataclass(frozen=True)
class EventKind:
    """A kind of event field only this game's events have (api.rules.common.events.Field.kind):
    its marshmallow field (given the field's options: required, allow_none, metadata) and an example
    (given the field's smallest value)."""

    field: Callable[[Field, dict[str, Any]], fields.Field]
    example: Callable[[int], Any]


@dataclass(frozen=True)
class GameDocs:
    """The game's view schemas, as the OpenAPI document types a table of it (api.contract.vocabulary)."""

    view: type[Schema]
    legal: type[Schema]
    options: type[Schema]
    options_request: type[Schema]
    result: type[Schema]
    actions: Sequence[type[Schema]]  # one per legal action type, discriminated by `type`
    private: type[Schema] | None = None  # a seat's own view, in a game with secrets
    also: Sequence[type[Schema]] = ()  # registered by name (fields point at them with `x-ref`)
    event_kinds: Mapping[str, EventKind] = field(default_factory=dict)
    masked: Mapping[str, str] = field(default_factory=dict)  # event type → field "hidden" while it runs
    # What each player of `CreateTable` brings (given the generic players array and a named player);
    # None: a name only.
    players: Callable[[JSON, JSON], None] | None = None


# (scores, extra, progress) of one finished table: per seat the final score and the game's own
# figures, and the scores after each step (move, round; empty in a game without steps to chart).
Progress = tuple[tuple[int, ...], tuple[JSON, ...], tuple[tuple[int, ...], ...]]


class GameFiguresSchema(Schema):
    """One player's figures in one game (each game's figures schema adds its own)."""

    games = fields.Integer(strict=True, required=True)
    wins = fields.Integer(strict=True, required=True)
    win_rate = fields.Float(required=True)
    average_score = fields.Float(required=True)
    best_score = fields.Integer(strict=True, allow_none=True, required=True)


@dataclass(frozen=True)
class GameStatistics:
    """What a group counts of the game's finished tables (api.groups): the facts kept per seat and
    what they add up to, both kept as counters (api.groups.figures) and recounted (api.groups.history,
    the oracle). `game` arguments are api.groups.facts.GameFacts."""

    # The facts from the states the log went through, the result and the events in effect.
    facts: Callable[[Sequence[Any], JSON, Sequence[Mapping[str, Any]], int], Progress]
    imported_extra: Callable[[int], JSON]  # a seat's figures as far as an imported score says them
    add_summary: Callable[[JSON, Any, int], None]  # a table into (1) or out of (-1) the game's counters
    add_player: Callable[[JSON, Mapping[str, Any], int], None]  # one seat's extra into its player's
    player_figures: Callable[[Mapping[str, Any], int], JSON]  # from a player's counters and games
    summary_figures: Callable[[Mapping[str, Any]], JSON]  # from the game's counters
    recount_player: Callable[[Sequence[Mapping[str, Any]]], JSON]  # from the player's seats' extras
    recount_summary: Callable[[Sequence[Any]], JSON]  # from the game's facts
    record: str  # the player's record at this game (`kind` of a player page's record)
    record_value: Callable[[Any, int], int]  # what one seat of a finished table sets it to
    figures_schema: type[Schema]
    summary_schema: type[Schema]


@dataclass(frozen=True)
class GameServer:
    """A game as the server hosts it."""

    manifest: Manifest
    docs: GameDocs
    operation_ids: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (path, method) → id
    problem_texts: Mapping[tuple[str, str, int], str] = field(default_factory=dict)  # (path, method, status)
    examples: Callable[[], JSON] | None = None  # an answer per own operation id, for the document
    passed_on: frozenset[tuple[str, str]] = frozenset()  # api.contract.problem_codes.PASSED_ON
    statistics: GameStatistics | None = None
    sheet_kind: SheetKind | None = None  # board sheets of the game's printed numbers (Magellan MG-2)
