"""MH-9 settlement of a won round, and when the game is over.

Variant 1: the winner adds the hand's points; the first to reach 500 wins (only the round's winner
gains, so at most one player can reach it in a round).
Variant 2 (2–4 players): everyone starts with 500; every other player pays the winner the hand's
points, the player whose discard completed the hand pays double; nobody pays more than they have,
so balances never go below 0; the game ends when one player holds all the points. A player at 0
stays in the game: they pay nothing more and may still win rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from api.rules.mhing.state import START, TARGET, EndedBy, Payment


@dataclass(frozen=True)
class Settled:
    scores: tuple[int, ...]
    changes: tuple[int, ...]
    payments: tuple[Payment, ...]
    ended_by: EndedBy | None


def settle(variant: int, scores: tuple[int, ...], winner: int, discarder: int | None, points: int) -> Settled:
    seats = len(scores)
    if variant == 1:
        after = tuple(s + (points if seat == winner else 0) for seat, s in enumerate(scores))
        changes = tuple(a - b for a, b in zip(after, scores, strict=True))
        return Settled(after, changes, (), "target" if after[winner] >= TARGET else None)
    payments = []
    for seat in range(seats):
        if seat == winner:
            continue
        owed = points * (2 if seat == discarder else 1)
        payments.append(Payment(seat, owed, min(owed, scores[seat])))
    changes_list = [0] * seats
    for payment in payments:
        changes_list[payment.seat] -= payment.paid
        changes_list[winner] += payment.paid
    after = tuple(s + c for s, c in zip(scores, changes_list, strict=True))
    everything = START * seats
    return Settled(
        after, tuple(changes_list), tuple(payments), "all-points" if after[winner] == everything else None
    )
