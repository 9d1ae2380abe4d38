"""`apply`: one event in, the next state out; the input state is never changed (frozen dataclasses)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from api.rules.common.events import claimed_seat
from api.rules.errors import IllegalMove, MalformedEvent, either, say
from api.rules.mahe import dice, track
from api.rules.mahe.chance import draw_die
from api.rules.mahe.constants import BEACH_EGGS, MAX_SUM
from api.rules.mahe.events import event_type, face_value, has_value, turtle_name
from api.rules.mahe.setup import first_order
from api.rules.mahe.state import CardWon, Die, MaheState, Move, Player, Supply, Turn


def apply(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    kind = event_type(event)
    if state.phase == "finished":
        raise IllegalMove("game-over", "The game is over: the beach has been taken (MA-8).", "MA-8")
    return _HANDLERS[kind](state, event)


# --- checks shared by the handlers -------------------------------------------------------------------


def _name(state: MaheState, seat: int) -> str:
    return state.players[seat].name


def _require_turtle_known(state: MaheState) -> None:
    """Dice and cards wait for a pending card reveal (MA-7) and the turtle order (MA-9)."""
    phase = state.phase
    if phase == "reveal_card":
        raise IllegalMove(
            "reveal-card-first", "First turn up the next egg card and type in its value (MA-7).", "MA-7"
        )
    if phase == "choose_turtle":
        raise IllegalMove(
            "choose-turtle-first",
            say("{name} first chooses which turtle moves first (MA-9).", name=_name(state, state.turn.seat)),
            "MA-9",
        )


def _decider_seat(state: MaheState) -> int:
    decider = state.decider()
    assert decider is not None
    return decider[0]


def _check_actor(state: MaheState, event: Mapping[str, Any], seat: int, rule: str) -> None:
    """When the event names the sending seat, it must be the seat whose decision this is."""
    claimed = claimed_seat(event)
    if claimed is not None and claimed != seat:
        raise IllegalMove(
            "not-your-turn",
            say("This is {name}'s decision now ({rule}).", name=_name(state, seat), rule=rule),
            rule,
        )


def _actor(state: MaheState) -> tuple[int, str]:
    """The mover rolls the first die (MA-3); after it the MA-4 decider chooses."""
    return (state.turn.seat, "MA-3") if state.phase == "roll" else (_decider_seat(state), "MA-4")


# --- handlers ------------------------------------------------------------------------------------------


def _reveal_card(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    """Physical play: the newly face-up card's value is typed in (MA-7, MA-12)."""
    if state.options.chance == "digital":
        raise IllegalMove(
            "cards-are-digital", "In a digital game the server turns up the egg cards (MA-12).", "MA-12"
        )
    if state.phase != "reveal_card":
        raise IllegalMove("no-card-to-reveal", "No egg card is waiting to be turned up (MA-7).", "MA-7")
    value = face_value(event, "egg card", "MA-7")
    return replace(state, supply=replace(state.supply, face_up=value, awaiting_reveal=False))


