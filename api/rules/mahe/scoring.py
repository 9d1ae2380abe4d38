"""MA-10: most eggs wins; a tie goes to more cards (the beach counts as one); still tied, a shared win."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.rules.mahe.state import MaheState, Player


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _tied(names: Sequence[str]) -> str:
    return "both" if len(names) == 2 else "all"


def rank(players: Sequence[Player]) -> dict[str, Any]:
    """Standings for any set of hands; `place` is shared only by players equal on eggs and cards."""
    order = sorted(range(len(players)), key=lambda s: (-players[s].eggs, -players[s].card_count, s))
    key = {s: (players[s].eggs, players[s].card_count) for s in order}
    ranking = [
        {
            "seat": s,
            "name": players[s].name,
            "eggs": players[s].eggs,
            "cards": players[s].card_count,
            "place": 1 + sum(1 for o in order if key[o] > key[s]),
        }
        for s in order
    ]
    winners = [row["seat"] for row in ranking if row["place"] == 1]
    top_eggs = ranking[0]["eggs"]
    on_eggs = [row for row in ranking if row["eggs"] == top_eggs]
    if len(on_eggs) == 1:
        decided_by = "eggs"
        runner = f"; next is {ranking[1]['name']} with {ranking[1]['eggs']}" if len(ranking) > 1 else ""
        explanation = f"{ranking[0]['name']} wins with {top_eggs} eggs{runner} (MA-10)."
    elif len(winners) == 1:
        decided_by = "cards"
        names = [str(row["name"]) for row in on_eggs]
        second = max(row["cards"] for row in on_eggs[1:])
        explanation = (
            f"{_names(names)} {_tied(names)} have {top_eggs} eggs; {ranking[0]['name']} wins with "
            f"{ranking[0]['cards']} cards to {second} (MA-10)."
        )
    else:
        decided_by = "shared"
        names = [str(row["name"]) for row in ranking if row["place"] == 1]
        explanation = (
            f"{_names(names)} {_tied(names)} have {top_eggs} eggs and {ranking[0]['cards']} cards: "
            "they share the win (MA-10 Decision)."
        )
    return {"ranking": ranking, "winners": winners, "decided_by": decided_by, "explanation": explanation}


def result(state: MaheState) -> dict[str, Any] | None:
    """Final standings once the beach is taken (MA-8), else None."""
    if state.phase != "finished":
        return None
    return rank(state.players)
