"""`legal_actions`: who acts next (seat + reason), what each of them may do, and notes for the table.

Shape: {"phase", "stage", "step", "next": {seat, name, reason} | null, "actors": [{seat, name, reason,
actions: [...]}], "table_actions": [...], "blocked": {...} | null, "notes": [{code, rule, text}]}.
`actors` lists everyone who may act now (several at once during income, swaps and hand entry; the
Columbus owners beside the first bidder); `next` is the first of them.
"""

from __future__ import annotations

from typing import Any

from api.rules.errors import counted, say, term
from api.rules.errors import note as note_json
from api.rules.magellan.auction import must_keep, starter
from api.rules.magellan.cards import composition, unplaced_cards
from api.rules.magellan.constants import (
    EXPLORER_NAMES,
    EXPLORERS,
    PIZARRO_LIMIT,
    ROMAN,
)
from api.rules.magellan.scoring import odds
from api.rules.magellan.sheet import missing_entries
from api.rules.magellan.state import MagellanState, current_card, left_neighbour, winner
from api.rules.magellan.views import scores_so_far
from api.rules.magellan.waiting import missing_for_income, missing_for_scoring, needed_now, sheet_incomplete

JSON = dict[str, Any]


class _Builder:
    def __init__(self, state: MagellanState) -> None:
        self.state = state
        self.actors: list[JSON] = []
        self.notes: list[JSON] = []

    def actor(self, seat: int, reason: str, actions: list[JSON]) -> None:
        self.actors.append(
            {"seat": seat, "name": self.state.name(seat), "reason": reason, "actions": actions}
        )

    def note(self, code: str, rule: str, text: str) -> None:
        self.notes.append(note_json(code, rule, text))


def _reveal(b: _Builder) -> str:
    state = b.state
    explorers = sorted(set(state.deck.hidden), key=EXPLORERS.index)
    b.actor(
        state.options.auctioneer,
        f"turns up the top card of the phase {ROMAN[state.phase]} deck and types in its explorer (MG-4)",
        [{"type": "reveal", "explorers": explorers}],
    )
    return "reveal"


def _auction(b: _Builder) -> str:
    state = b.state
    card = current_card(state)
    seat = card.turn
    assert seat is not None
    name = EXPLORER_NAMES[card.explorer]
    minimum = card.high_bid + 1
    # Ledger: what a hand can pay is its owner's secret (api.rules.magellan.views.secret_seat): the shared
    # view offers the bid without a limit; the bidder's own view has it.
    actions: list[JSON] = [{"type": "bid", "min": minimum, "max": None}, {"type": "pass"}]
    if card.bids:
        reason = f"bids more than {card.high_bid} for {name} or passes (MG-4)"
    else:
        first = starter(state)
        why = "the auctioneer" if state.last_winner is None else "the winner of the last card"
        rules = "MG-4"
        if first != seat:
            why = f"the first player clockwise from {state.name(first)} ({why}) who may bid"
            rules = "MG-4, MG-5"
        reason = f"opens the bidding for {name} as {why} ({rules})"
    b.actor(seat, reason, actions)
    if not card.has_bid and state.deck.size > 0:
        for holder, player in enumerate(state.players):
            if player.vetoes > 0:
                b.actor(
                    holder,
                    f"may veto {name} before the first bid: it goes under the deck (Columbus, MG-8)",
                    [{"type": "veto", "card": card.explorer}],
                )
    if state.phase > 1:
        b.note(
            "who-may-bid",
            "MG-5",
            say(
                "Only players with a ship on {explorer} field {field} may bid: {names}.",
                explorer=name,
                field=ROMAN[state.phase - 1],
                names=", ".join(state.name(s) for s in card.order) or term("nobody"),
            ),
        )
    return "bid"


def _part_options(state: MagellanState, seat: int, explorer: str) -> list[JSON]:
    """Vasco da Gama B: each part the ship may go to, from each part a ship may move on from (MG-8)."""
    phase = state.phase
    draws = state.power(explorer).draws_left
    froms: list[str | None] = [None]
    if phase > 1:
        froms = [
            *sorted({s.part for s in state.players[seat].ships_on(explorer, phase - 1) if s.part is not None})
        ]
    return [
        {"part": part, "from_part": origin, "draws": draws if part == "left" else 0}
        for part in ("left", "right")
        for origin in froms
    ]