def _choose_turtle(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    """MA-9: a two-turtle player picks which turtle moves first; the other moves after it."""
    phase, seat = state.phase, state.turn.seat
    player = state.players[seat]
    if phase == "reveal_card":
        _require_turtle_known(state)
    if phase != "choose_turtle":
        if len(player.colours) == 1:
            raise IllegalMove(
                "nothing-to-choose",
                say("{name} has one turtle: nothing to choose (MA-9).", name=player.name),
                "MA-9",
            )
        raise IllegalMove(
            "turtle-already-chosen", "The turtle order for this turn is already set (MA-9).", "MA-9"
        )
    turtle = turtle_name(event)
    if turtle not in player.colours:
        raise IllegalMove(
            "not-your-turtle",
            say(
                "The {turtle} turtle is not {name}'s; {name} moves {items} (MA-9).",
                turtle=turtle,
                name=player.name,
                items=either(player.colours),
            ),
            "MA-9",
        )
    _check_actor(state, event, seat, "MA-9")
    order = (turtle, *(c for c in player.colours if c != turtle))
    return replace(state, turn=replace(state.turn, turtle_order=order))


def _die(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    """MA-3: the first die, or another die at the decider's request (MA-4); drawn by the server in
    digital play (MA-12) from the counter kept in the state."""
    _require_turtle_known(state)
    seat, rule = _actor(state)
    if state.options.chance == "digital":
        if has_value(event):
            raise MalformedEvent(
                "value-not-allowed-digital",
                "In a digital game the server rolls the dice: send no value (MA-12).",
                "MA-12",
            )
        _check_actor(state, event, seat, rule)
        value = draw_die(state.seed, state.draws)
        state = replace(state, draws=state.draws + 1)
    else:
        value = face_value(event, "die", "MA-3")
        _check_actor(state, event, seat, rule)
    return _add_die(state, Die(value, "die"))


def _stop(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    """MA-3/MA-5: the decider stops and the move is carried out."""
    _require_turtle_known(state)
    if state.phase == "roll":
        raise IllegalMove("first-die-required", "The first die is always rolled (MA-3).", "MA-3")
    _check_actor(state, event, _decider_seat(state), "MA-4")
    return _carry_out(state)


def _play_card(state: MaheState, event: Mapping[str, Any]) -> MaheState:
    """MA-11 variant: the decider plays one of their own won cards as the 2nd or 3rd die."""
    if not state.options.egg_dice_variant:
        raise IllegalMove(
            "variant-off", "Egg cards as dice is not switched on for this game (MA-11).", "MA-11"
        )
    _require_turtle_known(state)
    if state.phase == "roll":
        raise IllegalMove(
            "card-not-for-first-die", "The first die is always rolled, never a card (MA-11).", "MA-11"
        )
    value = face_value(event, "egg card", "MA-11")
    seat = _decider_seat(state)
    _check_actor(state, event, seat, "MA-11")
    player, turn = state.players[seat], state.turn
    if seat in turn.cards_played_by:
        raise IllegalMove(
            "one-card-per-turn",
            say("{name} has already played a card this turn (MA-11).", name=player.name),
            "MA-11",
        )
    if value not in player.cards:
        raise IllegalMove(
            "card-not-in-hand",
            say(
                "{name} has no {value}-egg card to play; only the decider's own cards can be played (MA-11).",
                name=player.name,
                value=value,
            ),
            "MA-11",
        )
    total = sum(turn.values) + value
    if total > MAX_SUM:
        raise IllegalMove(
            "card-would-exceed-seven",
            say("A {value} would take the sum to {total}, over 7 (MA-11).", value=value, total=total),
            "MA-11",
        )
    cards = list(player.cards)
    cards.remove(value)  # the card leaves the game and no longer scores (MA-11)
    players = _with_player(state.players, seat, replace(player, cards=tuple(cards)))
    supply = replace(state.supply, box=(*state.supply.box, value))
    turn = replace(turn, cards_played_by=(*turn.cards_played_by, seat))
    return _add_die(replace(state, players=players, supply=supply, turn=turn), Die(value, "card"))


_HANDLERS: dict[str, Callable[[MaheState, Mapping[str, Any]], MaheState]] = {
    "reveal_card": _reveal_card,
    "choose_turtle": _choose_turtle,
    "die": _die,
    "stop": _stop,
    "play_card": _play_card,
}


# --- resolving a move ----------------------------------------------------------------------------------


def _with_player(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return (*players[:seat], player, *players[seat + 1 :])


def _add_die(state: MaheState, die: Die) -> MaheState:
    """Automatic resolution (MA-3, MA-6): over 7 busts, 7 after two dice or any three dice stop."""
    state = replace(state, turn=replace(state.turn, dice=(*state.turn.dice, die)))
    status = dice.status(state.turn.values)
    if status == "bust":
        return _bust(state)
    if status == "must-stop":
        return _carry_out(state)
    return state


def _current_turtle(state: MaheState) -> str:
    turtle = state.turn.turtle
    assert turtle is not None
    return turtle


def _bust(state: MaheState) -> MaheState:
    """MA-6: back to the raft with everything above; the turtle's move ends (MA-9 Decision)."""
    position, step = track.bust(state.position, _current_turtle(state))
    return _finish_move(replace(state, position=position), _record(state, step, 0, None))


def _carry_out(state: MaheState) -> MaheState:
    """MA-5 movement, then the egg card (MA-7) or the beach (MA-8)."""
    distance = dice.distance(state.turn.values)
    position, step = track.move(state.position, _current_turtle(state), distance)
    moved = replace(state, position=position)
    card = None
    if step.passed_beach:
        moved, card = _take_card(moved, state.owner(step.top))
    return _finish_move(moved, _record(state, step, distance, card))


def _take_card(state: MaheState, seat: int) -> tuple[MaheState, CardWon]:
    """MA-7: the owner of the moving stack's topmost turtle takes the face-up card (one per move), and
    the next is turned up at once; MA-8: with the pile gone the beach is taken and the game ends."""
    supply, player = state.supply, state.players[seat]
    if supply.face_up is not None:
        value = supply.face_up
        players = _with_player(state.players, seat, replace(player, cards=(*player.cards, value)))
        return replace(state, players=players, supply=_next_card(state, supply)), CardWon(
            seat, value, beach=False
        )
    # A physical card awaiting its value blocks every move, so no face-up card here means MA-8.
    assert supply.beach_exposed
    players = _with_player(state.players, seat, replace(player, beach=True))
    return replace(state, players=players, beach_taken_by=seat), CardWon(seat, BEACH_EGGS, beach=True)


def _next_card(state: MaheState, supply: Supply) -> Supply:
    """Turn up the next card: digital at once, physical by asking the table (phase reveal_card)."""
    remaining = supply.pile_count - 1
    if remaining == 0:
        return replace(supply, face_up=None, pile_count=0, awaiting_reveal=False, hidden=())
    if state.options.chance == "digital":
        return replace(supply, face_up=supply.hidden[0], pile_count=remaining, hidden=supply.hidden[1:])
    return replace(supply, face_up=None, pile_count=remaining, awaiting_reveal=True)


def _record(state: MaheState, step: track.Step, distance: int, card: CardWon | None) -> Move:
    return Move(
        seat=state.turn.seat,
        turtle=step.turtle,
        carried=step.carried,
        left_behind=step.left_behind,
        dice=state.turn.dice,
        distance=distance,
        start=step.start,
        to=step.to,
        bust=step.bust,
        passed_beach=step.passed_beach,
        card=card,
        game_over=card is not None and card.beach,
    )


def _finish_move(state: MaheState, move: Move) -> MaheState:
    """MA-9: the player's other turtle moves next, unless the game has ended (MA-8); then the next seat."""
    turn = state.turn
    if move.game_over:
        return replace(state, last_move=move, turn=replace(turn, dice=()))
    done = turn.moves_done + 1
    if turn.turtle_order is not None and done < len(turn.turtle_order):
        next_turn = replace(turn, moves_done=done, dice=())
    else:
        seat = (turn.seat + 1) % len(state.players)
        next_turn = Turn(seat=seat, turtle_order=first_order(state.players[seat]))
    return replace(state, turn=next_turn, last_move=move)
