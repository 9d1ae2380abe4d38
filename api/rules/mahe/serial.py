"""`dump`/`load`: the full state, secrets included, as plain JSON for the state cache."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.errors import MalformedEvent
from api.rules.mahe.setup import options_json, parse_options
from api.rules.mahe.state import CardWon, Die, MaheState, Move, Player, Supply, Turn
from api.rules.mahe.track import Position
from api.rules.mahe.views import card_json, dice_json

JSON = dict[str, Any]
FORMAT = 1


def dump(state: MaheState) -> JSON:
    s, t = state.supply, state.turn
    m = state.last_move
    return {
        "format": FORMAT,
        "options": options_json(state.options),
        "seed": state.seed,
        "players": [
            {"name": p.name, "colours": list(p.colours), "cards": list(p.cards), "beach": p.beach}
            for p in state.players
        ],
        "raft": list(state.position.raft),
        "track": [list(stack) for stack in state.position.track],
        "supply": {
            "face_up": s.face_up,
            "pile_count": s.pile_count,
            "awaiting_reveal": s.awaiting_reveal,
            "hidden": list(s.hidden),
            "set_aside": list(s.set_aside),
            "set_aside_count": s.set_aside_count,
            "box": list(s.box),
        },
        "turn": {
            "seat": t.seat,
            "turtle_order": None if t.turtle_order is None else list(t.turtle_order),
            "moves_done": t.moves_done,
            "dice": dice_json(t.dice),
            "cards_played_by": list(t.cards_played_by),
        },
        "draws": state.draws,
        "beach_taken_by": state.beach_taken_by,
        "last_move": None
        if m is None
        else {
            "seat": m.seat,
            "turtle": m.turtle,
            "carried": list(m.carried),
            "left_behind": list(m.left_behind),
            "dice": dice_json(m.dice),
            "distance": m.distance,
            "start": m.start,
            "to": m.to,
            "bust": m.bust,
            "passed_beach": m.passed_beach,
            "card": card_json(m.card),
            "game_over": m.game_over,
        },
    }


def _dice(raw: Any) -> tuple[Die, ...]:
    return tuple(Die(int(d["value"]), "card" if d["source"] == "card" else "die") for d in raw)


def _strs(raw: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in raw)


def _ints(raw: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in raw)


def load(data: Mapping[str, Any]) -> MaheState:
    if data.get("format") != FORMAT:
        raise MalformedEvent("unknown-state-format", "This saved Mahé state has an unknown format.")
    s, t, m = data["supply"], data["turn"], data["last_move"]
    card = (
        None
        if m is None or m["card"] is None
        else CardWon(int(m["card"]["seat"]), int(m["card"]["value"]), bool(m["card"]["beach"]))
    )
    return MaheState(
        options=parse_options(data["options"]),
        seed=int(data["seed"]),
        players=tuple(
            Player(str(p["name"]), _strs(p["colours"]), _ints(p["cards"]), bool(p["beach"]))
            for p in data["players"]
        ),
        position=Position(_strs(data["raft"]), tuple(_strs(stack) for stack in data["track"])),
        supply=Supply(
            face_up=s["face_up"],
            pile_count=int(s["pile_count"]),
            awaiting_reveal=bool(s["awaiting_reveal"]),
            hidden=_ints(s["hidden"]),
            set_aside=_ints(s["set_aside"]),
            set_aside_count=int(s["set_aside_count"]),
            box=_ints(s["box"]),
        ),
        turn=Turn(
            seat=int(t["seat"]),
            turtle_order=None if t["turtle_order"] is None else _strs(t["turtle_order"]),
            moves_done=int(t["moves_done"]),
            dice=_dice(t["dice"]),
            cards_played_by=_ints(t["cards_played_by"]),
        ),
        draws=int(data["draws"]),
        beach_taken_by=data["beach_taken_by"],
        last_move=None
        if m is None
        else Move(
            seat=int(m["seat"]),
            turtle=str(m["turtle"]),
            carried=_strs(m["carried"]),
            left_behind=_strs(m["left_behind"]),
            dice=_dice(m["dice"]),
            distance=int(m["distance"]),
            start=int(m["start"]),
            to=int(m["to"]),
            bust=bool(m["bust"]),
            passed_beach=bool(m["passed_beach"]),
            card=card,
            game_over=bool(m["game_over"]),
        ),
    )
