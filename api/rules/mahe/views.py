"""`public_view`: the state as every player may see it — no seed, digital pile order or set-aside values."""

from __future__ import annotations

from typing import Any

from api.rules.mahe.scoring import result
from api.rules.mahe.setup import options_json
from api.rules.mahe.state import CardWon, Die, MaheState, Move

JSON = dict[str, Any]


def dice_json(dice: tuple[Die, ...]) -> list[JSON]:
    return [{"value": d.value, "source": d.source} for d in dice]


def card_json(card: CardWon | None) -> JSON | None:
    return None if card is None else {"seat": card.seat, "value": card.value, "beach": card.beach}


def move_json(move: Move | None) -> JSON | None:
    if move is None:
        return None
    return {
        "seat": move.seat,
        "turtle": move.turtle,
        "carried": list(move.carried),
        "left_behind": list(move.left_behind),
        "dice": dice_json(move.dice),
        "distance": move.distance,
        "from": move.start,
        "to": move.to,
        "bust": move.bust,
        "passed_beach": move.passed_beach,
        "card": card_json(move.card),
        "game_over": move.game_over,
    }


def public_view(state: MaheState) -> JSON:
    """MA-7 Decision: won egg cards lie face down — the shared view shows how many each player
    holds; the values and egg totals only once the game is over (`private_view` shows a player
    their own)."""
    finished = state.phase == "finished"
    turn, supply = state.turn, state.supply
    return {
        "game": "mahe",
        "options": options_json(state.options),
        "players": [
            {
                "seat": seat,
                "name": p.name,
                "colours": list(p.colours),
                "cards": list(p.cards) if finished else None,
                "beach": p.beach,
                "eggs": p.eggs if finished else None,
                "card_count": p.card_count,
            }
            for seat, p in enumerate(state.players)
        ],
        "raft": list(state.position.raft),
        "track": [list(stack) for stack in state.position.track],
        "face_up": supply.face_up,
        "pile_count": supply.pile_count,
        "set_aside_count": supply.set_aside_count,
        "box": list(supply.box),
        "beach_exposed": supply.beach_exposed,
        "beach_taken_by": state.beach_taken_by,
        "phase": state.phase,
        "turn": {
            "seat": turn.seat,
            "turtle": None if finished else turn.turtle,
            "turtle_order": None if turn.turtle_order is None else list(turn.turtle_order),
            "moves_done": turn.moves_done,
            "dice": dice_json(turn.dice),
            "sum": sum(turn.values),
            "cards_played_by": list(turn.cards_played_by),
        },
        "last_move": move_json(state.last_move),
        "draws": state.draws,
        "result": result(state),
    }


def private_view(state: MaheState, seat: int) -> JSON:
    """MA-7 Decision: a player's own face-down egg cards, their values and egg total."""
    player = state.players[seat]
    return {
        "seat": seat,
        "name": player.name,
        "cards": list(player.cards),
        "beach": player.beach,
        "eggs": player.eggs,
        "card_count": player.card_count,
    }
