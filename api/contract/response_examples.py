"""An example answer for every operation, computed by the same rules from the request examples
(api.contract.examples and the blueprints' own), so the document's examples are real answers. Only
ids, tokens and times are fixed stand-ins; nothing random, so openapi.yaml is reproducible."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.contract import examples
from api.contract.examples import MAGELLAN_SCORE as SCORE_EXAMPLE
from api.contract.examples import MAHE_MOVE as MOVE_EXAMPLE
from api.contract.examples import MHING_CLAIMS as CLAIMS_EXAMPLE
from api.contract.examples import MHING_SCORE as HAND_EXAMPLE
from api.contract.examples import MHING_WAITS as WAITS_EXAMPLE
from api.contract.examples import example_sheet
from api.rules.magellan.scoring import odds
from api.rules.magellan.sheet import missing_entries, parse_sheet, rule_fixed_entries, sheet_json, side_map
from api.rules.magellan.stateless import score_position, stack_counts
from api.rules.mahe.position import resolve_move
from api.rules.mhing.claims import resolve_json
from api.rules.mhing.hand import parse_hand
from api.rules.mhing.premiums import points
from api.rules.mhing.scoring import score_hand, score_json
from api.rules.mhing.waits import waits_json
from api.rules.referee import rules_view
from api.rules.registry import GAMES, get_game
from api.rules.replay import advance
from api.sheets.kinds import sheet_kind
from api.sheets.library import disagreements
from api.tables.chain import RecordKey
from api.tables.record import verify_record

# A fixed key for the document's examples only (the served key lives outside the repository).
EXAMPLE_KEY = RecordKey(Ed25519PrivateKey.from_private_bytes(bytes(32)))

TABLE_ID = "q3vR7kP2mX9tL4wA"
SHEET_ID = "s8dK2pQ7vN4xB1cE"
WRITE_TOKEN = "wT4k…(32 characters)"
CREATED = "2026-11-25T10:00:00+00:00"
UPDATED = "2026-11-25T10:04:00+00:00"
GROUP_ID = "GrP7qK2xZ0a1b2c3"
PUBLICATION_ID = "Pb4nR8wK1zT6yH3m"
PARAMETER_EXAMPLES: dict[str, Any] = {
    "table_id": TABLE_ID,
    "sheet_id": SHEET_ID,
    "seat": 0,
    "group_id": GROUP_ID,
    "publication_id": PUBLICATION_ID,
    "player_id": "bwgw4Muh",
}


def group_stream_example() -> dict[str, Any]:
    """A group's stream as an SSE client parses it: `listening`, then a table finishing (the media
    type's `examples`, each one event valid against `GroupStreamEvent`, its `data:` parsed)."""
    entry = group_examples()["getGroupHistory"]["entries"][0]

    def event(kind: str, event_id: str, tables: dict[str, int], entry: Any) -> dict[str, Any]:
        data = {"type": kind, "kind": kind, "group_id": GROUP_ID, "tables": tables, "entry": entry}
        return {"summary": f"A `{kind}` event", "value": {"event": kind, "id": event_id, "data": data}}

    before = {"playing": 1, "finished": 0, "abandoned": 0}
    after = {"playing": 0, "finished": 1, "abandoned": 0}
    return {
        "listening": event("listening", "0", before, None),
        "finished": event("finished", "1f", after, entry),
    }


