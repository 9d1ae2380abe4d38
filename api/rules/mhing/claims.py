"""MH-4 claims on the last discard: who takes the turn, and who is skipped.

Going out beats a triplet, a triplet beats a sequence; among equal claims the claimant nearest
after the discarder in seat order wins. The claimant takes the turn and the players sitting between
the discarder and the claimant are skipped. With no claim the next player simply draws.

A claim to go out may carry the claimant's hand, the discard included: it is then checked that the
discard really completes it — never the exceptional hand, which no discard completes (MH-3, MH-7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, say, term
from api.rules.mhing.hand import hand_from_json
from api.rules.mhing.scoring import NOTHING_FITS_ON_DISCARD, score_hand

KINDS = ("out", "triplet", "sequence")  # strongest first (MH-4)
MIN_SEATS, MAX_SEATS = 2, 6
_WORDS = {"out": "going out", "triplet": "a triplet", "sequence": "a sequence"}


@dataclass(frozen=True)
class Claim:
    seat: int
    kind: str


@dataclass(frozen=True)
class Resolution:
    taker: Claim | None
    next_seat: int
    skipped: tuple[int, ...]
    ranked: tuple[Claim, ...]
    explanation: str


def _seat(value: Any, what: str, seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedEvent("invalid-seat", say("The {what} must be a seat number.", what=what), "MH-4")
    if not 0 <= value < seats:
        raise IllegalMove(
            "no-such-seat",
            say(
                "The {what} {value} is not a seat: seats are 0 to {value2}.",
                what=what,
                value=value,
                value2=seats - 1,
            ),
            "MH-4",
        )
    return value


def parse_claims(discarder: Any, seats: Any, claims: Any) -> tuple[int, int, tuple[Claim, ...]]:
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise IllegalMove("invalid-seat-count", "Mhing is for 2 to 6 players (MH-1).", "MH-1")
    who = _seat(discarder, term("discarder"), seats)
    if not isinstance(claims, Sequence) or isinstance(claims, str):
        raise MalformedEvent("invalid-claims", "Claims must be a list of {seat, kind}.", "MH-4")
    parsed: list[Claim] = []
    for raw in claims:
        if not isinstance(raw, Mapping):
            raise MalformedEvent("invalid-claims", "Each claim must be an object with seat and kind.", "MH-4")
        seat = _seat(raw.get("seat"), term("claimant's seat"), seats)
        kind = raw.get("kind")
        if kind not in KINDS:
            raise MalformedEvent(
                "unknown-claim-kind",
                say("A claim is 'out', 'triplet' or 'sequence', not {kind} (MH-4).", kind=repr(kind)),
                "MH-4",
            )
        if seat == who:
            raise IllegalMove("own-discard", "Nobody can claim their own discard (MH-4).", "MH-4")
        if any(c.seat == seat for c in parsed):
            raise IllegalMove(
                "duplicate-claim",
                say("Seat {seat} claims twice; one claim per player (MH-4).", seat=seat),
                "MH-4",
            )
        if raw.get("hand") is not None:
            _check_going_out(seat, str(kind), raw["hand"])
        parsed.append(Claim(seat, str(kind)))
    return who, seats, tuple(parsed)


def _check_going_out(seat: int, kind: str, hand: Any) -> None:
    """A claim to go out with its hand (discard included): the discard must complete it (MH-3, MH-4)."""
    if kind != "out":
        raise MalformedEvent(
            "hand-only-when-going-out", "Only a claim to go out carries the claimant's hand (MH-4).", "MH-4"
        )
    score = score_hand(hand_from_json(hand, discard=True))
    if score.wins:
        return
    code = (
        NOTHING_FITS_ON_DISCARD if score.reason_code == NOTHING_FITS_ON_DISCARD else "claim-does-not-go-out"
    )
    raise IllegalMove(
        code,
        say("Seat {seat} cannot go out on this discard: {reason}", seat=seat, reason=score.reason),
        "MH-3" if code == NOTHING_FITS_ON_DISCARD else "MH-4",
    )


def resolve(discarder: int, seats: int, claims: Sequence[Claim]) -> Resolution:
    """The MH-4 ruling for validated claims."""

    def distance(seat: int) -> int:
        return (seat - discarder) % seats

    ranked = tuple(sorted(claims, key=lambda c: (KINDS.index(c.kind), distance(c.seat))))
    if not ranked:
        nxt = (discarder + 1) % seats
        return Resolution(None, nxt, (), (), f"No claim: seat {nxt} draws from the stack (MH-3).")
    taker = ranked[0]
    skipped = tuple((discarder + step) % seats for step in range(1, distance(taker.seat)))
    equal = [c for c in ranked[1:] if c.kind == taker.kind]
    weaker = sorted({c.kind for c in ranked[1:] if c.kind != taker.kind}, key=KINDS.index)
    why = f"Seat {taker.seat} takes the discard for {_WORDS[taker.kind]}"
    if weaker:
        why += f", which beats {' and '.join(_WORDS[k] for k in weaker)}"
    if equal:
        why += f"; of the equal claims it sits nearest after seat {discarder}"
    why += " (MH-4)."
    if skipped:
        why += f" Skipped: seat{'s' if len(skipped) > 1 else ''} {', '.join(map(str, skipped))}."
    return Resolution(taker, taker.seat, skipped, ranked, why)


def resolve_json(discarder: Any, seats: Any, claims: Any) -> dict[str, Any]:
    who, count, parsed = parse_claims(discarder, seats, claims)
    ruling = resolve(who, count, parsed)
    return {
        "taker": None if ruling.taker is None else {"seat": ruling.taker.seat, "kind": ruling.taker.kind},
        "next_seat": ruling.next_seat,
        "skipped": list(ruling.skipped),
        "ranked": [{"seat": c.seat, "kind": c.kind} for c in ruling.ranked],
        "explanation": ruling.explanation,
    }
