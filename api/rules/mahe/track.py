"""Where the turtles are and how stacks move (MA-5) or bust back to the raft (MA-6).

One implementation serves the engine, the legal-action previews and the stateless move calculator,
so all three always agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from api.rules.mahe.constants import BEACH_FIELD, FIELDS, RAFT, TURTLE_COLOURS

Stack = tuple[str, ...]


def palette_order(turtles: Iterable[str]) -> Stack:
    """Raft turtles never stack (MA-6), so the raft is kept in palette order."""
    return tuple(sorted(turtles, key=TURTLE_COLOURS.index))


@dataclass(frozen=True)
class Position:
    """The raft plus 21 stacks; `track[i]` is field i + 1, listed bottom → top."""

    raft: Stack
    track: tuple[Stack, ...]

    @staticmethod
    def start(turtles: Iterable[str]) -> Position:
        """MA-2: every turtle starts on the raft."""
        return Position(raft=palette_order(turtles), track=((),) * FIELDS)

    def turtles(self) -> list[str]:
        """Every turtle in play, raft first, then the track field by field bottom → top."""
        return [*self.raft, *(t for stack in self.track for t in stack)]

    def where(self, turtle: str) -> tuple[int, int]:
        """(field, height): field 0 is the raft (height 0 there), height 0 is the bottom of a stack."""
        if turtle in self.raft:
            return RAFT, 0
        for index, stack in enumerate(self.track):
            if turtle in stack:
                return index + 1, stack.index(turtle)
        raise KeyError(turtle)

    def moving_stack(self, turtle: str) -> Stack:
        """MA-5: the turtle and every turtle above it, order kept."""
        field, height = self.where(turtle)
        return (turtle,) if field == RAFT else self.track[field - 1][height:]

    def below(self, turtle: str) -> Stack:
        """MA-5/MA-6: the turtles under the mover, which stay behind."""
        field, height = self.where(turtle)
        return () if field == RAFT else self.track[field - 1][:height]

    def topmost(self, turtle: str) -> str:
        """MA-4/MA-7: the topmost turtle of the stack `turtle` would move (itself if nothing is on it)."""
        return self.moving_stack(turtle)[-1]

    def lift(self, turtle: str) -> tuple[Position, Stack, Stack, int]:
        """Lift the moving stack off its field: (rest, moving stack, left behind, start field)."""
        field, _ = self.where(turtle)
        moving, behind = self.moving_stack(turtle), self.below(turtle)
        if field == RAFT:
            rest = Position(tuple(t for t in self.raft if t != turtle), self.track)
        else:
            track = list(self.track)
            track[field - 1] = behind
            rest = Position(self.raft, tuple(track))
        return rest, moving, behind, field


def destination(start: int, distance: int) -> int:
    """MA-5: raft d → field d; field p → ((p − 1 + d) mod 21) + 1 (the raft counts as p = 0)."""
    return ((start - 1 + distance) % FIELDS) + 1


def passes_beach(start: int, distance: int) -> bool:
    """MA-7: the move enters or passes field 21 (raft: d = 21; p ≤ 20: p + d ≥ 21; p = 21: d = 21)."""
    steps_to_beach = FIELDS if start == BEACH_FIELD else BEACH_FIELD - start
    return distance >= steps_to_beach


@dataclass(frozen=True)
class Step:
    """What one move did to the board, independent of cards and owners."""

    turtle: str
    start: int
    to: int
    carried: Stack
    left_behind: Stack
    bust: bool
    passed_beach: bool
    top: str  # topmost turtle of the moving stack: its owner decides (MA-4) and takes the card (MA-7)


def move(position: Position, turtle: str, distance: int) -> tuple[Position, Step]:
    """MA-5: carry the stack `distance` fields; land on top of whatever stands there.

    Lifting the stack before landing means a 21-field move lands back on top of the turtles it left.
    """
    rest, moving, behind, start = position.lift(turtle)
    to = destination(start, distance)
    track = list(rest.track)
    track[to - 1] = track[to - 1] + moving
    step = Step(turtle, start, to, moving[1:], behind, False, passes_beach(start, distance), moving[-1])
    return Position(rest.raft, tuple(track)), step


def bust(position: Position, turtle: str) -> tuple[Position, Step]:
    """MA-6: the turtle and all above it go back to the raft (no stacking there); those below stay."""
    rest, moving, behind, start = position.lift(turtle)
    new = Position(palette_order((*rest.raft, *moving)), rest.track)
    return new, Step(turtle, start, RAFT, moving[1:], behind, True, False, moving[-1])
