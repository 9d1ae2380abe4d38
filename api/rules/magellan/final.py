"""The end of a table's game: its players' end positions and the MG-10/MG-12 result."""

from __future__ import annotations

from typing import Any

from api.rules.magellan.scoring import ScoreInput, score_game
from api.rules.magellan.state import MagellanState


def first_scorer(state: MagellanState) -> int:
    """MG-10: the winner of the last sold card (Decision: if the last card went to the box, the most
    recent winner; if nobody ever won, the auctioneer)."""
    return state.options.auctioneer if state.last_winner is None else state.last_winner


def score_inputs(state: MagellanState) -> list[ScoreInput]:
    sc = state.scoring
    return [
        ScoreInput(
            name=p.name,
            ships=p.ships,
            money=p.hand if state.ledger else (p.final_hand or ()),
            piles=p.piles,
            pizarro=p.pizarro if sc is not None and sc.pizarro_seat == seat else None,
        )
        for seat, p in enumerate(state.players)
    ]


def result(state: MagellanState) -> dict[str, Any] | None:
    """Final standings once everything is counted, else None."""
    if state.stage != "finished":
        return None
    return score_game(score_inputs(state), state.options.side_map(), state.sheet, first_scorer(state))
