"""Helpers for the Mahé tests: build games, feed events, place turtles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.mahe.constants import FIELDS
from api.rules.mahe.game import MAHE
from api.rules.mahe.state import MaheState
from api.rules.mahe.track import Position, palette_order

Event = dict[str, Any]


def seats(*specs: tuple[str, Sequence[str]]) -> list[dict[str, Any]]:
    return [{"name": name, "colours": list(colours)} for name, colours in specs]


FOUR = seats(("Martin", ["red"]), ("Eva", ["yellow"]), ("David", ["green"]), ("Andrea", ["darkblue"]))
TWO = seats(("Eva", ["red", "darkblue"]), ("Bo", ["yellow", "green"]))


def new(players: Sequence[Mapping[str, Any]] = FOUR, seed: int = 7, **options: Any) -> MaheState:
    return MAHE.new_game(players, options, seed)


def started(players: Sequence[Mapping[str, Any]] = FOUR, face_up: int = 5, **options: Any) -> MaheState:
    """A physical game whose first card has been turned up."""
    return play(new(players, **options), reveal(face_up))


def play(state: MaheState, *events: Event) -> MaheState:
    for event in events:
        state = MAHE.apply(state, event)
    return state


def die(value: int | None = None) -> Event:
    return {"type": "die"} if value is None else {"type": "die", "value": value}


def dice(*values: int) -> list[Event]:
    return [die(v) for v in values]


def stop() -> Event:
    return {"type": "stop"}


def reveal(value: int) -> Event:
    return {"type": "reveal_card", "value": value}


def choose(turtle: str) -> Event:
    return {"type": "choose_turtle", "turtle": turtle}


def card(value: int) -> Event:
    return {"type": "play_card", "value": value}


def placed(state: MaheState, fields: Mapping[int, Sequence[str]]) -> MaheState:
    """The same game with turtles placed on fields (bottom → top); unplaced turtles go to the raft."""
    on_track = {t for stack in fields.values() for t in stack}
    everyone = [c for p in state.players for c in p.colours]
    assert on_track <= set(everyone)
    track = tuple(tuple(fields.get(n, ())) for n in range(1, FIELDS + 1))
    raft = palette_order(t for t in everyone if t not in on_track)
    return replace(state, position=Position(raft, track))


def field(state: MaheState, number: int) -> list[str]:
    stacks: list[list[str]] = MAHE.public_view(state)["track"]
    return stacks[number - 1]


def where(state: MaheState, turtle: str) -> int:
    return state.position.where(turtle)[0]