def group_examples() -> dict[str, Any]:
    """A group of three that played one Mahé game (the figures are an example, not a real game)."""
    players = [
        {"id": "bwgw4Muh", "name": "Ann", "colour": "red", "emoji": None},
        {"id": "57d81YRh", "name": "Ben", "colour": None, "emoji": "🐢"},
        {"id": "Zq0fTu3k", "name": "Cid", "colour": None, "emoji": None},
    ]
    seats = [p["id"] for p in players]
    group = {
        "id": GROUP_ID,
        "name": "Friday club",
        "players": players,
        "version": 1,
        "tables": 1,
        "last_seating": [
            {
                "game": "mahe",
                "table_id": TABLE_ID,
                "seats": seats,
                "players": [
                    {"name": p["name"], "colours": [c]}
                    for p, c in zip(players, ("red", "green", "yellow"), strict=True)
                ],
                "options": {"chance": "physical", "egg_dice_variant": False, "first_seat": 0},
            }
        ],
        "plays": [{"game": "mahe", "games": 1, "last_played_at": "2026-11-25T19:47:00+00:00"}],
        "created_at": "2026-11-25T19:00:00+00:00",
        "updated_at": "2026-11-25T19:00:00+00:00",
    }
    entry = {
        "table_id": TABLE_ID,
        "game": "mahe",
        "status": "finished",
        "started_at": "2026-11-25T19:05:00+00:00",
        "last_entry_at": "2026-11-25T19:47:00+00:00",
        "duration_seconds": 2520,
        "players": [
            {"seat": i, "player_id": p["id"], "name": p["name"], "score": score, "winner": i == 0}
            for i, (p, score) in enumerate(zip(players, (31, 24, 19), strict=True))
        ],
        "winners": [seats[0]],
        "record_path": f"/api/tables/{TABLE_ID}/export",
        "bgstats_path": f"/api/tables/{TABLE_ID}/export/bgstats",
        "table_path": f"/#/t/{TABLE_ID}",
        "imported": False,
    }
    figures = {
        "games": 1,
        "average_score": 31.0,
        "best_score": 31,
        "eggs": 31,
        "eggs_per_game": 31.0,
        "busts": 2,
        "moves": 14,
        "beaches": 1,
    }
    stats = {
        "players": [
            {
                "player_id": seats[0],
                "name": "Ann",
                "games": 1,
                "wins": 1,
                "win_rate": 1.0,
                "by_game": {"mahe": {**figures, "wins": 1, "win_rate": 1.0}},
            },
        ],
        "games": {"mahe": {"games": 1, "beach_taker_won": 1}},
        "counted_tables": 1,
    }
    membership = {
        "table_id": TABLE_ID,
        "seats": seats,
        "abandoned": False,
        "added_at": "2026-11-25T19:05:01+00:00",
    }
    return {
        "createGroup": {
            "replayed": False,
            "id": GROUP_ID,
            "edit_token": "gT3…(32 characters)",
            "join_path": f"/#/g/{GROUP_ID}?k=gT3…",
            "read_path": f"/#/g/{GROUP_ID}",
            "group": {**group, "tables": 0, "last_seating": [], "plays": []},
        },
        "getGroup": group,
        "updateGroup": {**group, "version": 2},
        "addGroupTable": membership,
        "abandonGroupTable": {**membership, "abandoned": True},
        "getGroupTableProgress": {
            "table_id": TABLE_ID,
            "game": "mahe",
            "lines": [[0, 5, 5, 31], [0, 0, 12, 24], [3, 3, 19, 19]],
        },
        "getGroupHistory": {"entries": [entry], "next_before": None, "next": None},
        "getGroupStats": stats,
        "importBgStats": {
            "imported": 1,
            "passed_over": 0,
            "new_players": [],
            "group": {
                **group,
                "plays": [{"game": "mahe", "games": 2, "last_played_at": "2026-11-25T19:47:00+00:00"}],
            },
        },
        "getGroupPlayer": {
            **{k: v for k, v in players[0].items() if k != "id"},
            "player_id": seats[0],
            "games": 1,
            "wins": 1,
            "win_rate": 1.0,
            "last_played_at": entry["last_entry_at"],
            "by_game": {"mahe": {**figures, "wins": 1, "win_rate": 1.0}},
            "last_played": [{"game": "mahe", "at": entry["last_entry_at"]}],
            "streaks": {"current": 1, "longest": 1},
            "records": [
                {
                    "game": "mahe",
                    "kind": "most_eggs",
                    "value": 31,
                    "table_id": TABLE_ID,
                    "at": entry["last_entry_at"],
                }
            ],
        },
        "getGroupHeadToHead": {
            "a": seats[0],
            "b": seats[1],
            "a_name": "Ann",
            "b_name": "Ben",
            "games": 1,
            "a_wins": 1,
            "b_wins": 0,
            "a_ahead": 1,
            "b_ahead": 0,
            "level": 0,
        },
        "exportGroup": {
            "format": "kibitz-group/1",
            "exported_at": "2026-11-25T20:00:00+00:00",
            "group": group,
            "memberships": [{"table_id": TABLE_ID, "seats": seats, "abandoned": False}],
            "history": [entry],
            "statistics": stats,
            "records": [],
            "next_after": None,
            "next": None,
        },
    }


