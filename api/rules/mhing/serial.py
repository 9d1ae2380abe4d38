"""`dump`/`load`: the full state as plain JSON for the state cache (Mhing has no secrets)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from api.rules.mhing.setup import options_json, parse_options
from api.rules.mhing.state import RECENT_ROUNDS, EndedBy, MhingState, Outcome, Payment, Round
from api.rules.mhing.views import round_json

JSON = dict[str, Any]
FORMAT = 1


def dump(state: MhingState) -> JSON:
    return {
        "format": FORMAT,
        "options": options_json(state.options),
        "names": list(state.names),
        "scores": list(state.scores),
        "dealer": state.dealer,
        "rounds": [round_json(r) for r in state.rounds],
        "rounds_played": state.rounds_played,
        "ended_by": state.ended_by,
    }


def _round(data: Mapping[str, Any]) -> Round:
    return Round(
        number=int(data["number"]),
        dealer=int(data["dealer"]),
        outcome=cast(Outcome, data["outcome"]),
        winner=data["winner"],
        discarder=data["discarder"],
        premiums=data["premiums"],
        points=int(data["points"]),
        score=copy.deepcopy(data["score"]),
        payments=tuple(Payment(int(p["seat"]), int(p["owed"]), int(p["paid"])) for p in data["payments"]),
        changes=tuple(int(c) for c in data["changes"]),
        scores=tuple(int(s) for s in data["scores"]),
    )


def load(data: Mapping[str, Any]) -> MhingState:
    return MhingState(
        options=parse_options(data["options"]),
        names=tuple(str(n) for n in data["names"]),
        scores=tuple(int(s) for s in data["scores"]),
        dealer=int(data["dealer"]),
        # States stored before the recent-rounds window kept every round: keep the latest few.
        rounds=tuple(_round(r) for r in data["rounds"][-RECENT_ROUNDS:]),
        rounds_played=int(data.get("rounds_played", len(data["rounds"]))),
        ended_by=cast(EndedBy | None, data["ended_by"]),
    )
