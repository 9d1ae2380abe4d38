"""What a table looks like to its readers: public state, legal actions, undo, result."""

from __future__ import annotations

from typing import Any

from api.i18n import DEFAULT, localize_notes
from api.rules.common.seeds import shown_seed
from api.rules.referee import rules_view
from api.rules.registry import get_game
from api.tables.store import TableRow


def table_view(table: TableRow, language: str = DEFAULT) -> dict[str, Any]:
    """The table as its readers see it, its referee notes said in `language`."""
    game = get_game(table.game)
    assert game is not None, "stored tables only name registered games"
    rules = rules_view(
        game, game.load(table.state), can_undo=table.head > 0 and not table.head_stands
    )  # GEN-1
    return {
        "id": table.id,
        "game": table.game,
        "version": table.version,
        "finished": table.finished,
        "players": table.players,
        "options": table.options,
        "state": rules["state"],
        "legal_actions": localize_notes(rules["legal_actions"], language),
        "result": rules["result"],
        # The seed decides every future server draw, so it is shown only once nothing is left to draw
        # (an undo that reopens the game draws on from a fresh secret seed), or from the start when
        # the creator chose it, so that nobody foresees more than the others.
        "seed": shown_seed(table.seed) if table.finished or table.seed_public else None,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
    }


def replay_view(table: TableRow, states: list[Any], language: str = DEFAULT) -> dict[str, Any]:
    """The table after each log entry (steps[k]: after entry k, steps[0]: the new game), each as its
    readers saw it then: the public state, who decided and what they might do, the result. Undo is
    never offered: a replay only looks back."""
    game = get_game(table.game)
    assert game is not None, "stored tables only name registered games"
    steps = []
    for seq, state in enumerate(states):
        rules = rules_view(game, state, can_undo=False)
        steps.append(
            {
                "seq": seq,
                "finished": rules["finished"],
                "state": rules["state"],
                "legal_actions": localize_notes(rules["legal_actions"], language),
                "result": rules["result"],
            }
        )
    return {"game": table.game, "version": table.version, "steps": steps}
