"""The immutable table state: frozen dataclasses holding tuples, so `apply` never mutates its input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Outcome = Literal["won", "points", "drawn"]
EndedBy = Literal["target", "all-points", "agreement"]

TARGET = 500  # MH-9 variant 1: first to reach 500 wins
# Rounds kept in the state (and so in every read of the table): the latest few. The whole history
# is the log itself and the exported record; a state that grew with it would make every read of a
# long game slower and bigger.
RECENT_ROUNDS = 5
START = 500  # MH-9 variant 2: everyone starts with 500


@dataclass(frozen=True)
class Options:
    """`settlement`: MH-9 variant 1 or 2; `first_seat`: who deals the first round (MH-2)."""

    settlement: int = 1
    first_seat: int = 0


@dataclass(frozen=True)
class Payment:
    """MH-9 variant 2: what a player owed the winner and what they could pay (never below 0)."""

    seat: int
    owed: int
    paid: int


@dataclass(frozen=True)
class Round:
    """One recorded round. `score` is the scorer's full answer when the hand was typed in."""

    number: int
    dealer: int
    outcome: Outcome
    winner: int | None = None
    discarder: int | None = None
    premiums: int | None = None
    points: int = 0
    score: dict[str, Any] | None = None
    payments: tuple[Payment, ...] = ()
    changes: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class MhingState:
    options: Options
    names: tuple[str, ...]
    scores: tuple[int, ...]
    dealer: int
    rounds: tuple[Round, ...] = ()  # the latest RECENT_ROUNDS rounds, oldest first
    ended_by: EndedBy | None = None
    rounds_played: int = 0

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def finished(self) -> bool:
        return self.ended_by is not None

    @property
    def round_number(self) -> int:
        """The number of the round being played (or the last one, once finished)."""
        return self.rounds_played + (0 if self.finished else 1)
