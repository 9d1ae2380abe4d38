"""What a Magellan table shows, typed field by field for the OpenAPI document (MG-*): its public
view, legal actions, private view, board sheet and score breakdown."""

from __future__ import annotations

from typing import Any, get_args

from marshmallow import RAISE, Schema, fields, validate

from api.games.schema_kit import (
    Decider,
    action,
    flag,
    integer,
    ints,
    items,
    kind,
    listing,
    nested,
    notes,
    number,
    optional_copy,
    ranked,
    ref,
    result,
    strict,
    text,
    texts,
    undo,
)
from api.rules.common import events as common
from api.rules.magellan.constants import EXPLORERS, PARTS, SIDES
from api.rules.magellan.events import AUCTION_STEPS, MAX_AUCTION_STEPS
from api.rules.magellan.sheet import parts_of
from api.rules.magellan.state import Todo

FIELDS = ("I", "II", "III")

EXPLORER = fields.String(validate=validate.OneOf(EXPLORERS))


def per_explorer(name: str, field: Any, description: str | None = None) -> type[Schema]:
    """An object with one property per explorer (a map whose keys are the explorers)."""
    return strict(name, {e: field() for e in EXPLORERS}, description)


def per_field(name: str, field: Any) -> type[Schema]:
    return strict(name, {f: field() for f in FIELDS})


SheetEntry = strict(
    "BoardSheetEntry",
    {
        "bags": fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=0, max=99)),
        "crowns": fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=0, max=99)),
    },
    "Money bags and crowns printed on one field; null: not typed in yet.",
)
SheetParts = strict(
    "BoardSheetParts",
    {"left": fields.Nested(SheetEntry, allow_none=True), "right": fields.Nested(SheetEntry, allow_none=True)},
    "Vasco da Gama side B: each field has a left and a right part (MG-8).",
)
# Any part of a sheet may be null or left out: read as not typed in yet (MG-2). A field is whole, or
# (Vasco da Gama side B, MG-8) in a left and a right part: each side says which, so the document
# takes exactly the shapes the rules take (api.rules.magellan.sheet.parts_of).
SheetSide = strict(
    "BoardSheetSide", {f: fields.Nested(SheetEntry, allow_none=True) for f in FIELDS}, "Whole fields."
)
SheetPartedSide = strict(
    "BoardSheetPartedSide",
    {f: fields.Nested(SheetParts, allow_none=True) for f in FIELDS},
    "Fields in a left and a right part (Vasco da Gama side B, MG-8).",
)


def _sheet_explorer(explorer: str) -> type[Schema]:
    parted = [side for side in SIDES if parts_of(explorer, side) != (None,)]
    name = "BoardSheetExplorer" + "".join(f"Parted{side}" for side in parted)
    shapes = {side: SheetPartedSide if side in parted else SheetSide for side in SIDES}
    if name not in _SHEET_EXPLORERS:
        _SHEET_EXPLORERS[name] = strict(name, {s: fields.Nested(shapes[s], allow_none=True) for s in SIDES})
    return _SHEET_EXPLORERS[name]


_SHEET_EXPLORERS: dict[str, type[Schema]] = {}
SheetExplorers = strict(
    "BoardSheetExplorers", {e: fields.Nested(_sheet_explorer(e), allow_none=True) for e in EXPLORERS}
)
BoardSheet = strict(
    "BoardSheet",
    {"explorers": fields.Nested(SheetExplorers, allow_none=True)},
    "A Magellan board sheet (MG-2): per explorer, side and field the printed bags and crowns.",
)

