"""`MAGELLAN`: the Magellan rules behind the platform's Game protocol (api.rules.game.Game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.magellan import actions, cards, endgame, engine, serial, setup, sheet, views
from api.rules.magellan.manifest import MANIFEST
from api.rules.magellan.powers import powers_table
from api.rules.magellan.state import MagellanState

JSON = dict[str, Any]


class MagellanGame:
    """Stateless facade; every state is an immutable MagellanState."""

    name: str = MANIFEST.id
    title: str = MANIFEST.title
    min_players: int = MANIFEST.min_players
    max_players: int = MANIFEST.max_players

    def new_game(
        self, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int
    ) -> MagellanState:
        """MG-3 setup; InvalidSetup for bad players or options."""
        return setup.new_game(players, options, seed)

    def apply(self, state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
        """Next state, or IllegalMove / MalformedEvent; `state` is never mutated."""
        return engine.apply(state, event)

    def legal_actions(self, state: MagellanState) -> JSON:
        return actions.legal_actions(state)

    def public_view(self, state: MagellanState) -> JSON:
        return views.public_view(state)

    def dump(self, state: MagellanState) -> JSON:
        return serial.dump(state)

    def load(self, data: Mapping[str, Any]) -> MagellanState:
        return serial.load(data)

    def result(self, state: MagellanState) -> JSON | None:
        return endgame.result(state)

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        return setup.options_json(setup.parse_options(options))

    def private_view(self, state: MagellanState, seat: int) -> JSON | None:
        """The own money cards (ledger depth), the values slid under one's Magellan cards, and what
        only this seat may know about its options (its bid limit)."""
        return {**views.private_view(state, seat), "actions": views.private_actions(state, seat)}

    def secret_seat(self, state: MagellanState, event: Mapping[str, Any]) -> int | None:
        """Ledger depth: the seat whose hidden hand this event depends on (public information only)."""
        return views.secret_seat(state, event)

    def public_event(self, event: Mapping[str, Any], options: Mapping[str, Any]) -> JSON:
        """Cards drawn into a hand and cards slid face down under Magellan A are secret until the
        end (MG-6, MG-8, MG-9); the log masks their values while the game runs. On side B the slid
        card comes from the payment and lies face up (MG-8): the log shows it."""
        kind = str(event.get("type"))
        secret = SECRET_EVENT_FIELDS.get(kind, ())
        if kind == "slide" and setup.parse_options(options).slid_face_up:
            secret = ()
        return {key: ("hidden" if key in secret else value) for key, value in event.items()}

    def open_record(self, options: Mapping[str, Any]) -> bool:
        """Not with server-drawn cards (MG-4) nor in ledger depth, where every hand is secret (MG-6)."""
        parsed = setup.parse_options(options)
        return parsed.chance != "digital" and parsed.depth != "ledger"

    def reveals_hidden_chance(self, before: MagellanState, after: MagellanState) -> bool:
        """Digital play: a card turned up, drawn or pulled by the server stays secret until the event
        is recorded (typed-in values are already known to the table)."""
        return after.draws != before.draws

    def rule_tables(self) -> JSON:
        """MG-8: what winning each explorer card does, by side and field."""
        return {"powers": powers_table()}

    def phone_tables(self) -> JSON:
        """Rules as data the phone's screens read before any table exists (api/phone/static_build.py
        writes them to /referee/<game>.json): the board sheet's entries (MG-2)."""
        return {"sheet": sheet.form_json()}

    def chance_seed(self, state: MagellanState) -> int | None:
        return state.seed

    def reseed(self, state: MagellanState, seed: int) -> MagellanState:
        """A reopened game draws from a fresh seed (see cards.reseeded)."""
        return cards.reseeded(state, seed)


# Event fields whose values a player keeps to themselves while the game runs.
SECRET_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("cards",),
    "slide": ("value",),
    "swap": ("draw",),
}

MAGELLAN = GAME = MagellanGame()