EVENTS = [
    {"type": "reveal_card", "value": 3},
    {"type": "choose_turtle", "turtle": "red"},
    {"type": "die", "value": 2},
    {"type": "die", "value": 4},
]


STEP_FIELDS = ("finished", "state", "legal_actions", "result")


def example_table(version: int, can_undo: bool = True) -> dict[str, Any]:
    """The create example's Mahé table after the first `version` events of EVENTS."""
    rules = get_game("mahe")
    assert rules is not None
    body = examples.CREATE_TABLE
    options = rules.normalize_options(body["options"])
    states = [rules.new_game(body["players"], options, 8412)]
    for event in EVENTS[:version]:
        states = advance(rules, states, event)
    return {
        "id": TABLE_ID,
        "game": "mahe",
        "version": version,
        "players": body["players"],
        "options": options,
        **rules_view(rules, states[-1], can_undo and version > 0),
        "seed": None,
        "created_at": CREATED,
        "updated_at": UPDATED if version else CREATED,
    }


def library_examples() -> dict[str, Any]:
    """A published sheet confirmed by three clients' tables scored with it (four tables), and another
    print with one number apart (MG-2: the numbers are an example of what players type in from their
    board, not real printed values)."""
    data = example_sheet()
    kind = sheet_kind("magellan")
    publication = {
        "id": PUBLICATION_ID,
        "game": "magellan",
        "edition": "Hans im Glück 2024",
        "data": data,
        "filled": sum(v is not None for v in kind.entries(data).values()),
        "confirmations": 3,
        "tables": 4,
        "published_at": CREATED,
        "last_confirmed_at": UPDATED,
    }
    other_data = copy.deepcopy(data)
    other_data["explorers"]["cook"]["A"]["III"]["crowns"] = 38
    other = {
        **publication,
        "id": "Pc9sL2vQ5xM8jD0a",
        "data": other_data,
        "filled": sum(v is not None for v in kind.entries(other_data).values()),
        "confirmations": 1,
        "tables": 1,
        "last_confirmed_at": CREATED,
    }
    disagree = disagreements([kind.entries(data), kind.entries(other_data)])
    return {
        "publishSheet": {
            "created": True,
            "publication": {**publication, "confirmations": 0, "tables": 0, "last_confirmed_at": None},
        },
        "confirmPublishedSheet": {"counted": True, "publication": publication},
        "listSheetLibrary": {
            "game": "magellan",
            "editions": [
                {
                    "edition": "Hans im Glück 2024",
                    "confirmations": 4,
                    "publications": [publication, other],
                    "disagreements": disagree,
                }
            ],
            "next_after": 1,
            "next": "/api/sheets/library?game=magellan&after=1&limit=1",
        },
    }


def sheet(version: int) -> dict[str, Any]:
    data = example_sheet()
    missing = missing_entries(parse_sheet(data), side_map({}))
    return {
        "id": SHEET_ID,
        "game": "magellan",
        "name": "Our board",
        "version": version,
        "data": data,
        "missing": missing,
        "complete": not missing,
        "created_at": CREATED,
        "updated_at": UPDATED if version > 1 else CREATED,
    }


def next_table_examples() -> dict[str, Any]:
    """A table's next game (api.http.evening), as a phone that sat at the old table hears it."""
    next_id = "Nx5rT2kW8qL3mB7v"
    answer = {
        "table_id": next_id,
        "game": "mahe",
        "read_path": f"/#/t/{next_id}",
        "join_path": f"/#/t/{next_id}?k={WRITE_TOKEN}",
        "seat_path": None,
        "group_ids": [GROUP_ID],
    }
    return {"getNextTable": answer, "handOverTable": answer}


