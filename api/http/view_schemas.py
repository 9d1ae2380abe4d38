"""What each game's table shows, typed field by field for the OpenAPI document: public views,
legal actions (one schema per action type, discriminated by `type`), results, private views and
Magellan's board sheet and score breakdown.

These schemas only document: the answers are built by the rules (`rules_view`) and dumped as they
are. tests/contract/test_vocabulary.py checks every step of random whole games of all three games
against them with additional properties refused, so a key the rules add or drop fails there.
"""

from __future__ import annotations

import copy
from typing import Any, get_args

from marshmallow import RAISE, Schema, fields, validate

from api.games.mhing.endpoints import ScoreResultSchema
from api.http.problem_codes import catalog
from api.rules.magellan.constants import EXPLORERS, PARTS, SIDES
from api.rules.magellan.events import EVENT_FIELDS as MAGELLAN_EVENTS
from api.rules.magellan.sheet import parts_of
from api.rules.magellan.state import Todo
from api.rules.mahe.constants import TURTLE_COLOURS
from api.rules.mahe.events import EVENT_FIELDS as MAHE_EVENTS
from api.rules.mhing.events import EVENT_FIELDS as MHING_EVENTS

FIELDS = ("I", "II", "III")


def strict(name: str, members: dict[str, fields.Field], doc: str | None = None) -> type[Schema]:
    """A schema class named as its component (`name`), refusing keys it does not declare."""
    body: dict[str, Any] = {**members, "Meta": type("Meta", (), {"unknown": RAISE})}
    if doc:
        body["__doc__"] = doc
    return type(name, (Schema,), body)


def _meta(description: str | None) -> dict[str, Any]:
    return {"metadata": {"description": description}} if description else {}


def integer(description: str | None = None, *, null: bool = False, optional: bool = False) -> fields.Field:
    return fields.Integer(strict=True, required=not optional, allow_none=null, **_meta(description))


