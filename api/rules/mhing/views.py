"""`public_view`, `legal_actions` and `result`: Mhing has no secrets, so everyone sees everything."""

from __future__ import annotations

import copy
from typing import Any

from api.rules.errors import note as note_json
from api.rules.errors import say
from api.rules.mhing.premiums import points
from api.rules.mhing.state import START, TARGET, MhingState, Payment, Round

JSON = dict[str, Any]
POINTS_TABLE_UP_TO = 20


def payment_json(payment: Payment) -> JSON:
    return {"seat": payment.seat, "owed": payment.owed, "paid": payment.paid}


def round_json(played: Round) -> JSON:
    return {
        "number": played.number,
        "dealer": played.dealer,
        "outcome": played.outcome,
        "winner": played.winner,
        "discarder": played.discarder,
        "premiums": played.premiums,
        "points": played.points,
        "score": copy.deepcopy(played.score),
        "payments": [payment_json(p) for p in played.payments],
        "changes": list(played.changes),
        "scores": list(played.scores),
    }


def public_view(state: MhingState) -> JSON:
    variant = state.options.settlement
    return {
        "settlement": variant,
        "target": TARGET if variant == 1 else None,
        "total_points": START * state.seats if variant == 2 else None,
        "players": [
            {"seat": seat, "name": name, "score": state.scores[seat], "dealer": seat == state.dealer}
            for seat, name in enumerate(state.names)
        ],
        "dealer": state.dealer,
        "round": state.round_number,
        "rounds_played": state.rounds_played,
        # The latest rounds only, so reading costs the same however long the game; every round is in
        # the log (GET …/events) and the exported record.
        "rounds": [round_json(r) for r in state.rounds],
        "last_round": round_json(state.rounds[-1]) if state.rounds else None,
        "finished": state.finished,
        "ended_by": state.ended_by,
    }


def points_table() -> list[JSON]:
    return [{"premiums": n, "points": points(n)} for n in range(POINTS_TABLE_UP_TO + 1)]


def _notes(state: MhingState) -> list[JSON]:
    notes: list[JSON] = []

    def note(code: str, rule: str, text: str) -> None:
        notes.append(note_json(code, rule, text))

    if state.finished:
        note("game-over", "MH-9", "The game is over.")
        return notes
    dealer = state.names[state.dealer]
    if state.rounds and state.rounds[-1].outcome == "drawn":
        note(
            "deal-passes-after-draw",
            "MH-2",
            say("Nobody went out last round; the deal still passes on, to {dealer} (MH-2).", dealer=dealer),
        )
    else:
        note(
            "deal-passes",
            "MH-2",
            say(
                "{dealer} deals round {round_number} and plays first (MH-2).",
                dealer=dealer,
                round_number=state.round_number,
            ),
        )
    if state.options.settlement == 2:
        note(
            "discarder-pays-double",
            "MH-9",
            "Everyone else pays the winner the hand's points; whoever discarded the winning card pays "
            "double; nobody pays more than they have (MH-9).",
        )
        broke = [state.names[s] for s, score in enumerate(state.scores) if score == 0]
        if broke:
            note(
                "nothing-left",
                "MH-9",
                say("{items} has nothing left to pay and pays nothing (MH-9).", items=", ".join(broke)),
            )
    else:
        note(
            "first-to-500",
            "MH-9",
            say("The winner of a round adds its points; the first to {target} wins (MH-9).", target=TARGET),
        )
    return notes


def legal_actions(state: MhingState) -> JSON:
    seats = list(range(state.seats))
    actions: list[JSON] = []
    decider = None
    if not state.finished:
        decider = {
            "seat": state.dealer,
            "name": state.names[state.dealer],
            "reason": f"deals round {state.round_number} and plays first (MH-2); "
            "any player records how the round ended",
        }
        actions = [
            {
                "type": "round_won",
                "winners": seats,
                "discarders": seats,
                "fields": {
                    "winner": "seat of the player who went out",
                    "discarder": "seat whose discard completed the hand; null if drawn from the stack",
                    "hand": "{groups, hidden, flowers} in MH-10 notation; jokers in groups as jk=b4",
                },
            },
            {"type": "round_points", "winners": seats, "discarders": seats, "points_table": points_table()},
            {"type": "round_drawn"},
            {"type": "end_game"},
        ]
    return {
        "phase": "finished" if state.finished else "round",
        "round": state.round_number,
        "dealer": None if state.finished else {"seat": state.dealer, "name": state.names[state.dealer]},
        "decider": decider,
        "actions": actions,
        "notes": _notes(state),
    }


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def result(state: MhingState) -> JSON | None:
    """Final standings: highest score first; equal scores share a place."""
    if not state.finished:
        return None
    scores = state.scores
    order = sorted(range(state.seats), key=lambda s: (-scores[s], s))
    ranking = [
        {
            "seat": s,
            "name": state.names[s],
            "score": scores[s],
            "place": 1 + sum(1 for o in order if scores[o] > scores[s]),
        }
        for s in order
    ]
    winners = [s for s in order if 1 + sum(1 for o in order if scores[o] > scores[s]) == 1]
    names = [state.names[s] for s in winners]
    top = scores[order[0]]
    if state.ended_by == "target":
        explanation = f"{names[0]} reached {top} points, the first to {TARGET} (MH-9 variant 1)."
    elif state.ended_by == "all-points":
        explanation = f"{names[0]} holds all {top} points (MH-9 variant 2)."
    elif len(winners) == 1:
        explanation = f"The game was ended by agreement; {names[0]} leads with {top} points."
    else:
        explanation = f"The game was ended by agreement; {_names(names)} share the lead with {top} points."
    return {"ranking": ranking, "winners": winners, "decided_by": state.ended_by, "explanation": explanation}