def _sale(b: _Builder) -> str:
    state = b.state
    card = current_card(state)
    seat = winner(state)
    name, head = EXPLORER_NAMES[card.explorer], card.todo[0]
    if head == "pay":
        b.actor(
            seat,
            f"won {name} for {card.price} and pays with money cards; overpaying is allowed, no change (MG-6)",
            [{"type": "pay", "at_least": card.price, "must_keep": must_keep(state, card.explorer)}],
        )
    elif head == "vasco_part":
        b.actor(
            seat,
            "chooses the left part (draw cards now, no crowns) or the right part (crowns at the end) (MG-8)",
            [{"type": "vasco_part", "options": _part_options(state, seat, card.explorer)}],
        )
    elif head == "draw":
        b.actor(
            seat,
            f"draws {card.draws_due} money card(s) at once and types them in (MG-8)",
            [{"type": "draw", "count": card.draws_due}],
        )
    elif head == "slide":
        player = state.players[seat]
        if state.phase == 1:
            piles = [len(player.piles)]
        else:
            piles = [i for i, p in enumerate(player.piles) if len(p) == state.phase - 1]
        slide_from = state.power(card.explorer).slide_from
        source = "table" if not state.ledger else slide_from
        b.actor(
            seat,
            "slides one money card under Magellan: "
            + ("from the payment, face up" if slide_from == "payment" else "from the hand, face down")
            + " (MG-8)",
            [
                {
                    "type": "slide",
                    "piles": piles,
                    "new_pile": state.phase == 1,
                    "source": source,
                    "values": list(card.payment) if source == "payment" else None,
                }
            ],
        )
    elif head == "cook_pull":
        puller = left_neighbour(state, seat)
        b.actor(
            puller,
            f"pulls one card from {state.name(seat)}'s hand onto the discard pile (Cook B, MG-8)",
            [
                {
                    "type": "cook_pull",
                    "from_seat": seat,
                    "hand_size": len(state.players[seat].hand),
                    "value_required": not state.digital,
                }
            ],
        )
    return head


def _blocked(b: _Builder, missing: list[str], why: str) -> JSON:
    error = sheet_incomplete(missing, why)
    return {"code": error.code, "rule": error.rule, "detail": error.detail, "missing": missing}


def _phase_end(b: _Builder) -> tuple[str, JSON | None]:
    state = b.state
    pe = state.phase_end
    assert pe is not None
    if pe.income is None:
        return "board_sheet", _blocked(b, missing_for_income(state), "The phase-end income (MG-9)")
    if any(pe.due):
        for seat, due in enumerate(pe.due):
            if due:
                b.actor(
                    seat,
                    f"draws {due} money card(s): phase-end income, 2 cards plus the bags of the ships on "
                    f"field {ROMAN[pe.phase]} (MG-9)",
                    [{"type": "draw", "count": due}],
                )
        return "income", None
    for seat, left in enumerate(pe.swaps):
        if left:
            b.actor(
                seat,
                f"may swap up to {left} more hand card(s), one by one (Marco Polo A, MG-8)",
                [{"type": "swap", "left": left, "draw_required": not state.digital}, {"type": "end_swaps"}],
            )
    return "swap", None


def pizarro_stack(state: MagellanState) -> dict[int, int]:
    """What the Pizarro player draws from: the draw stack (ledger; the discard once it is empty), or
    in outcomes depth every card whose place is not known (Decision)."""
    if state.ledger:
        return composition(state.draw or state.discard)
    return composition(unplaced_cards(state))


def _scoring(b: _Builder) -> tuple[str, JSON | None]:
    state = b.state
    sc = state.scoring
    assert sc is not None
    waiting = [s for s, p in enumerate(state.players) if p.final_hand is None]
    if not state.ledger and waiting:
        for seat in waiting:
            b.actor(seat, "types in the money cards left in hand (MG-10)", [{"type": "final_hand"}])
        return "final_hand", None
    missing = missing_for_scoring(state)
    if missing:
        return "board_sheet", _blocked(b, missing, "Scoring")
    drawer = sc.pizarro_seat
    assert drawer is not None
    scores = scores_so_far(state) or []
    mine = scores[drawer]
    drawn = state.players[drawer].pizarro
    total = sum(drawn)
    others = [int(s["total"]) for s in scores if s["seat"] != drawer]
    target = max(others) - int(mine["before_pizarro"]) if others else None
    chances = odds(pizarro_stack(state), total, target)
    draw_action: list[JSON] = []
    if chances["stack_size"] == 0:
        b.note("stack-empty", "MG-11", "No money card is left to turn up: the Pizarro draw must stop.")
    else:
        draw_action.append(
            {
                "type": "pizarro_draw",
                "value_required": not state.digital,
                "total": total,
                "bust_chance": chances["bust_chance"],
                "to_beat": target,
                "beat_chance": chances.get("beat_chance"),
                "expected_points": chances["expected_points"],
            }
        )
    b.actor(
        drawer,
        f"turns up money cards for Pizarro one by one and may stop at any time; {total} so far, "
        f"over {PIZARRO_LIMIT} scores 0 (MG-11)",
        [*draw_action, {"type": "pizarro_stop", "points": total}],
    )
    return "pizarro", None


