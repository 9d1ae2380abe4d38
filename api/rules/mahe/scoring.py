"""MA-10: most eggs wins; a tie goes to more cards (the beach counts as one); still tied, a shared win."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.rules.mahe.state import MaheState, Player


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _tied(names: Sequence[str]) -> str:
    return "both" if len(names) == 2 else "all"


def _count(number: int, word: str) -> str:
    """ "1 egg", "2 eggs": the explanation is English (clients translate by `decided_by`)."""
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def rank(players: Sequence[Player]) -> dict[str, Any]:
    """Standings for any set of hands; `place` is shared only by players equal on eggs and cards."""

    def key(seat: int) -> tuple[int, int]:
        return players[seat].eggs, players[seat].card_count

    order = sorted(range(len(players)), key=lambda s: (-players[s].eggs, -players[s].card_count, s))
    places = {s: 1 + sum(1 for o in order if key(o) > key(s)) for s in order}
    ranking = [
        {
            "seat": s,
            "name": players[s].name,
            "eggs": players[s].eggs,
            "cards": players[s].card_count,
            "place": places[s],
        }
        for s in order
    ]
    winners = [s for s in order if places[s] == 1]
    best = players[order[0]]
    on_eggs = [s for s in order if players[s].eggs == best.eggs]
    if len(on_eggs) == 1:
        decided_by = "eggs"
        runner = players[order[1]]
        explanation = (
            f"{best.name} wins with {_count(best.eggs, 'egg')}; "
            f"next is {runner.name} with {runner.eggs} (MA-10)."
        )
    elif len(winners) == 1:
        decided_by = "cards"
        names = [players[s].name for s in on_eggs]
        second = max(players[s].card_count for s in on_eggs[1:])
        explanation = (
            f"{_names(names)} {_tied(names)} have {_count(best.eggs, 'egg')}; {best.name} wins with "
            f"{_count(best.card_count, 'card')} to {second} (MA-10)."
        )
    else:
        decided_by = "shared"
        names = [players[s].name for s in winners]
        explanation = (
            f"{_names(names)} {_tied(names)} have {_count(best.eggs, 'egg')} and "
            f"{_count(best.card_count, 'card')}: "
            "they share the win (MA-10 Decision)."
        )
    return {"ranking": ranking, "winners": winners, "decided_by": decided_by, "explanation": explanation}


def result(state: MaheState) -> dict[str, Any] | None:
    """Final standings once the beach is taken (MA-8), else None."""
    if state.phase != "finished":
        return None
    return rank(state.players)