def number(description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Float(required=True, allow_none=null, **_meta(description))


def text(
    description: str | None = None, *, null: bool = False, one_of: Any = None, optional: bool = False
) -> fields.Field:
    check = validate.OneOf(list(one_of)) if one_of is not None else None
    return fields.String(required=not optional, allow_none=null, validate=check, **_meta(description))


def flag(description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Boolean(required=True, allow_none=null, **_meta(description))


def listing(item: fields.Field, description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.List(item, required=True, allow_none=null, **_meta(description))


def nested(schema: type[Schema], description: str | None = None, *, null: bool = False) -> fields.Field:
    return fields.Nested(schema, required=True, allow_none=null, **_meta(description))


def items(schema: type[Schema], description: str | None = None, *, null: bool = False) -> fields.Field:
    return listing(fields.Nested(schema), description, null=null)


def ints(description: str | None = None, *, null: bool = False) -> fields.Field:
    return listing(fields.Integer(strict=True), description, null=null)


def texts(description: str | None = None, *, null: bool = False, one_of: Any = None) -> fields.Field:
    check = validate.OneOf(list(one_of)) if one_of is not None else None
    return listing(fields.String(validate=check), description, null=null)


def ref(name: str) -> dict[str, str]:
    """A reference from a Raw field (apispec keeps only `x-` metadata there; api.http.vocabulary
    turns it into a `$ref` once every component is registered)."""
    return {"x-ref": name}


def kind(value: str) -> fields.Field:
    return fields.String(required=True, validate=validate.Equal(value))


# ---------- shared by every game ----------

NOTE_VALUE = {"oneOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]}

Note = strict(
    "Note",
    {
        "code": text("Stable; translate by it"),
        "rule": text("e.g. MA-3", null=True, optional=True),
        "text": text("The note in the language asked for (Accept-Language)"),
        "template": text("The English sentence with {placeholders} for `params`: the message id"),
        "params": fields.Dict(
            keys=fields.String(),
            values=fields.Raw(metadata=NOTE_VALUE),
            required=True,
            metadata={"description": "The values the sentence puts in (names, numbers), by placeholder"},
        ),
    },
    "A referee note beside the legal actions, with the rule it applies.",
)
Decider = strict(
    "Decider",
    {"seat": integer(), "name": text(), "reason": text("Why this player decides, in English, with the rule")},
    "Who decides next and why.",
)
Undo = strict("UndoPossible", {"possible": flag("Whether an undo would take something back")})


def notes() -> fields.Field:
    return items(Note)


def undo() -> fields.Field:
    return nested(Undo)


def ranked(game: str, score: dict[str, fields.Field]) -> type[Schema]:
    return strict(
        f"{game}Ranking",
        {"seat": integer(), "name": text(), "place": integer("1 for the winner(s)"), **score},
    )


def result(game: str, ranking: type[Schema], decided_by: list[str], **more: fields.Field) -> type[Schema]:
    return strict(
        f"{game}Result",
        {
            "winners": ints("Seats of the winners"),
            "ranking": items(ranking),
            "decided_by": text("What decided the winner", one_of=decided_by),
            "explanation": text("The result in one English sentence"),
            **more,
        },
        f"A finished {game} game's standings.",
    )


def action(game: str, event: str, members: dict[str, fields.Field]) -> type[Schema]:
    camel = "".join(part.capitalize() for part in event.split("_"))
    return strict(f"{game}{camel}Action", {"type": kind(event), **members})


# ---------- Mahé (MA-*) ----------

COLOUR = fields.String(validate=validate.OneOf(TURTLE_COLOURS))
MaheDie = strict(
    "MaheDie",
    {"source": text("A rolled die or an egg card played as a die (MA-11)", one_of=["die", "card"]),
     "value": integer()},
)  # fmt: skip
MahePlayer = strict(
    "MahePlayer",
    {
        "seat": integer(),
        "name": text(),
        "colours": listing(COLOUR, "The player's turtles (MA-2)"),
        "eggs": integer("Eggs, shown once the game is over (MA-7)", null=True),
        "cards": ints("Egg cards, shown once the game is over", null=True),
        "card_count": integer(),
        "beach": flag("Holds the beach card (MA-8)"),
    },
)
MaheTurn = strict(
    "MaheTurn",
    {
        "seat": integer("Whose turn it is"),
        "sum": integer("Sum of the dice so far (MA-3)"),
        "dice": items(MaheDie),
        "moves_done": integer(),
        "turtle": text("The moving turtle", null=True),
        "turtle_order": texts("Turtles to move this turn, in order", null=True),
        "cards_played_by": ints("Seats that played an egg card as a die (MA-11)"),
    },
)
MaheCardTaken = strict(
    "MaheCardTaken", {"seat": integer(), "value": integer(), "beach": flag("It was the beach card")}
)
MaheMove = strict(
    "MaheMove",
    {
        "seat": integer(),
        "turtle": text(),
        "dice": items(MaheDie),
        "distance": integer(),
        "from": integer("0 = the raft"),
        "to": integer("0 = the raft"),
        "bust": flag("MA-6"),
        "carried": texts("Turtles carried along (MA-5)"),
        "left_behind": texts(),
        "passed_beach": flag(),
        "game_over": flag(),
        "card": nested(MaheCardTaken, "Who took the face-up card (MA-7)", null=True),
    },
)
MaheRanking = ranked("Mahe", {"eggs": integer(), "cards": integer()})
MaheResult = result("Mahe", MaheRanking, ["eggs"])
MaheOptions = strict(
    "MaheOptions",
    {
        "chance": text("Who rolls: the players (`physical`) or the server (`digital`, MA-12)",
                       one_of=["physical", "digital"]),
        "egg_dice_variant": flag("MA-11"),
        "first_seat": integer("Who starts (MA-2)"),
    },
)  # fmt: skip
MaheView = strict(
    "MaheView",
    {
        "game": kind("mahe"),
        "options": nested(MaheOptions),
        "players": items(MahePlayer, "Seats, turtles, cards (MA-7)"),
        "raft": listing(COLOUR, "Turtles on the raft (MA-2)"),
        "track": listing(fields.List(COLOUR), "21 fields, stacks bottom first"),
        "face_up": integer("The face-up egg card (MA-7)", null=True),
        "pile_count": integer(),
        "set_aside_count": integer(),
        "box": ints("Egg cards out of the game"),
        "beach_exposed": flag(),
        "beach_taken_by": integer(null=True),
        "phase": text(one_of=["reveal_card", "choose_turtle", "roll", "decide", "finished"]),
        "turn": nested(MaheTurn),
        "last_move": nested(MaheMove, null=True),
        "draws": integer("Server draws so far (MA-12)"),
        "result": nested(MaheResult, null=True),
    },
)
MaheOutcome = strict(
    "MaheOutcome",
    {
        "value": integer(),
        "sum": integer(),
        "distance": integer(),
        "to": integer(),
        "bust": flag(),
        "must_stop": flag(),
        "passes_beach": flag(),
        "card_to": integer("Seat that would take the face-up card", null=True),
    },
    "What one value of this die or card would do.",
)
MAHE_ACTIONS = [
    action("Mahe", "reveal_card", {"values": ints("Egg card values still possible", null=True)}),
    action("Mahe", "choose_turtle", {"turtles": listing(COLOUR)}),
    action(
        "Mahe",
        "die",
        {
            "values": ints("Values possible (null: any)", null=True),
            "outcomes": items(MaheOutcome),
            "bust_chance": number(),
        },
    ),
    action(
        "Mahe",
        "play_card",
        {"cards": ints("Egg cards that may be played (MA-11)"), "outcomes": items(MaheOutcome)},
    ),
    action(
        "Mahe",
        "stop",
        {"distance": integer(), "to": integer(), "passes_beach": flag(), "card_to": integer(null=True)},
    ),
]
MaheLegalActions = strict(
    "MaheLegalActions",
    {
        "phase": text(one_of=["reveal_card", "choose_turtle", "roll", "decide", "finished"]),
        "decider": nested(Decider, "Who decides and why (MA-4)", null=True),
        "mover": integer(null=True),
        "turtle": text(null=True),
        "actions": listing(fields.Raw(metadata=ref("MaheAction"))),
        "notes": notes(),
        "undo": undo(),
    },
)
MahePrivateView = strict(
    "MahePrivateView",
    {
        "seat": integer(),
        "name": text(),
        "cards": ints("The own face-down egg cards (MA-7)"),
        "card_count": integer(),
        "eggs": integer(),
        "beach": flag(),
    },
)

# ---------- Magellan (MG-*) ----------

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

# ---------- Mhing (MH-*) ----------

MhingPlayer = strict(
    "MhingPlayer", {"seat": integer(), "name": text(), "score": integer(), "dealer": flag("Deals this round")}
)
MhingPayment = strict(
    "MhingPayment",
    {"seat": integer(), "owed": integer(), "paid": integer("Less when the payer ran out (MH-9)")},
)
MhingRound = strict(
    "MhingRound",
    {
        "number": integer(),
        "dealer": integer(),
        "outcome": text(one_of=["won", "points", "drawn"]),
        "winner": integer(null=True),
        "discarder": integer(null=True),
        "points": integer("MH-8"),
        "premiums": integer(null=True),
        "score": fields.Nested(
            ScoreResultSchema, required=True, allow_none=True,
            metadata={"description": "The winning hand scored, when it was entered"},
        ),
        "changes": ints("Score change per seat"),
        "scores": ints("Scores per seat after the round"),
        "payments": items(MhingPayment, "Variant 2: who paid what (MH-9)"),
    },
)  # fmt: skip
MhingRanking = ranked("Mhing", {"score": integer()})
MhingResult = result("Mhing", MhingRanking, ["target", "all-points", "agreement"])
MhingOptions = strict(
    "MhingOptions",
    {
        "settlement": fields.Integer(
            strict=True,
            required=True,
            validate=validate.OneOf([1, 2]),
            metadata={"description": "1: add up to 500; 2: pay the winner from 500 each (MH-9)"},
        ),
        "first_seat": integer("The first dealer (MH-2)"),
    },
)
MhingView = strict(
    "MhingView",
    {
        "settlement": integer("Variant 1 or 2 (MH-9)"),
        "target": integer(null=True),
        "total_points": integer(null=True),
        "players": items(MhingPlayer),
        "dealer": integer("Who deals (MH-2)"),
        "round": integer(),
        "rounds_played": integer(),
        "rounds": items(MhingRound, "The latest rounds"),
        "last_round": nested(MhingRound, null=True),
        "finished": flag(),
        "ended_by": text(null=True, one_of=["target", "all-points", "agreement", None]),
    },
)
PointsRow = strict("MhingPointsRow", {"premiums": integer(), "points": integer()})
MHING_ACTIONS = [
    action(
        "Mhing",
        "round_won",
        {
            "winners": ints("Seats that may have gone out"),
            "discarders": ints(),
            "fields": fields.Dict(
                keys=fields.String(), values=fields.String(), required=True,
                metadata={"description": "The event's fields, each with what it means"},
            ),
        },
    ),
    action("Mhing", "round_points",
           {"winners": ints(), "discarders": ints(), "points_table": items(PointsRow)}),
    action("Mhing", "round_drawn", {}),
    action("Mhing", "end_game", {}),
]  # fmt: skip
Dealer = strict("MhingDealer", {"seat": integer(), "name": text()})
MhingLegalActions = strict(
    "MhingLegalActions",
    {
        "phase": text(one_of=["round", "finished"]),
        "round": integer(),
        "dealer": nested(Dealer, null=True),
        "decider": nested(Decider, null=True),
        "actions": listing(fields.Raw(metadata=ref("MhingAction"))),
        "notes": notes(),
        "undo": undo(),
    },
)

BgStatsGame = strict("BgStatsGame", {"name": text(), "sourceGameId": text(), "highestWins": flag()})
BgStatsPlayer = strict(
    "BgStatsPlayer",
    {
        "name": text(),
        "sourcePlayerId": text(),
        "score": integer(),
        "winner": flag(),
        "rank": integer(),
        "seatOrder": integer(),
        "startPlayer": flag(),
    },
)
BgStatsPlay = strict(
    "BgStatsPlay",
    {
        "sourceName": text(),
        "sourcePlayId": text(),
        "playDate": text("YYYY-MM-DD HH:MM:SS"),
        "durationMin": integer(),
        "game": nested(BgStatsGame),
        "players": items(BgStatsPlayer),
    },
    "The play as BG Stats imports it.",
)
NextCard = strict(
    "MagellanNextCard",
    {"value": integer(), "chance": number(), "total": integer("The Pizarro sum with this card")},
)
RuleFixed = strict("MagellanRuleFixed", {"entry": text(), "reason": text()})


def optional_copy(schema: type[Schema], name: str, nullable: tuple[str, ...] = ()) -> type[Schema]:
    """The same fields, none required: what a request may send (defaults fill in the rest; the
    `nullable` ones may also be null, read as left out)."""
    members = {}
    for key, field in schema._declared_fields.items():
        loose = copy.copy(field)
        loose.required = False
        loose.allow_none = field.allow_none or key in nullable
        members[key] = loose
    return strict(name, members, f"{schema.__name__} as a request sends it: every key optional.")


ALSO_REGISTERED = [
    SheetEntry,
    SheetParts,
    MahePrivateView,
    MagellanPrivateView,
    BgStatsPlay,
    NextCard,
    RuleFixed,
]
ACTIONS = {"Mahe": MAHE_ACTIONS, "Magellan": MAGELLAN_ACTIONS, "Mhing": MHING_ACTIONS}
EVENTS = {"Mahe": MAHE_EVENTS, "Magellan": MAGELLAN_EVENTS, "Mhing": MHING_EVENTS}

OPTIONS_IN = [
    optional_copy(MaheOptions, "MaheOptionsRequest"),
    optional_copy(MagellanOptions, "MagellanOptionsRequest", nullable=("sides", "board_sheet")),
    optional_copy(MhingOptions, "MhingOptionsRequest"),
]
ALSO_REGISTERED += OPTIONS_IN


# ---------- the live stream (GET /api/tables/{id}/stream) ----------

StreamEntry = strict(
    "TableStreamEntry",
    {
        "seq": integer(),
        "kind": text(one_of=["game", "undo"]),
        "event": fields.Dict(required=True, metadata={"x-ref": "LoggedEvent"}),
        "undoes": integer("For an undo: the seq it took back", null=True),
        "at": fields.DateTime(
            required=True, metadata={"description": "When the server stored the entry (UTC, with its offset)"}
        ),
    },
    "A log entry the phone missed, as the open log shows it.",
)
STREAM_TYPE = "The kind of event (the `oneOf`'s discriminator); the same as the SSE event name"
StreamMessage = strict(
    "TableStreamMessage",
    {
        "type": text(STREAM_TYPE, one_of=["table"]),
        "version": integer("The table version: also the SSE `id`"),
        "entries": items(StreamEntry, "Entries since the `Last-Event-ID` you sent (none on a fresh start)"),
        "table": fields.Dict(required=True, metadata={"x-ref": "Table"}),
        "private": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "With `?seat`: that seat's own view; else null",
                "x-one-of": ["MahePrivateView", "MagellanPrivateView"],
            },
        ),
    },
    "A `table` event: the whole table. The first event of every stream, and every event of a stream "
    "without `?patches=true`.",
)
StreamPatch = strict(
    "TableStreamPatch",
    {
        "type": text(STREAM_TYPE, one_of=["patch"]),
        "version": integer("The table version after the patch: also the SSE `id`"),
        "base": integer("The version the patch applies to: the `id` of the stream's previous event"),
        "entries": items(StreamEntry, "The log entries after `base`"),
        "patch": fields.List(
            fields.Dict(metadata={"x-ref": "PatchOperation"}),
            required=True,
            metadata={
                "description": "JSON Patch (RFC 6902) operations, applied in order, that turn the "
                "table at `base` (as this stream sent it) into the table at `version`; only `add`, "
                "`remove` and `replace` are used",
            },
        ),
        "private": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "With `?seat`: that seat's own view, whole; else null",
                "x-one-of": ["MahePrivateView", "MagellanPrivateView"],
            },
        ),
    },
    "A `patch` event (streams opened with `?patches=true`, after their first event): what the change "
    "changed in the table. A client that cannot apply it (its table is not at `base`) reconnects "
    "without `Last-Event-ID` for the whole table.",
)
StreamEvent = strict(
    "TableStreamEvent",
    {
        "event": text("The SSE event name", one_of=["table", "patch", "problem"]),
        "id": fields.String(
            metadata={"description": "The table version: send it back as `Last-Event-ID` to resume"},
            validate=validate.Regexp(r"^[0-9]+$"),
        ),
        "data": fields.Dict(
            required=True,
            metadata={
                "description": "The event's `data:` line, one line of JSON, parsed",
                "x-ref": "TableStreamItem",
            },
        ),
        "retry": fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"}),
    },
    "One Server-Sent Event of a table's stream, its fields as an SSE client parses them, `data` parsed "
    "as JSON (a `TableStreamItem`, typed by its `type`). Lines starting with `:` are heartbeats. "
    "A client reads the stream line by line (`text/event-stream`), not as one JSON document.",
)
ALSO_REGISTERED += [StreamMessage, StreamPatch, StreamEvent]


