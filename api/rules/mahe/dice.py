"""The dice sequence of one move (MA-3, MA-6): when it may go on, must stop, or busts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from api.rules.errors import IllegalMove, say
from api.rules.mahe.constants import DIE_FACES, MAX_DICE, MAX_SUM

Status = Literal["roll", "open", "must-stop", "bust"]


def status(values: Sequence[int]) -> Status:
    """MA-3/MA-6. "roll": the first die is still due; "open": the decider stops or asks for more;
    "must-stop": the move is carried out now; "bust": over 7 after the 2nd or 3rd die."""
    count, total = len(values), sum(values)
    if count == 0:
        return "roll"
    if count == 1:
        return "open"  # a single die can never exceed 7
    if total > MAX_SUM:
        return "bust"
    if count >= MAX_DICE or total == MAX_SUM:
        return "must-stop"  # MA-3 Decision: with exactly 7 a third die always busts, so none is offered
    return "open"


def distance(values: Sequence[int]) -> int:
    """MA-3: the sum of the dice times the number of dice."""
    return sum(values) * len(values)


def bust_chance(values: Sequence[int]) -> float:
    """Chance that one more die busts the move (0 for the first die)."""
    busting = sum(1 for v in DIE_FACES if status([*values, v]) == "bust")
    return round(busting / len(DIE_FACES), 4)


def check_sequence(values: Sequence[int]) -> Status:
    """Refuse dice sequences the rules cannot produce; return the final status."""
    if not values:
        raise IllegalMove("first-die-missing", "A move needs at least the first die (MA-3).", "MA-3")
    if len(values) > MAX_DICE:
        raise IllegalMove("too-many-dice", "A move uses at most three dice (MA-3).", "MA-3")
    for n in range(1, len(values)):
        prefix = status(values[:n])
        if prefix == "bust":
            raise IllegalMove(
                "dice-after-bust",
                say("The sum was already {sum}, over 7: the move busted (MA-6).", sum=sum(values[:n])),
                "MA-6",
            )
        if prefix == "must-stop":
            raise IllegalMove("no-third-die-at-seven", "The sum is already 7: no third die (MA-3).", "MA-3")
    return status(values)
