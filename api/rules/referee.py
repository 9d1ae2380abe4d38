"""The referee of one table wherever it runs: on the server and, under Pyodide, on the phone.

The phone keeps each table's log; this module turns it into the state, the legal actions, the result
and previews, exactly as the server does, because it is the same code (`api.tables.views` builds its
answers with `rules_view`). `Referee.handle` is the phone's entry point: JSON in, JSON out, so the
Web Worker passes plain strings and never proxies Python objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent, RuleError, json_params, json_parts, say
from api.rules.game import Game
from api.rules.registry import MANIFESTS, get_game
from api.rules.replay import HIDDEN, RESEED, advance, chance_stands, check_undo_target, is_undo, undo_target

JSON = dict[str, Any]


def rules_view(game: Game, state: Any, can_undo: bool) -> JSON:
    """What the rules say about a state: the public view, the legal actions (undo included) and the
    result. The server's table answer and the phone's local one are both built from it."""
    legal = dict(game.legal_actions(state))
    legal["undo"] = {"possible": can_undo}
    result = game.result(state)
    return {
        "state": game.public_view(state),
        "legal_actions": legal,
        "result": result,
        "finished": result is not None,
    }


@dataclass(frozen=True)
class RefereeTable:
    """One table as the phone referees it: the states in effect, the new game's first."""

    game: Game
    options: JSON
    states: tuple[Any, ...]
    # The log position (seq) of the entry behind each state after the first, and how many entries
    # the log has: a named undo (`undoes`) is checked against the last entry in effect, as the server does.
    seqs: tuple[int, ...] = ()
    entries: int = 0

    @classmethod
    def start(
        cls, game_name: str, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int
    ) -> RefereeTable:
        game = get_game(game_name)
        if game is None:
            raise MalformedEvent(
                "unknown-game",
                say("Kibitz does not know a game called {game_name}.", game_name=repr(game_name)),
            )
        normalized = game.normalize_options(options)
        if not game.open_record(normalized):
            raise IllegalMove(
                "server-referee-only",
                say(
                    "This {title} table keeps secrets (server-drawn chance or hidden hands): only the "
                    "server can referee it.",
                    title=game.title,
                ),
            )
        return cls(game, normalized, (game.new_game(players, normalized, seed),))

    def apply(self, event: Mapping[str, Any]) -> RefereeTable:
        """The table after one more log entry (an undo included); refuses like the server does."""
        if not isinstance(event, Mapping):
            raise MalformedEvent("invalid-event", "An event is a JSON object with a type.")
        if any(value == HIDDEN for key, value in event.items() if key != "type"):
            # Another phone's secret, masked in the open log: this phone cannot follow the game.
            raise IllegalMove(
                "hidden-in-log", "The log holds a card only its owner saw; the server referees."
            )
        seq = self.entries + 1
        if is_undo(event):
            named = undo_target({key: value for key, value in event.items() if key != RESEED})
            check_undo_target(named, self.seqs[-1] if self.seqs else 0)
            seqs = self.seqs[:-1]
        else:
            seqs = (*self.seqs, seq)
        states = tuple(advance(self.game, self.states, event))
        return RefereeTable(self.game, self.options, states, seqs, seq)

    def view(self) -> JSON:
        states = self.states
        # GEN-1: nothing to undo, or the last entry in effect showed the app's chance.
        can_undo = len(states) > 1 and not chance_stands(self.game, states[-2], states[-1])
        return rules_view(self.game, states[-1], can_undo)

    def dump(self) -> JSON:
        return self.game.dump(self.states[-1])

    def private_view(self, seat: int) -> JSON | None:
        """A seat's own view. On an open-record table the log already shows it to everyone at the
        table (a Mahé egg card is seen when it is won, MA-7), so the phone may work it out."""
        return self.game.private_view(self.states[-1], seat)


def _refusal(error: RuleError) -> JSON:
    """A refusal as the server's problem+json has it."""
    problem: JSON = {"status": error.status, "code": error.code, "detail": error.detail}
    if error.rule:
        problem["rule"] = error.rule
    # The catalog id and the values, so the phone says it in the player's language.
    problem["template"] = error.template
    problem["params"] = json_params(error.detail)
    if parts := json_parts(error.detail):  # "red or green" inside "… moves {items}"
        problem["parts"] = parts
    return problem


class Referee:
    """The phone's referees, one per open table, answering JSON requests from the Web Worker."""

    def __init__(self) -> None:
        self.tables: dict[str, RefereeTable] = {}
        self.ops: dict[str, Callable[[JSON], JSON]] = {
            "open": self._open,
            "apply": self._apply,
            "dump": self._dump,
            "private": lambda r: {"view": self.tables[r["id"]].private_view(int(r["seat"]))},
            "close": self._close,
            "replay_dumps": self._replay_dumps,
        }
        # The stateless helpers the screens use while a hand or an end score is typed in ("<game>.<op>").
        for manifest in MANIFESTS.values():
            for op, helper in manifest.helpers.items():
                self.ops[f"{manifest.id}.{op}"] = helper

    def handle(self, request_json: str) -> str:
        """One request {"op": …}; the answer is {"ok": true, …} or {"ok": false, "error": problem}."""
        request = json.loads(request_json)
        try:
            answer = {"ok": True, **self.ops[request["op"]](request)}
        except RuleError as error:
            answer = {"ok": False, "error": _refusal(error), "index": getattr(error, "index", None)}
        except (KeyError, TypeError, ValueError) as error:
            # A request the HTTP schemas would have refused (the screens never send one).
            answer = {"ok": False, "error": {"status": 400, "code": "invalid-request", "detail": repr(error)}}
        return json.dumps(answer, sort_keys=True, separators=(",", ":"))

    def _open(self, request: JSON) -> JSON:
        """Replay a table's log: the server's entries, then what this phone has not sent yet."""
        table = RefereeTable.start(request["game"], request["players"], request["options"], request["seed"])
        for index, event in enumerate(request["events"]):
            try:
                table = table.apply(event)
            except RuleError as error:
                error.index = index  # type: ignore[attr-defined]
                raise
        self.tables[request["id"]] = table
        return {"view": table.view(), "options": table.options}

    def _apply(self, request: JSON) -> JSON:
        """One event at the table; kept only with "commit" (else it is a preview)."""
        table = self.tables[request["id"]].apply(request["event"])
        if request.get("commit"):
            self.tables[request["id"]] = table
        return {"view": table.view(), "options": table.options}

    def _dump(self, request: JSON) -> JSON:
        return {"state": self.tables[request["id"]].dump()}

    def _close(self, request: JSON) -> JSON:
        self.tables.pop(request["id"], None)
        return {}

    def _replay_dumps(self, request: JSON) -> JSON:
        """The full state after every event of a log (the differential check against the server)."""
        game = get_game(request["game"])
        assert game is not None
        options = game.normalize_options(request["options"])
        states = [game.new_game(request["players"], options, request["seed"])]
        dumps = []
        for event in request["events"]:
            states = advance(game, states, event)
            dumps.append(json.dumps(game.dump(states[-1]), sort_keys=True, separators=(",", ":")))
        return {"dumps": dumps}