MagellanSides = per_explorer(
    "MagellanSides", lambda: fields.String(validate=validate.OneOf(SIDES)), "Board side per explorer (MG-1)"
)
MagellanOptions = strict(
    "MagellanOptions",
    {
        "sides": nested(MagellanSides),
        "depth": text("`outcomes`: auctions only; `ledger`: every money card", one_of=["outcomes", "ledger"]),
        "chance": text("Who draws: the players (`physical`) or the server (`digital`)",
                       one_of=["physical", "digital"]),
        "auctioneer": integer("Who turns up the first card (MG-3)"),
        "board_sheet": fields.Nested(
            BoardSheet, allow_none=True, metadata={"description": "In the table's options only"}
        ),
    },
)  # fmt: skip
ExplorerCounts = per_explorer(
    "ExplorerCounts", lambda: fields.Integer(strict=True), "Cards per explorer; an explorer left out has none"
)
ExplorerPoints = per_explorer("ExplorerPoints", lambda: fields.Integer(strict=True, required=True))
MagellanDeck = strict(
    "MagellanDeck",
    {
        "phase": integer(),
        "remaining": integer(),
        "composition": nested(ExplorerCounts, "Cards per explorer still in the deck"),
        "under_deck": listing(EXPLORER, "Cards put under the deck"),
    },
)
MagellanBid = strict("MagellanBid", {"seat": integer(), "amount": integer("null: passed", null=True)})
MagellanCard = strict(
    "MagellanCard",
    {
        "explorer": text(one_of=EXPLORERS),
        "field": integer(),
        "part": text(null=True, one_of=[*PARTS, None]),
        "phase": integer(),
        "order": ints("Bidding order"),
        "bids": items(MagellanBid),
        "passed": ints(),
        "high_bid": integer(),
        "high_bidder": integer(null=True),
        "turn": integer(null=True),
        "winner": integer(null=True),
        "price": integer(null=True),
        "payment": ints(),
        "todo": texts("What the winner still does", one_of=get_args(Todo)),
        "draws_due": integer(),
    },
    "The explorer card on auction or just sold (MG-4).",
)
MagellanShip = strict(
    "MagellanPlayerShip", {"explorer": text(one_of=EXPLORERS), "field": integer(), "part": text(null=True)}
)
MagellanWon = strict(
    "MagellanWon", {"explorer": text(one_of=EXPLORERS), "phase": integer(), "price": integer()}
)
MagellanPile = strict(
    "MagellanPile", {"cards": integer(), "slid": ints("Values, once shown (MG-8)", null=True)}
)
MagellanPlayer = strict(
    "MagellanPlayer",
    {
        "seat": integer(),
        "name": text(),
        "ships": items(MagellanShip),
        "ships_left": integer(),
        "won": items(MagellanWon),
        "vetoes": integer(),
        "vetoes_used": integer(),
        "hand_size": integer(null=True),
        "open_hand": ints("Cook: the hand lies open (MG-8)", null=True),
        "magellan_piles": items(MagellanPile),
        "pizarro": ints("Pizarro draws"),
        "final_hand_entered": flag(null=True),
    },
)
BoardShip = strict("MagellanBoardShip", {"seat": integer(), "part": text(null=True)})
BoardFields = per_field("MagellanBoardFields", lambda: items(BoardShip))
MagellanBoard = per_explorer("MagellanBoard", lambda: nested(BoardFields), "Ships per explorer and field")
MagellanSale = strict(
    "MagellanSale",
    {
        "phase": integer(),
        "explorer": text(one_of=EXPLORERS),
        "outcome": text(one_of=["sold", "no-bids", "nobody-eligible", "vetoed"]),
        "seat": integer(null=True),
        "price": integer(null=True),
    },
)
MagellanMoney = strict("MagellanMoney", {"draw_stack": integer(), "discard": ints(), "reshuffles": integer()})
MagellanIncome = strict(
    "MagellanIncome",
    {"phase": integer(), "cards": listing(fields.Integer(strict=True, allow_none=True), "Per seat")},
)
MagellanPhaseEnd = strict(
    "MagellanPhaseEnd",
    {"phase": integer(), "due": ints(), "income": ints(null=True), "swaps": ints()},
)
FieldScore = strict(
    "MagellanFieldScore",
    {
        "explorer": text(one_of=EXPLORERS),
        "field": integer(),
        "part": text(null=True),
        "crowns": integer(),
        "note": text(optional=True),
    },
)
MoneyScore = strict("MagellanMoneyScore", {"cards": ints(), "crowns": integer()})
PileScore = strict(
    "MagellanPileScore",
    {"cards": integer(), "slid": ints(), "crowns": integer(), "multiplier": integer(), "points": integer()},
)
MagellanPiles = strict("MagellanPilesScore", {"piles": items(PileScore), "points": integer()})
PizarroScore = strict(
    "MagellanPizarroScore", {"draws": ints(), "sum": integer(), "points": integer(), "bust": flag()}
)
MagellanScore = strict(
    "MagellanScore",
    {
        "seat": integer(),
        "name": text(),
        "fields": items(FieldScore),
        "fields_total": integer(),
        "money": nested(MoneyScore),
        "magellan": nested(MagellanPiles),
        "pizarro": nested(PizarroScore, "The Pizarro draw (MG-11)", null=True),
        "by_explorer": nested(ExplorerPoints),
        "before_pizarro": integer(),
        "total": integer(),
    },
    "One player's score breakdown (MG-10, MG-11).",
)
MagellanScoring = strict(
    "MagellanScoring",
    {
        "order": ints(),
        "pizarro_done": flag(),
        "pizarro_seat": integer(null=True),
        "scores": items(MagellanScore, null=True),
    },
)
MagellanRanking = ranked("Magellan", {"score": integer()})
MagellanResult = result(
    "Magellan",
    MagellanRanking,
    ["points", "shared"],
    scores=items(MagellanScore),
    scoring_order=ints("MG-10"),
)
MagellanView = strict(
    "MagellanView",
    {
        "game": kind("magellan"),
        "options": nested(MagellanOptions),
        "phase": integer("1 to 3 (MG-3)"),
        "stage": text(one_of=["reveal", "auction", "sale", "phase_end", "scoring", "finished"]),
        "waiting_for": text("Who is awaited, in English"),
        "decks": items(MagellanDeck),
        "card": nested(MagellanCard, null=True),
        "players": items(MagellanPlayer),
        "board": nested(MagellanBoard),
        "history": items(MagellanSale),
        "last_winner": integer(null=True),
        "money": nested(MagellanMoney, "Ledger depth only", null=True),
        "incomes": items(MagellanIncome),
        "phase_end": nested(MagellanPhaseEnd, null=True),
        "scoring": nested(MagellanScoring, null=True),
        "board_sheet": nested(BoardSheet),
        "board_sheet_missing": texts(),
        "board_sheet_needed_now": texts(),
        "result": nested(MagellanResult, null=True),
    },
)
VascoOption = strict(
    "MagellanVascoOption",
    {"part": text(one_of=PARTS), "from_part": text(null=True, one_of=[*PARTS, None]), "draws": integer()},
)
MAGELLAN_ACTIONS = [
    action("Magellan", "reveal", {"explorers": listing(EXPLORER)}),
    action("Magellan", "bid", {"min": integer(), "max": integer(null=True)}),
    action("Magellan", "pass", {}),
    action("Magellan", "veto", {"card": text(one_of=EXPLORERS)}),
    action("Magellan", "pay", {"at_least": integer(), "must_keep": integer()}),
    action(
        "Magellan",
        "slide",
        {
            "source": text(one_of=["hand", "payment", "table"]),
            "values": ints(null=True),
            "piles": ints(),
            "new_pile": flag(),
        },
    ),
    action("Magellan", "draw", {"count": integer()}),
    action("Magellan", "vasco_part", {"options": items(VascoOption)}),
    action(
        "Magellan",
        "cook_pull",
        {
            "from_seat": integer("Whose hand the card is pulled from (MG-8)"),
            "hand_size": integer(),
            "value_required": flag(),
        },
    ),
    action("Magellan", "swap", {"left": integer(), "draw_required": flag()}),
    action("Magellan", "end_swaps", {}),
    action("Magellan", "final_hand", {}),
    action(
        "Magellan",
        "pizarro_draw",
        {
            "total": integer(),
            "to_beat": integer(),
            "bust_chance": number(),
            "beat_chance": number(),
            "expected_points": number(),
            "value_required": flag(),
        },
    ),
    action("Magellan", "pizarro_stop", {"points": integer()}),
    action("Magellan", "set_board_sheet", {"missing": texts(), "needed_now": texts()}),
]
MagellanActor = strict(
    "MagellanActor",
    {
        "seat": integer(),
        "name": text(),
        "reason": text(),
        "actions": listing(fields.Raw(metadata=ref("MagellanAction"))),
    },
)
Blocked = strict(
    "MagellanBlocked",
    {"code": text(), "detail": text(), "missing": texts(), "rule": text()},
)
MagellanLegalActions = strict(
    "MagellanLegalActions",
    {
        "phase": integer(),
        "stage": text(),
        "step": text(),
        "next": nested(Decider, null=True),
        "actors": items(MagellanActor, "Who may act, with their actions"),
        "table_actions": listing(fields.Raw(metadata=ref("MagellanAction"))),
        "blocked": nested(Blocked, "What the board sheet still needs (MG-2)", null=True),
        "notes": notes(),
        "undo": undo(),
    },
)
PrivateActions = strict(
    "MagellanPrivateActions", {"bid_max": integer("The most this seat can pay", null=True), "notes": notes()}
)
MagellanPrivateView = strict(
    "MagellanPrivateView",
    {
        "seat": integer(),
        "name": text(),
        "hand": ints("The own money cards (ledger depth)", null=True),
        "hand_open": flag(),
        "magellan_piles": listing(fields.List(fields.Integer(strict=True)), "Values slid under each pile"),
        "actions": nested(PrivateActions),
    },
)
NextCard = strict(
    "MagellanNextCard",
    {"value": integer(), "chance": number(), "total": integer("The Pizarro sum with this card")},
)
RuleFixed = strict("MagellanRuleFixed", {"entry": text(), "reason": text()})
# Maps whose keys are a fixed list, as objects with those keys (a request's keys are checked too).
MoneyStack = strict(
    "MoneyStack",
    {
        str(value): fields.Integer(strict=True, validate=validate.Range(min=0, max=7))
        for value in range(1, 10)
    },
    'Money value → copies left in the stack, e.g. {"1": 3, "9": 5}; a value left out: none',
)
MagellanOptionsRequest = optional_copy(
    MagellanOptions, "MagellanOptionsRequest", nullable=("sides", "board_sheet")
)


