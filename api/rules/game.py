"""The contract every game's rules module fulfils, so the table platform can host any game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

JSON = dict[str, Any]


class Game(Protocol):
    """One game's pure rules. States are opaque to the platform except through these functions."""

    name: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int) -> Any:
        """Start a game; raise InvalidSetup for bad players or options."""

    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        """Return the next state, or raise IllegalMove / MalformedEvent; never mutate `state`."""

    def legal_actions(self, state: Any) -> JSON:
        """What may happen next and who decides it — the public part, shown to everyone: it never
        depends on a hidden card (no limit a secret hand sets, no options drawn from it). What only
        one seat may know about its own options goes into that seat's `private_view`."""

    def public_view(self, state: Any) -> JSON:
        """The state as players may see it (no hidden deck order or seed-derived secrets)."""

    def dump(self, state: Any) -> JSON:
        """The full state as JSON, for the state cache; `load(dump(s))` equals `s`."""

    def load(self, data: Mapping[str, Any]) -> Any:
        """Inverse of dump."""

    def result(self, state: Any) -> JSON | None:
        """Final standings once the game is over, else None."""

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        """Options with defaults filled in; raise InvalidSetup for unknown or bad ones."""

    def private_view(self, state: Any, seat: int) -> JSON | None:
        """What only `seat` may see (the own hand, face-down cards, and the private extras of its legal
        actions, e.g. its bid limit), or None in a game without secrets."""

    def public_event(self, event: Mapping[str, Any], options: Mapping[str, Any]) -> JSON:
        """The event as anyone with the table id may read it in the log of an unfinished game
        (secret card values masked); the full event is kept and exported once the game is over.
        `options` are the table's (normalized): what is secret can depend on them."""

    def secret_seat(self, state: Any, event: Mapping[str, Any]) -> int | None:
        """The seat whose hidden cards decide whether `event` is legal or what it does, decided from
        public information only; None when the event touches nobody's secret. Only that seat's own
        token may record or preview such an event, so nobody else learns anything from a refusal."""

    def open_record(self, options: Mapping[str, Any]) -> bool:
        """True when the log as the whole table reads it decides every state: no server-drawn
        chance and no hidden hand. Only such a table can be refereed on a phone, offline too
        (api.rules.referee); the others need the server, which alone holds their secrets."""

    def reveals_hidden_chance(self, before: Any, after: Any) -> bool:
        """True when `after` shows a server-drawn die or card that `before` did not.

        A preview must not answer with such a state: the player could look before deciding.
        """

    def rule_tables(self) -> JSON:
        """Rules as data (Magellan: the MG-8 powers), served with the game's information so that
        apps read them instead of restating them."""

    def chance_seed(self, state: Any) -> int | None:
        """The seed the state's future server draws come from (None in a game without chance)."""

    def reseed(self, state: Any, seed: int) -> Any:
        """The same game with every future server draw taken from `seed` and every unseen order
        reshuffled; returns `state` itself when its seed is already `seed`. The platform reseeds when
        an undo reopens a finished game, whose seed everyone has seen."""
