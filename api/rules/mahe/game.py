"""`MAHE`: the Mahé rules behind the platform's Game protocol (api.rules.game.Game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.mahe import actions, chance, engine, scoring, serial, setup, views
from api.rules.mahe.manifest import MANIFEST
from api.rules.mahe.state import MaheState

JSON = dict[str, Any]


class MaheGame:
    """Stateless facade; every state is an immutable MaheState."""

    name: str = MANIFEST.id
    title: str = MANIFEST.title
    min_players: int = MANIFEST.min_players
    max_players: int = MANIFEST.max_players

    def new_game(
        self, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int
    ) -> MaheState:
        """MA-2 setup; InvalidSetup for bad players, colours or options."""
        return setup.new_game(players, options, seed)

    def apply(self, state: MaheState, event: Mapping[str, Any]) -> MaheState:
        """Next state, or IllegalMove / MalformedEvent; `state` is never mutated."""
        return engine.apply(state, event)

    def legal_actions(self, state: MaheState) -> JSON:
        return actions.legal_actions(state)

    def public_view(self, state: MaheState) -> JSON:
        return views.public_view(state)

    def dump(self, state: MaheState) -> JSON:
        return serial.dump(state)

    def load(self, data: Mapping[str, Any]) -> MaheState:
        return serial.load(data)

    def result(self, state: MaheState) -> JSON | None:
        return scoring.result(state)

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        return setup.options_json(setup.parse_options(options))

    def private_view(self, state: MaheState, seat: int) -> JSON | None:
        """MA-7 Decision: the player's own face-down egg cards (values and total)."""
        return views.private_view(state, seat)

    def public_event(self, event: Mapping[str, Any], options: Mapping[str, Any]) -> JSON:
        """Every Mahé event is seen by the whole table: dice and face-up cards are public (MA-12)."""
        return dict(event)

    def secret_seat(self, state: MaheState, event: Mapping[str, Any]) -> int | None:
        """No Mahé event depends on a card nobody saw: every egg card was seen when won (MA-7)."""
        return None

    def open_record(self, options: Mapping[str, Any]) -> bool:
        """Physical dice and cards are typed in for all to see; digital ones come from the server's
        secret seed (MA-12)."""
        return setup.parse_options(options).chance != "digital"

    def reveals_hidden_chance(self, before: MaheState, after: MaheState) -> bool:
        """MA-12: in digital games a die drawn or a card turned up by the server stays secret until
        the event is recorded (a typed-in value is already known to the table)."""
        return after.draws != before.draws or len(after.supply.hidden) != len(before.supply.hidden)

    def rule_tables(self) -> JSON:
        """None: every rule is in the state, the legal actions and the rules pages."""
        return {}

    def chance_seed(self, state: MaheState) -> int | None:
        return state.seed

    def reseed(self, state: MaheState, seed: int) -> MaheState:
        """MA-12: a reopened game draws from a fresh seed (see chance.reseeded)."""
        return chance.reseeded(state, seed)


MAHE = GAME = MaheGame()
