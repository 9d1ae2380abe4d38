"""`apply`: one recorded round (or the end of the game) → the next state.

MH-2: the deal passes to the next seat after every round. **Decision (Kibitz):** also after a drawn
round — the rule says the deal passes "each round" and makes no exception for a round nobody won
(unlike Mah-Jongg, where the dealer keeps the deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, say
from api.rules.mhing import events
from api.rules.mhing.hand import hand_from_json
from api.rules.mhing.scoring import NOTHING_FITS_ON_DISCARD, score_hand, score_json
from api.rules.mhing.settlement import settle
from api.rules.mhing.state import RECENT_ROUNDS, MhingState, Round


def _next_round(state: MhingState, played: Round, ended_by: Any = None) -> MhingState:
    return replace(
        state,
        scores=played.scores,
        dealer=(state.dealer + 1) % state.seats,
        rounds=(*state.rounds, played)[-RECENT_ROUNDS:],
        rounds_played=state.rounds_played + 1,
        ended_by=ended_by,
    )


def _won(state: MhingState, event: Mapping[str, Any], kind: str) -> MhingState:
    winner, discarder = events.winner_and_discarder(event, state.seats)
    score_answer = None
    premiums: int | None
    if kind == "round_won":
        raw = event.get("hand")
        if raw is None:
            raise MalformedEvent("hand-required", "Type in the winner's hand (MH-10 notation).", "MH-10")
        if isinstance(raw, Mapping) and "discard" in raw and raw["discard"] != (discarder is not None):
            raise IllegalMove(
                "discard-mismatch",
                say(
                    "The hand says the last card was {value}, the event says otherwise; name the discarder "
                    "only when the last card was a discard (MH-9).",
                    value="a discard" if raw["discard"] else "drawn",
                ),
                "MH-9",
            )
        score = score_hand(hand_from_json(raw, discard=discarder is not None))
        if score.reason_code == NOTHING_FITS_ON_DISCARD and score.reason:  # MH-3 Decision, MH-7
            raise IllegalMove(NOTHING_FITS_ON_DISCARD, score.reason, "MH-3")
        if not score.wins:
            raise IllegalMove(
                "not-a-winning-hand", say("This hand does not go out: {reason}", reason=score.reason), "MH-5"
            )
        points, premiums = score.points, score.total_premiums
        score_answer = score_json(score)
    else:
        points, premiums = events.typed_points(event)
    settled = settle(state.options.settlement, state.scores, winner, discarder, points)
    played = Round(
        number=state.rounds_played + 1,
        dealer=state.dealer,
        outcome="won" if kind == "round_won" else "points",
        winner=winner,
        discarder=discarder,
        premiums=premiums,
        points=points,
        score=score_answer,
        payments=settled.payments,
        changes=settled.changes,
        scores=settled.scores,
    )
    return _next_round(state, played, settled.ended_by)


def apply(state: MhingState, event: Mapping[str, Any]) -> MhingState:
    kind = events.event_type(event)
    if state.finished:
        raise IllegalMove("game-over", "The game is over; nothing more can be recorded (MH-9).", "MH-9")
    if kind in ("round_won", "round_points"):
        return _won(state, event, kind)
    if kind == "round_drawn":
        played = Round(
            number=state.rounds_played + 1,
            dealer=state.dealer,
            outcome="drawn",
            changes=(0,) * state.seats,
            scores=state.scores,
        )
        return _next_round(state, played)
    return replace(state, ended_by="agreement")