# ---------- its events' own kinds of field (api.contract.vocabulary) ----------


class MagellanAuctionStepSchema(Schema):
    """One step of a Magellan auction entry: a bid or a pass, with the seat of its player (MG-4)."""

    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.OneOf(AUCTION_STEPS))
    seat = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=common.MAX_SEAT),
        metadata={"description": "The seat of the player who bids or passes"},
    )
    amount = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=1),
        metadata={"description": "The bid (MG-4); a pass has none"},
    )


def sheet_field(spec: common.Field, options: dict[str, Any]) -> fields.Field:
    return fields.Nested(BoardSheet, **options)


def seat_cards_field(spec: common.Field, options: dict[str, Any]) -> fields.Field:
    seat = r"^[0-5]$"  # Magellan seats (3 to 6 players, MG-1)
    options["metadata"] = {**options.get("metadata", {}), "x-propertyNames": {"pattern": seat}}
    return fields.Dict(
        keys=fields.String(validate=validate.Regexp(seat)),
        values=fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=9))),
        **options,
    )


def steps_field(spec: common.Field, options: dict[str, Any]) -> fields.Field:
    return fields.List(
        fields.Nested(MagellanAuctionStepSchema),
        validate=validate.Length(min=1, max=MAX_AUCTION_STEPS),
        **options,
    )