def _outcome_notes(b: _Builder) -> None:
    """Outcomes depth: what happens at the table without being recorded."""
    state = b.state
    last = state.history[-1] if state.history else None
    card = state.card
    fresh = state.stage == "reveal" or (state.stage == "auction" and card is not None and not card.bids)
    if last is not None and last.outcome == "sold" and last.seat is not None and fresh:
        seat, won = last.seat, state.power(last.explorer, last.phase)
        who = state.name(seat)
        if won.draws:
            b.note(
                "vasco-draw",
                "MG-8",
                counted(
                    won.draws,
                    "{who} draws {vasco_draws} money card now.",
                    "{who} draws {vasco_draws} money cards now.",
                    who=who,
                    vasco_draws=won.draws,
                ),
            )
        if won.part_choice:
            b.note(
                "vasco-draw",
                "MG-8",
                counted(
                    won.draws_left,
                    "{who} draws {vasco_draws} money card now if the ship went left.",
                    "{who} draws {vasco_draws} money cards now if the ship went left.",
                    who=who,
                    vasco_draws=won.draws_left,
                ),
            )
        if won.open_hand:
            b.note(
                "cook-open",
                "MG-8",
                say("{who} lays the rest of the hand open until the phase ends.", who=who),
            )
        if won.neighbour_pull:
            puller = state.name(left_neighbour(state, seat))
            b.note(
                "cook-pull",
                "MG-8",
                say(
                    "{puller} pulls one card from {who}'s hand onto the discard pile.", puller=puller, who=who
                ),
            )
    phase_started = not any(h.phase == state.phase for h in state.history)
    ended = state.phase - 1 if state.stage in ("reveal", "auction") and phase_started else None
    if state.stage == "scoring" and len(state.incomes) == 3:
        ended = 3
    if ended and len(state.incomes) >= ended:
        income = state.incomes[ended - 1]
        draws = ", ".join(f"{state.name(s)} {'?' if n is None else n}" for s, n in enumerate(income))
        b.note(
            "income",
            "MG-9",
            say(
                "End of phase {phase}: open Cook hands go back into the hands; the discard pile is "
                "shuffled into the draw stack; money cards to draw: {list}.",
                phase=ROMAN[ended],
                list=draws,
            )
            if ended < 3
            else say(
                "End of phase {phase}: open Cook hands go back into the hands; money cards to draw: {list}.",
                phase=ROMAN[ended],
                list=draws,
            ),
        )
        for seat, player in enumerate(state.players):
            swaps = state.swaps_earned(seat, ended)
            if swaps:
                b.note(
                    "marco-polo-swaps",
                    "MG-8",
                    counted(
                        swaps,
                        "{name} may swap up to {value} hand card one by one (Marco Polo).",
                        "{name} may swap up to {value} hand cards one by one (Marco Polo).",
                        name=player.name,
                        value=swaps,
                    ),
                )


def legal_actions(state: MagellanState) -> JSON:
    b = _Builder(state)
    blocked: JSON | None = None
    stage = state.stage
    if stage == "reveal":
        step = _reveal(b)
    elif stage == "auction":
        step = _auction(b)
    elif stage == "sale":
        step = _sale(b)
    elif stage == "phase_end":
        step, blocked = _phase_end(b)
    elif stage == "scoring":
        step, blocked = _scoring(b)
    else:
        step = "finished"
        b.note("game-over", "MG-12", "The game is over.")
    if not state.ledger:
        _outcome_notes(b)
    table_actions: list[JSON] = []
    if stage != "finished":
        table_actions.append(
            {
                "type": "set_board_sheet",
                "missing": missing_entries(state.sheet, state.options.side_map()),
                "needed_now": needed_now(state),
            }
        )
    first = b.actors[0] if b.actors else None
    return {
        "phase": state.phase,
        "stage": stage,
        "step": step,
        "next": None if first is None else {k: first[k] for k in ("seat", "name", "reason")},
        "actors": b.actors,
        "table_actions": table_actions,
        "blocked": blocked,
        "notes": b.notes,
    }
