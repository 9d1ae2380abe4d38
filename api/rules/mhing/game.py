"""`MHING`: the Mhing rules behind the platform's Game protocol (api.rules.game.Game).

A Mhing table keeps the score beside a real game: each round is recorded once it is over — won
with the winner's hand (scored here), won with points typed in, or drawn — and the table settles it
by the chosen MH-9 variant and passes the deal on (MH-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.mhing import engine, serial, setup, views
from api.rules.mhing.manifest import MANIFEST
from api.rules.mhing.state import MhingState

JSON = dict[str, Any]


class MhingGame:
    """Stateless facade; every state is an immutable MhingState."""

    name: str = MANIFEST.id
    title: str = MANIFEST.title
    min_players: int = MANIFEST.min_players
    max_players: int = MANIFEST.max_players

    def new_game(
        self, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int
    ) -> MhingState:
        """Scores at 0 (variant 1) or 500 (variant 2); InvalidSetup for bad players or options."""
        return setup.new_game(players, options, seed)

    def apply(self, state: MhingState, event: Mapping[str, Any]) -> MhingState:
        """Next state, or IllegalMove / MalformedEvent; `state` is never mutated."""
        return engine.apply(state, event)

    def legal_actions(self, state: MhingState) -> JSON:
        return views.legal_actions(state)

    def public_view(self, state: MhingState) -> JSON:
        return views.public_view(state)

    def dump(self, state: MhingState) -> JSON:
        return serial.dump(state)

    def load(self, data: Mapping[str, Any]) -> MhingState:
        return serial.load(data)

    def result(self, state: MhingState) -> JSON | None:
        return views.result(state)

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        return setup.options_json(setup.parse_options(options))

    def private_view(self, state: MhingState, seat: int) -> JSON | None:
        """Kibitz records rounds, not hands in play: nothing is kept per player."""
        return None

    def public_event(self, event: Mapping[str, Any], options: Mapping[str, Any]) -> JSON:
        """A recorded round shows the winning hand, which is laid out for all to see (MH-3)."""
        return dict(event)

    def secret_seat(self, state: MhingState, event: Mapping[str, Any]) -> int | None:
        """Kibitz records rounds after the hands are laid open: nothing secret (MH-6)."""
        return None

    def open_record(self, options: Mapping[str, Any]) -> bool:
        """Rounds are recorded with the hands laid open and nothing is drawn by the server."""
        return True

    def reveals_hidden_chance(self, before: MhingState, after: MhingState) -> bool:
        """The cards are dealt at the real table; the server draws nothing."""
        return False

    def rule_tables(self) -> JSON:
        """None: every rule is in the state, the legal actions and the rules pages."""
        return {}

    def chance_seed(self, state: MhingState) -> int | None:
        """Mhing has no server chance."""
        return None

    def reseed(self, state: MhingState, seed: int) -> MhingState:
        return state


MHING = GAME = MhingGame()
