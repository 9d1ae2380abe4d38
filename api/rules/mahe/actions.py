"""`legal_actions`: what may happen next, who decides (MA-4) and what each choice would do.

Previews run the same dice and track code as the engine, so a shown outcome is what `apply` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.rules.errors import note as note_json
from api.rules.errors import say
from api.rules.mahe import dice, track
from api.rules.mahe.constants import DIE_FACES, MAX_DICE, MAX_SUM, RAFT
from api.rules.mahe.state import MaheState

JSON = dict[str, Any]


def card_to(state: MaheState, step: track.Step) -> int | None:
    """MA-7/MA-8: who would take the face-up card or the beach on this move."""
    if not step.passed_beach or state.beach_taken_by is not None:
        return None
    if state.supply.face_up is None and not state.supply.beach_exposed:
        return None
    return state.owner(step.top)


def outcome(state: MaheState, values: Sequence[int]) -> JSON:
    """What the dice so far would do if the move stopped now (or busted / had to stop)."""
    turtle = state.turn.turtle
    assert turtle is not None
    status = dice.status(values)
    total = sum(values)
    if status == "bust":
        return {
            "sum": total,
            "distance": 0,
            "bust": True,
            "to": RAFT,
            "passes_beach": False,
            "card_to": None,
            "must_stop": True,
        }
    distance = dice.distance(values)
    _, step = track.move(state.position, turtle, distance)
    return {
        "sum": total,
        "distance": distance,
        "bust": False,
        "to": step.to,
        "passes_beach": step.passed_beach,
        "card_to": card_to(state, step),
        "must_stop": status == "must-stop",
    }


def _decider_json(state: MaheState) -> JSON | None:
    phase, turn = state.phase, state.turn
    if phase == "choose_turtle":
        name = state.players[turn.seat].name
        return {"seat": turn.seat, "name": name, "reason": "chooses which turtle moves first (MA-9)"}
    decider = state.decider()
    if phase not in ("roll", "decide") or decider is None:
        return None
    seat, top = decider
    if top != turn.turtle:
        reason = f"owns {top}, the topmost turtle on {turn.turtle} (MA-4)"
    else:
        reason = f"moves {turn.turtle}, which carries no turtle (MA-4)"
    return {"seat": seat, "name": state.players[seat].name, "reason": reason}


def _die_action(state: MaheState) -> JSON:
    values = state.turn.values
    return {
        "type": "die",
        "values": None if state.options.chance == "digital" else list(DIE_FACES),
        "bust_chance": dice.bust_chance(values),
        "outcomes": [{"value": v, **outcome(state, (*values, v))} for v in DIE_FACES],
    }


def _card_action(state: MaheState) -> JSON | None:
    """MA-11: only the decider's cards, once per player per turn, never over 7."""
    decider = state.decider()
    if not state.options.egg_dice_variant or decider is None:
        return None
    seat, values = decider[0], state.turn.values
    if seat in state.turn.cards_played_by:
        return None
    playable = sorted({c for c in state.players[seat].cards if sum(values) + c <= MAX_SUM})
    if not playable:
        return None
    return {
        "type": "play_card",
        "cards": playable,
        "outcomes": [{"value": v, **outcome(state, (*values, v))} for v in playable],
    }


def _notes(state: MaheState) -> list[JSON]:
    notes: list[JSON] = []
    phase, turn = state.phase, state.turn

    def note(code: str, rule: str, text: str) -> None:
        notes.append(note_json(code, rule, text))

    if phase == "finished":
        # Only the end: hints about the last move or the next one would be stale under Game over.
        note("game-over", "MA-8", "The beach has been taken: the game is over (MA-8).")
        return notes
    last = state.last_move
    if (
        last is not None
        and not last.bust
        and len(last.dice) == 2
        and sum(d.value for d in last.dice) == MAX_SUM
    ):
        note(
            "sum-seven-must-stop",
            "MA-3",
            "The last move reached 7 with two dice, so it had to stop: "
            "a third die is never offered at 7 (MA-3).",
        )
    if state.supply.beach_exposed:
        note(
            "beach-exposed",
            "MA-8",
            "All 20 cards are taken: the next move that reaches or passes field 21 "
            "takes the beach (7 eggs) and ends the game (MA-8).",
        )
    if phase == "reveal_card":
        note("reveal-card", "MA-7", "Turn up the next egg card and type in its value.")
        return notes
    if turn.moves_done == 1 and turn.turtle is not None:
        note(
            "second-turtle",
            "MA-9",
            say(
                "Now {name}'s other turtle, {turtle}, makes its move (MA-9).",
                name=state.players[turn.seat].name,
                turtle=turn.turtle,
            ),
        )
    if phase == "roll":
        note("first-die-always", "MA-3", "The first die is always rolled (MA-3).")
    decider = state.decider()
    if phase in ("roll", "decide") and decider is not None and decider[1] != turn.turtle:
        note(
            "decider-on-top",
            "MA-4",
            say(
                "{name} owns {decider}, the topmost turtle on {turtle}, "
                "and decides about the second and third die (MA-4).",
                name=state.players[decider[0]].name,
                decider=decider[1],
                turtle=turn.turtle,
            ),
        )
    if phase == "decide" and len(turn.dice) == MAX_DICE - 1:
        note(
            "last-die",
            "MA-3",
            "A third die is the last one: over 7 busts, otherwise the move is made (MA-3).",
        )
    if (
        phase == "decide"
        and state.options.egg_dice_variant
        and decider is not None
        and decider[0] in turn.cards_played_by
    ):
        note(
            "one-card-per-turn",
            "MA-11",
            say("{name} has already played a card this turn (MA-11).", name=state.players[decider[0]].name),
        )
    return notes


def legal_actions(state: MaheState) -> JSON:
    phase, turn = state.phase, state.turn
    finished = phase == "finished"
    actions: list[JSON] = []
    if phase == "reveal_card":
        actions.append({"type": "reveal_card", "values": list(DIE_FACES)})
    elif phase == "choose_turtle":
        actions.append({"type": "choose_turtle", "turtles": list(state.players[turn.seat].colours)})
    elif phase == "roll":
        actions.append(_die_action(state))
    elif phase == "decide":
        if len(turn.dice) < MAX_DICE:  # always true here: 3 dice resolve automatically (MA-3)
            actions.append(_die_action(state))
        actions.append({"type": "stop", **_stop_preview(state)})
        card = _card_action(state)
        if card is not None:
            actions.append(card)
    return {
        "phase": phase,
        "decider": _decider_json(state),
        "mover": None if finished else turn.seat,
        "turtle": None if finished else turn.turtle,
        "actions": actions,
        "notes": _notes(state),
    }


def _stop_preview(state: MaheState) -> JSON:
    preview = outcome(state, state.turn.values)
    return {key: preview[key] for key in ("distance", "to", "passes_beach", "card_to")}
