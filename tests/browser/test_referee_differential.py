"""Differential: for random whole games of all three games, the browser referee's dumped state after
every event equals the server's, byte for byte.

The phone's referee is the server's own `api/rules` package under Pyodide in a Web Worker
(pwa/js/referee). Here the games are made in Python from fixed seeds (deterministic, so a failure
names the same game and event every time): Mahé physical and digital (MA-12, with undos and an undo
that reopens a finished game with a fresh seed), Magellan at both depths and with both kinds of
chance (MG-1 ledger, MG-3/MG-9 the money stack), and Mhing under both MH-9 settlement variants. The
expected dumps are computed exactly as the `replay_dumps` op computes them (`advance`, then
`game.dump` as sorted compact JSON), and the browser answers the same request through
`ask({op: 'replay_dumps', …})`. One page boots the referee once for the whole module.

The same refusals must come back too: an illegal event gets the same problem (status, code, detail,
rule) from the phone as from the Python `Referee`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from api.rules.errors import RuleError
from api.rules.game import Game
from api.rules.magellan.game import MAGELLAN
from api.rules.mahe.constants import TURTLE_COLOURS
from api.rules.mahe.game import MAHE
from api.rules.mhing.game import MHING
from api.rules.referee import Referee
from api.rules.registry import get_game
from api.rules.replay import advance, chance_stands
from tests.rules.magellan_support import TEST_SHEET, random_event, sides_from
from tests.rules.magellan_support import players as magellan_players
from tests.rules.test_mahe_properties import pick as mahe_pick

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.gunicorn]

Event = dict[str, Any]
BOOT_TIMEOUT_MS = 60_000
ASK = "async (request) => (await import('/js/referee/client.js')).ask(request)"


@dataclass(frozen=True)
class WholeGame:
    """One logged game: what a `replay_dumps` request carries."""

    label: str
    game: str
    players: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    events: list[Event]

    def request(self) -> dict[str, Any]:
        return {
            "op": "replay_dumps",
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "events": self.events,
        }


def server_dumps(whole: WholeGame) -> list[str]:
    """The state after every event as the server's code dumps it, exactly as `replay_dumps` does."""
    game = get_game(whole.game)
    assert game is not None
    options = game.normalize_options(whole.options)
    states = [game.new_game(whole.players, options, whole.seed)]
    dumps = []
    for event in whole.events:
        states = advance(game, states, event)
        dumps.append(json.dumps(game.dump(states[-1]), sort_keys=True, separators=(",", ":")))
    return dumps


# ---------- random whole games (fixed seeds) ----------


def play_out(
    game: Game,
    players: list[dict[str, Any]],
    options: dict[str, Any],
    seed: int,
    rng: random.Random,
    choose: Callable[[Any, random.Random], Event],
    *,
    undo_rate: float = 0.0,
    reseeds: int = 0,
    limit: int = 3000,
) -> list[Event]:
    """Events of a whole game: legal moves from `choose`, an undo now and then, and (`reseeds`) undos
    that reopen the finished game with a fresh seed, after which the game is played to its end again."""
    states = [game.new_game(players, game.normalize_options(options), seed)]
    events: list[Event] = []
    while len(events) < limit:
        # GEN-1: an entry that showed the server's chance stands (no undo of it, nor before it).
        stands = len(states) > 1 and chance_stands(game, states[-2], states[-1])
        if game.result(states[-1]) is not None:
            if not reseeds or stands:
                return events
            reseeds -= 1
            event: Event = {"type": "undo", "reseed": rng.randrange(2**31)}
        elif len(states) > 1 and rng.random() < undo_rate and not stands:
            event = {"type": "undo"}
        else:
            event = choose(states[-1], rng)
        states = advance(game, states, event)
        events.append(event)
    raise AssertionError(f"{game.name}: no end after {limit} events")