# ---------- a group's live stream (GET /api/groups/{id}/stream) ----------

GROUP_STREAM_EVENTS = ["listening", "finished", "abandoned", "reopened"]
GroupTableCounts = strict(
    "GroupTableCounts",
    {
        "playing": integer("Tables not finished and not abandoned"),
        "finished": integer(),
        "abandoned": integer(),
    },
    "The group's tables by status.",
)
GroupStreamMessage = strict(
    "GroupStreamMessage",
    {
        "type": text(STREAM_TYPE, one_of=GROUP_STREAM_EVENTS),
        "kind": text(
            "`listening`: the stream's first event without `Last-Event-ID` (nothing happened); "
            "`finished`: a table's last move ended its game; `abandoned`: a table was given up; "
            "`reopened`: a finished or abandoned table is being played again (its last move undone, "
            "its abandonment taken back). The same as the SSE event name.",
            one_of=GROUP_STREAM_EVENTS,
        ),
        "group_id": text(),
        "tables": fields.Nested(GroupTableCounts, required=True),
        "entry": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "The table as the group's history shows it (players, scores, winners, "
                "the record's link); null with `listening`",
                "x-ref": "HistoryEntry",
            },
        ),
    },
    "The JSON in the `data:` line of each event of a group's stream.",
)
GroupStreamEvent = strict(
    "GroupStreamEvent",
    {
        "event": text("The SSE event name", one_of=GROUP_STREAM_EVENTS),
        "id": fields.String(
            required=True,
            validate=validate.Regexp(r"^(0|([1-9][0-9]{0,5}[fap])+)$"),
            metadata={
                "description": "The statuses of the group's tables as this event leaves them, oldest "
                "first, run-length encoded (`2f1a`: two finished, one abandoned, the rest playing): "
                "send it back as `Last-Event-ID` to hear what changed meanwhile"
            },
        ),
        "data": fields.Dict(
            required=True,
            metadata={
                "description": "The event's `data:` line, one line of JSON, parsed",
                "x-ref": "GroupStreamItem",
            },
        ),
        "retry": fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"}),
    },
    "One Server-Sent Event of a group's stream, its fields as an SSE client parses them, `data` "
    "parsed as JSON (a `GroupStreamItem`, typed by its `type`). Lines starting with `:` are "
    "heartbeats. A client reads the stream line by line (`text/event-stream`), not as one JSON "
    "document.",
)
ALSO_REGISTERED += [GroupTableCounts, GroupStreamMessage, GroupStreamEvent]