@cache
def response_examples() -> dict[str, Any]:
    """operationId → the JSON its success answers with."""
    rules = get_game("mahe")
    assert rules is not None
    table0, table3, table4 = example_table(0), example_table(3), example_table(4)
    log = [
        {"seq": n + 1, "kind": "game", "event": event, "undoes": None, "in_effect": True, "at": UPDATED}
        for n, event in enumerate(EVENTS)
    ]
    mahe_move = resolve_move(
        MOVE_EXAMPLE["position"],
        MOVE_EXAMPLE["turtle"],
        MOVE_EXAMPLE["dice"],
        MOVE_EXAMPLE["owners"],
        MOVE_EXAMPLE["face_up"],
    )
    hand = parse_hand(HAND_EXAMPLE["groups"], HAND_EXAMPLE["hidden"], HAND_EXAMPLE["flowers"], True)
    waiting = parse_hand(WAITS_EXAMPLE["groups"], WAITS_EXAMPLE["hidden"], WAITS_EXAMPLE["flowers"], False)
    sides = side_map({"vasco": "B"})
    blank = parse_sheet({"explorers": {}})
    return {
        "getHealth": {
            "status": "ok",
            "streams": {"streams": 0, "tables": 0, "reads": 0, "renders": 0, "handed_back": 0},
        },
        "getLiveness": {"status": "ok"},
        "getReadiness": {"status": "ok", "schema": "0015"},
        **group_examples(),
        **next_table_examples(),
        "listGames": [
            {
                "name": game.name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": game.normalize_options({}),
                **game.rule_tables(),
            }
            for game in GAMES.values()
        ],
        "createTable": {
            "id": TABLE_ID,
            "write_token": WRITE_TOKEN,
            "join_path": f"/#/t/{TABLE_ID}?k={WRITE_TOKEN}",
            "seats": [
                {"seat": seat, "token": f"sT{seat}…", "path": f"/#/t/{TABLE_ID}?s={seat}&sk=sT{seat}…"}
                for seat in range(2)
            ],
            "table": table0,
            "replayed": False,
        },
        "getTable": table3,
        "getLog": {"version": 4, "events": log[:2], "next_after": 2,
                   "next": f"/api/tables/{TABLE_ID}/events?after=2&limit=2"},
        "getReplay": {
            "game": "mahe",
            "version": 2,
            "steps": [
                {"seq": seq, **{k: v for k, v in example_table(seq, False).items() if k in STEP_FIELDS}}
                for seq in range(3)
            ],
        },
        "appendEvent": {"seq": 4, "replayed": False, "table": table4},
        "previewEvent": {"table": table4},
        "getSeatView": {"seat": 0, "view": rules.private_view(
            rules.new_game(examples.CREATE_TABLE["players"], rules.normalize_options({}), 8412), 0)},
        "exportRecord": examples.RECORD,
        "exportBgStats": {
            "url": "bgstats://app.bgstatsapp.com/createPlay.html?data=%7B…%7D",
            "play": {
                "sourceName": "Kibitz",
                "sourcePlayId": TABLE_ID,
                "playDate": "2026-11-25 10:00:00",
                "durationMin": 42,
                "game": {"name": "Mahé", "sourceGameId": "mahe", "highestWins": True},
                "players": [
                    {"name": "Martin", "sourcePlayerId": f"{TABLE_ID}-0", "score": 22, "winner": True,
                     "rank": 1, "seatOrder": 1, "startPlayer": True},
                ],
            },
        },
        "resolveMaheMove": {**mahe_move},
        "scoreMagellanPosition": score_position(SCORE_EXAMPLE),
        "pizarroOdds": odds(stack_counts(None, [8, 1, 1, 5, 2, 4, 1, 2, 3, 4, 5, 6, 2]), 13, 16),
        "checkBoardSheet": {
            "sheet": sheet_json(blank),
            "missing": missing_entries(blank, sides)[:3],
            "complete": False,
            "rule_fixed": rule_fixed_entries(sides),
        },
        "scoreMhingHand": score_json(score_hand(hand)),
        "listMhingWaits": waits_json(waiting),
        "getMhingPoints": {"premiums": 7, "points": points(7), "rule": "MH-8"},
        "postMhingPoints": {"premiums": 7, "points": points(7), "rule": "MH-8"},
        "resolveMhingClaims": resolve_json(
            CLAIMS_EXAMPLE["discarder"], CLAIMS_EXAMPLE["seats"], CLAIMS_EXAMPLE["claims"]
        ),
        "createSheet": {"id": SHEET_ID, "edit_token": "eT9…(32 characters)", "sheet": sheet(1)},
        "getSheetTemplate": {"game": "magellan", "data": sheet_json(blank)},
        "getSheet": sheet(1),
        "updateSheet": sheet(2),
        **library_examples(),
        # Unsigned: no key decides it, and so nothing is said of its currency.
        "verifyRecord": {
            **verify_record(examples.RECORD, EXAMPLE_KEY),
            "currency": None,
            "current_head": None,
        },
        "getRecordKey": EXAMPLE_KEY.published(),
    }  # fmt: skip