def mahe_game(label: str, count: int, chance: str, seed: int, **extra: Any) -> WholeGame:
    """MA-2 seats (two turtles each with 2–3 players); moves by the property tests' player."""
    rng = random.Random(seed)
    colours = rng.sample(TURTLE_COLOURS, len(TURTLE_COLOURS))
    each = 2 if count <= 3 else 1
    players = [{"name": f"P{i}", "colours": colours[i * each : (i + 1) * each]} for i in range(count)]
    options = {"chance": chance, "egg_dice_variant": rng.random() < 0.5, "first_seat": rng.randrange(count)}

    def choose(state: Any, rng: random.Random) -> Event:
        return mahe_pick(state, MAHE.legal_actions(state), rng, 0.8)

    events = play_out(MAHE, players, options, seed, rng, choose, **extra)
    return WholeGame(label, "mahe", players, options, seed, events)


def magellan_game(label: str, count: int, depth: str, chance: str, seed: int, **extra: Any) -> WholeGame:
    """MG-1 depth, MG-4 chance, sides and the board sheet at the start or only when scoring needs it."""
    rng = random.Random(seed)
    options: dict[str, Any] = {
        "depth": depth,
        "chance": chance,
        "sides": dict(sides_from(rng.randrange(64))),
        "auctioneer": rng.randrange(count),
    }
    if rng.random() < 0.5:
        options["board_sheet"] = TEST_SHEET
    players = magellan_players(count)
    events = play_out(MAGELLAN, players, options, seed, rng, random_event, **extra)
    return WholeGame(label, "magellan", players, options, seed, events)


# MH-10 notation: hands that go out (laid-out groups, a declared joker, flowers), and one that does not.
MHING_HANDS = [
    {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"},
    {"hidden": "c5 c5 c5 we we we dr dr jk k2 k2", "groups": ["b3 jk=b4 b5"], "flowers": "f1"},
    {"hidden": "c4 c5 c6 we we", "groups": ["b1 b1 b1", "b2 b2 b2", "b3 b3 b3"]},
    {"hidden": "b1 b4 b7 c2 c5 c8 k3 k6 k9 we ws ww dr dg", "flowers": "f1 f2"},
    {"hidden": "b1 b2 b3 c1 c2 c3 k4 k5 k6 dr dr dr we we", "flowers": "f4"},
    {"hidden": "b7 c2 c5 c8 k3 k6 k9 we ws ww dr", "groups": ["b1 jk=b2 b3"]},  # MH-5: not a winning hand
]


def mhing_event(state: Any, rng: random.Random) -> Event:
    """A recorded round (MH-8 points or premiums, a scored hand, a drawn round) that the rules accept."""
    seats = len(state.names)
    while True:
        winner = rng.randrange(seats)
        discarder = rng.choice([None, *range(seats)])
        roll = rng.random()
        if roll < 0.35:
            event: Event = {"type": "round_won", "winner": winner, "discarder": discarder}
            event["hand"] = dict(rng.choice(MHING_HANDS))
        elif roll < 0.6:
            event = {"type": "round_points", "winner": winner, "discarder": discarder}
            event["points"] = rng.choice([0, 2, 8, 16, 32, 64, 128, 256])
        elif roll < 0.8:
            event = {"type": "round_points", "winner": winner, "discarder": discarder}
            event["premiums"] = rng.randrange(0, 9)
        elif roll < 0.95 or state.rounds_played < 30:
            event = {"type": "round_drawn"}
        else:
            event = {"type": "end_game"}  # MH-9: ended by agreement
        try:
            MHING.apply(state, event)
        except RuleError:
            continue
        return event


def mhing_game(label: str, count: int, settlement: int, seed: int, **extra: Any) -> WholeGame:
    rng = random.Random(seed)
    players = [{"name": name} for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:count]]
    options = {"settlement": settlement, "first_seat": rng.randrange(count)}
    events = play_out(MHING, players, options, seed, rng, mhing_event, **extra)
    return WholeGame(label, "mhing", players, options, seed, events)


