"""Waits: for a hand one card short (13 cards besides flowers), every card that would complete it.

Each wait gives the points the completed hand would score (MH-5 … MH-8) and how many copies of the
card are not in the hand (`copies_left`). A joker is listed as `jk` when it completes the hand (it
then stands for whatever scores best, MH-5). A card whose four copies are all in the hand cannot
come any more and is not listed (only a joker can be a fifth copy, MH-5 Decision). A wait that
completes the exceptional hand (MH-7) does so only from the stack (MH-3 Decision): `on_discard` says
which waits a discard can complete, and a hand asked about as a discard lists only those.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from api.rules.errors import IllegalMove, say
from api.rules.mhing.cards import COPIES_OF_KIND, JOKER, JOKER_TOTAL, KINDS
from api.rules.mhing.exceptional import HAND_SIZE
from api.rules.mhing.hand import Hand
from api.rules.mhing.scoring import Score, score_hand, score_json

JSON = dict[str, Any]


@dataclass(frozen=True)
class Wait:
    card: str
    copies_left: int
    score: Score


def waits(hand: Hand) -> list[Wait]:
    """Every card (the 34 kinds, then the joker) that makes the hand go out, with its score."""
    if hand.card_count != HAND_SIZE - 1:
        raise IllegalMove(
            "wrong-card-count",
            say(
                "Waits are for a hand one card short of going out: {value} cards besides the flowers, not "
                "{card_count} (MH-5).",
                value=HAND_SIZE - 1,
                card_count=hand.card_count,
            ),
            "MH-5",
        )
    held = hand.physical_cards()
    found = []
    for card in (*KINDS, JOKER):
        left = (JOKER_TOTAL if card == JOKER else COPIES_OF_KIND) - held.count(card)
        if left <= 0:
            continue
        score = score_hand(replace(hand, hidden=(*hand.hidden, card)))
        if score.wins:
            found.append(Wait(card, left, score))
    return found


def waits_json(hand: Hand) -> JSON:
    found = waits(hand)
    return {
        "cards": hand.card_count,
        "ready": bool(found),
        "waits": [
            {
                "card": w.card,
                "copies_left": w.copies_left,
                "total_premiums": w.score.total_premiums,
                "points": w.score.points,
                "reading": score_json(w.score)["reading"],
                "on_discard": w.score.special is None,  # MH-3 Decision: never the exceptional hand
            }
            for w in found
        ],
        "hand": hand.to_json(),
    }