def verdict_codes() -> list[str]:
    """Every code a verification's `problem` can have: its own, and any refusal of the rules."""
    from api.tables.record import VERDICT_CODES

    rules = catalog()
    refusals = {r["code"] for listed in (*rules["rules"].values(), rules["setup"]) for r in listed}
    return sorted(set(VERDICT_CODES) | refusals)


RefusedRecord = strict(
    "RecordRefusal",
    {
        "code": text(
            "Stable: `record-tampered` (an entry changed, removed or moved: the chain breaks), "
            "`record-unsigned`, `record-signature-invalid`, `result-mismatch`, `game-not-finished`, "
            "or the rules' own refusal of an entry or of the setup (with its `rule`)",
            one_of=verdict_codes(),
        ),
        "detail": text(),
        "rule": text("e.g. MA-3", null=True),
    },
    "Why a record does not replay or match.",
)
ALSO_REGISTERED += [RefusedRecord]

# Maps whose keys are a fixed list, as objects with those keys (a request's keys are checked too).
MoneyStack = strict(
    "MoneyStack",
    {
        str(value): fields.Integer(strict=True, validate=validate.Range(min=0, max=7))
        for value in range(1, 10)
    },
    'Money value → copies left in the stack, e.g. {"1": 3, "9": 5}; a value left out: none',
)
TurtleOwners = strict(
    "TurtleOwners",
    {c: fields.Integer(strict=True, validate=validate.Range(min=0, max=6)) for c in TURTLE_COLOURS},
    "Turtle colour → seat",
)
ALSO_REGISTERED += [MoneyStack, TurtleOwners, MagellanSides]