def whole_games() -> list[WholeGame]:
    return [
        mahe_game("mahe-physical-4", 4, "physical", 101, undo_rate=0.05),
        mahe_game("mahe-physical-3", 3, "physical", 111),
        mahe_game("mahe-digital-2-reseeded", 2, "digital", 202, undo_rate=0.05, reseeds=1),
        mahe_game("mahe-digital-5-reseeded-twice", 5, "digital", 222, undo_rate=0.04, reseeds=2),
        mahe_game("mahe-digital-7", 7, "digital", 303, undo_rate=0.03),
        magellan_game("magellan-outcomes-physical-3", 3, "outcomes", "physical", 404),
        magellan_game("magellan-outcomes-physical-6", 6, "outcomes", "physical", 414, undo_rate=0.03),
        magellan_game("magellan-ledger-digital-4", 4, "ledger", "digital", 505, undo_rate=0.03, reseeds=1),
        magellan_game("magellan-ledger-digital-3", 3, "ledger", "digital", 515, undo_rate=0.05, reseeds=2),
        magellan_game("magellan-ledger-physical-5", 5, "ledger", "physical", 606, undo_rate=0.02),
        magellan_game("magellan-outcomes-digital-6", 6, "outcomes", "digital", 707),
        mhing_game("mhing-variant1-2", 2, 1, 818),
        mhing_game("mhing-variant1-5", 5, 1, 808, undo_rate=0.1),
        mhing_game("mhing-variant1-6", 6, 1, 828, undo_rate=0.05),
        mhing_game("mhing-variant2-2", 2, 2, 919, undo_rate=0.05),
        mhing_game("mhing-variant2-3", 3, 2, 909, undo_rate=0.1),
        mhing_game("mhing-variant2-4", 4, 2, 1010),
    ]


GAMES = whole_games()


# ---------- the phone's referee ----------


@pytest.fixture(scope="module")
def ask(browser: Any, live_server: str) -> Iterator[Callable[[Mapping[str, Any]], Any]]:
    """One phone page with the referee booted once; `ask(request)` answers as the worker does."""
    context = browser.new_context(**PHONE, service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server + "/")
    started = page.evaluate("async () => (await import('/js/referee/client.js')).startReferee()")
    assert started is True, "the browser referee did not start"
    yield lambda request: page.evaluate(ASK, request)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_games_are_whole_and_cover_every_mode() -> None:
    """Every game ends (a result), and between them they cover MA-12 digital chance with undos and a
    reseeding undo, both Magellan depths and chance modes, and both MH-9 settlement variants."""
    for whole in GAMES:
        game = get_game(whole.game)
        assert game is not None
        options = game.normalize_options(whole.options)
        states = [game.new_game(whole.players, options, whole.seed)]
        for event in whole.events:
            states = advance(game, states, event)
        assert game.result(states[-1]) is not None, whole.label
    modes = {
        (w.game, w.options.get("chance"), w.options.get("depth"), w.options.get("settlement")) for w in GAMES
    }
    assert {("mahe", "physical", None, None), ("mahe", "digital", None, None)} <= modes
    assert {
        ("magellan", c, d, None) for c in ("physical", "digital") for d in ("outcomes", "ledger")
    } <= modes
    assert {("mhing", None, None, 1), ("mhing", None, None, 2)} <= modes
    undos = [w for w in GAMES if any(e["type"] == "undo" for e in w.events)]
    assert {w.game for w in undos} == {"mahe", "magellan", "mhing"}
    assert any("reseed" in e for w in GAMES if w.options.get("chance") == "digital" for e in w.events)


@pytest.mark.parametrize("whole", GAMES, ids=[w.label for w in GAMES])
def test_browser_dumps_equal_the_servers_after_every_event(
    ask: Callable[[Mapping[str, Any]], Any], whole: WholeGame
) -> None:
    expected = server_dumps(whole)
    answer = ask(whole.request())
    assert answer["ok"] is True, answer
    dumps = answer["dumps"]
    assert len(dumps) == len(expected) == len(whole.events)
    for index, (phone, server) in enumerate(zip(dumps, expected, strict=True)):
        assert phone == server, f"{whole.label}: the dumps differ after event {index} {whole.events[index]!r}"


FOUR_TURTLES = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "yellow"), ("C", "green"), ("D", "darkblue"))
]
MHING_THREE = [{"name": n} for n in ("Ada", "Bo", "Cy")]


def opening(table: str, game: str, players: Any, options: dict[str, Any], *events: Event) -> dict[str, Any]:
    """A phone opening a table from its log (`op: open`)."""
    return {
        "op": "open",
        "id": table,
        "game": game,
        "players": players,
        "options": options,
        "seed": 1,
        "events": list(events),
    }


def replaying(game: str, players: Any, options: dict[str, Any], *events: Event) -> dict[str, Any]:
    return {
        "op": "replay_dumps",
        "game": game,
        "players": players,
        "options": options,
        "seed": 1,
        "events": list(events),
    }


MHING_LOSER = {"type": "round_won", "winner": 0, "discarder": None, "hand": MHING_HANDS[-1]}
REFUSALS = {
    # MA-7: no die before the next egg card is turned up.
    "mahe-die-before-card": opening("r1", "mahe", FOUR_TURTLES, {"chance": "physical"}, {"type": "die"}),
    # MA-12: in a digital game the server turns up the cards; the phone does not referee such a table,
    # and a typed-in card is refused when its log is replayed.
    "mahe-digital-is-server-refereed": opening("r2", "mahe", FOUR_TURTLES, {"chance": "digital"}),
    "mahe-digital-typed-card": replaying(
        "mahe", FOUR_TURTLES, {"chance": "digital"}, {"type": "reveal_card", "value": 4}
    ),
    "mahe-nothing-to-undo": replaying("mahe", FOUR_TURTLES, {"chance": "physical"}, {"type": "undo"}),
    # MA-2: two players play two turtles each.
    "mahe-two-players-one-turtle": opening("r3", "mahe", FOUR_TURTLES[:2], {"chance": "physical"}),
    # MG-4: no bid before an explorer is turned up.
    "magellan-bid-before-reveal": opening(
        "r4", "magellan", magellan_players(3), {"depth": "outcomes"}, {"type": "bid", "seat": 0, "amount": 3}
    ),
    # MG-1 ledger depth: the money in each hand is secret, so only the server referees such a table.
    "magellan-ledger-is-server-refereed": opening("r5", "magellan", magellan_players(4), {"depth": "ledger"}),
    # MH-5: a hand that does not go out.
    "mhing-not-a-winning-hand": opening("r6", "mhing", MHING_THREE, {"settlement": 1}, MHING_LOSER),
    # MH-9: settlement variant 2 is for 2 to 4 players.
    "mhing-variant2-six": opening("r7", "mhing", magellan_players(6), {"settlement": 2}),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_the_browser_refuses_like_the_server(ask: Callable[[Mapping[str, Any]], Any], name: str) -> None:
    request = REFUSALS[name]
    server = json.loads(Referee().handle(json.dumps(request)))
    assert server["ok"] is False and server["error"]["code"], server
    assert ask(request) == server


def test_an_illegal_tap_is_refused_and_changes_nothing(ask: Callable[[Mapping[str, Any]], Any]) -> None:
    """At an open table, previews and committed taps that the rules refuse (MA-3: a die shows 1 to 6;
    MA-11: egg cards as dice are off at this table) get the Python Referee's very problem, and the
    table's state stays as it was."""
    referee = Referee()

    def both(request: dict[str, Any]) -> Any:
        server = json.loads(referee.handle(json.dumps(request)))
        assert ask(request) == server, request
        return server

    reveal = {"type": "reveal_card", "value": 2}
    assert both(opening("tap", "mahe", FOUR_TURTLES, {"chance": "physical"}, reveal))["ok"] is True
    before = both({"op": "dump", "id": "tap"})
    for event, code in (
        ({"type": "die", "value": 9}, "value-out-of-range"),
        ({"type": "play_card", "value": 4}, "variant-off"),
    ):
        for commit in (False, True):
            refused = both({"op": "apply", "id": "tap", "event": event, "commit": commit})
            assert refused["ok"] is False and refused["error"]["code"] == code, refused
    assert both({"op": "dump", "id": "tap"}) == before
    assert both({"op": "apply", "id": "tap", "event": {"type": "die", "value": 3}, "commit": True})["ok"]
    assert both({"op": "dump", "id": "tap"}) != before
    both({"op": "close", "id": "tap"})
