"""Non-interference (MG-3, MG-6, MG-8): in Magellan ledger play, two states that differ only in hidden
cards give byte-identical answers to everyone without those seats' tokens — the shared table view
(state, public legal actions, result, seed), the preview and the append of any event (accepted or
refused: status, code, detail, rule), the open log entry and the ETag.

Twins: a random ledger game (3–6 players, digital or physical chance, random sides) played to a random
point, then one of
* "hands": one card of seat X's closed hand swapped with a different card of seat Y's (secret: X, Y);
* "stack": (digital) a card of seat X's closed hand swapped with a different card of the draw stack
  (secret: X);
* "order": (digital) the draw stack in another order (secret: nobody — every seat is asked).
The requesters are the shared write token (holder None) and every seat that is not secret. Each
answer is computed by the very functions the table store uses: `api.tables.secrecy.decide` (the seat
check before the engine, then the engine step; preview or append) and `api.tables.views.table_view`
on the resulting row, the store's log rendering and the HTTP ETag.

The last test does the same end to end through HTTP with two real tables (ledger depth, physical
chance) whose only difference is the value Red typed in for a Vasco da Gama draw.

Physical draw stacks are not twinned: a player typing in the card they drew is checked against the
ledger's draw stack (MG-1), which is every card nobody else holds — that is their own answer, not an
answer to anyone without their token.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_case
from hypothesis import strategies as st

from api.errors import ApiProblem
from api.http.tables import etag_for
from api.rules.errors import RuleError
from api.rules.magellan.constants import MONEY_VALUES
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.setup import options_json
from api.rules.magellan.state import MagellanState
from api.tables.secrecy import decide, decide_undo, refuse_unless_owner
from api.tables.store import TableRow, _public_events
from api.tables.views import table_view
from tests.api.table_client import TableDriver
from tests.rules.magellan_support import TEST_SHEET, players, random_event, sides_from

TABLE_ID = "twinTwinTwinTwin"
BODY_TAG = re.compile(r'^W/"[0-9a-f]{32}"$')
AT = datetime(2026, 1, 1, tzinfo=UTC)
Event = dict[str, Any]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def row(state: MagellanState, names: list[dict[str, str]], version: int) -> TableRow:
    """The table row the store would hold for `state` at log position `version`."""
    return TableRow(
        id=TABLE_ID,
        game="magellan",
        players=names,
        options=options_json(state.options),
        seed=state.seed,
        seed_public=False,
        version=version,
        head=version,
        state=MAGELLAN.dump(state),
        finished=MAGELLAN.result(state) is not None,
        created_at=AT,
        updated_at=AT,
    )


def shown(state: MagellanState, names: list[dict[str, str]], version: int) -> str:
    """GET /api/tables/{id}: the body and its ETag."""
    return canonical({"body": table_view(row(state, names, version)), "etag": etag_for(TABLE_ID, version)})


def answer(
    state: MagellanState,
    event: Event,
    holder: int | None,
    names: list[dict[str, str]],
    options: dict[str, Any],
    preview: bool,
) -> str:
    """What the table store answers `holder` (None: the write token; n: seat n's own token) for a
    preview or an append of `event` at log position 7."""
    try:
        after = decide(MAGELLAN, state, names, event, holder, preview)
    except ApiProblem as problem:
        return canonical([problem.status, problem.code, problem.detail, problem.extra])
    except RuleError as error:
        return canonical([error.status, error.code, error.detail, error.rule])
    if MAGELLAN.result(state) is None and MAGELLAN.result(after) is not None:
        # The entry ends the game: every hand is laid open and counted (MG-10), so from here the
        # answer is meant to depend on them. Whether it ends the game depends on no hidden card.
        return canonical({"status": 200 if preview else 201, "ends the game": True})
    table = json.loads(shown(after, names, 8))
    if event.get("type") == "cook_pull" and MAGELLAN.reveals_hidden_chance(state, after):
        # Cook B, digital: the server pulls a random hand card and the rules lay it face up on the
        # discard pile (MG-8) — that card is meant to be seen; everything else must not differ.
        table["body"]["state"]["money"]["discard"] = "the pulled card, face up"
    log = _public_events(MAGELLAN, table["body"]["finished"], options)("game", dict(event))
    return canonical({"status": 200 if preview else 201, "table": table, "log": log})


def candidates(state: MagellanState, rng: random.Random) -> list[Event]:
    """Events a requester might send: every listed action with varied values, plus hostile ones —
    payments, slides, pulls, swaps and draws with arbitrary cards, for every seat, and over-high bids."""
    legal = MAGELLAN.legal_actions(state)
    events: list[Event] = []
    seats = range(len(state.players))
    for actor in legal["actors"]:
        seat = actor["seat"]
        for action in actor["actions"]:
            kind = action["type"]
            base = {"type": kind, "seat": seat}
            if kind == "bid":
                events += [{**base, "amount": a} for a in (action["min"], action["min"] + 3, 45, 60)]
                events.append({"type": "bid", "amount": action["min"]})  # no seat named
            elif kind == "vasco_part":
                events += [
                    {**base, **{k: v for k, v in o.items() if k != "draws" and v is not None}}
                    for o in action["options"]
                ]
            elif kind not in ("pay", "slide", "cook_pull", "swap", "draw", "pizarro_draw", "reveal"):
                events.append(base)
            elif kind == "reveal":
                events += [{**base, "explorer": e} for e in action["explorers"]]
    for seat in [*seats, None]:
        named = {} if seat is None else {"seat": seat}
        events += [{"type": "bid", "amount": a, **named} for a in (1, 50)]
        events += [
            {"type": "pay", "cards": sorted(rng.choices(MONEY_VALUES, k=rng.randint(1, 4))), **named}
            for _ in range(2)
        ]
        events += [{"type": "pay", "cards": [9, 9, 9], **named}]
        events += [{"type": "slide", "value": v, **named} for v in (1, 5, 9)]
        events += [{"type": "cook_pull", "value": v, **named} for v in (2, 8)]
        events += [{"type": "cook_pull", **named}]
        events += [{"type": "swap", "discard": d, "draw": 3, **named} for d in (1, 9)]
        events += [{"type": "swap", "discard": 4, **named}]
        events += [{"type": "draw", "cards": cards, **named} for cards in ([1], [9], [5, 5])]
        events += [{"type": "veto", **named}, {"type": "pass", **named}, {"type": "end_swaps", **named}]
    return events


def _closed(state: MagellanState) -> list[int]:
    return [s for s, p in enumerate(state.players) if p.hand and not p.hand_open]


def twin_hands(state: MagellanState, rng: random.Random) -> tuple[MagellanState, set[int]] | None:
    """One card swapped between two closed hands."""
    seats = _closed(state)
    rng.shuffle(seats)
    for x in seats:
        for y in seats:
            hx, hy = list(state.players[x].hand), list(state.players[y].hand)
            pairs = [(i, j) for i in range(len(hx)) for j in range(len(hy)) if hx[i] != hy[j]]
            if x == y or not pairs:
                continue
            i, j = rng.choice(pairs)
            hx[i], hy[j] = hy[j], hx[i]
            others = list(state.players)
            others[x] = replace(others[x], hand=tuple(sorted(hx)))
            others[y] = replace(others[y], hand=tuple(sorted(hy)))
            return replace(state, players=tuple(others)), {x, y}
    return None


def twin_stack(state: MagellanState, rng: random.Random) -> tuple[MagellanState, set[int]] | None:
    """Digital: a card of a closed hand swapped with a different card of the (face-down) draw stack."""
    if not state.digital:
        return None
    seats = _closed(state)
    rng.shuffle(seats)
    for x in seats:
        hand, draw = list(state.players[x].hand), list(state.draw)
        pairs = [(i, j) for i in range(len(hand)) for j in range(len(draw)) if hand[i] != draw[j]]
        if not pairs:
            continue
        i, j = rng.choice(pairs)
        hand[i], draw[j] = draw[j], hand[i]
        others = list(state.players)
        others[x] = replace(others[x], hand=tuple(sorted(hand)))
        return replace(state, players=tuple(others), draw=tuple(draw)), {x}
    return None


def twin_order(state: MagellanState, rng: random.Random) -> tuple[MagellanState, set[int]] | None:
    """Digital: the same draw stack in another order."""
    draw = list(state.draw)
    rng.shuffle(draw)
    if not state.digital or tuple(draw) == state.draw:
        return None
    return replace(state, draw=tuple(draw)), set()


TWINS = {"hands": twin_hands, "stack": twin_stack, "order": twin_order}


def _head(state: MagellanState) -> str:
    card = state.card
    return card.todo[0] if state.stage == "sale" and card is not None and card.todo else ""


STOPS = {
    "reveal": lambda s: s.stage == "reveal",
    "auction": lambda s: s.stage == "auction",
    "sale": lambda s: s.stage == "sale",
    "pay": lambda s: _head(s) == "pay",
    "draw": lambda s: s.stage == "phase_end" and any(s.phase_end.due) or _head(s) == "draw",
    "swap": lambda s: s.stage == "phase_end" and any(s.phase_end.swaps) and not any(s.phase_end.due),
}


def play_to(
    count: int, chance: str, sides: int, seed: int, skip: int, stop: str
) -> tuple[MagellanState, Any, Any]:
    """A random ledger game: `skip` random events, then on until the game is at `stop` (or scoring)."""
    names = players(count)
    options = MAGELLAN.normalize_options(
        {"depth": "ledger", "chance": chance, "sides": dict(sides_from(sides)), "board_sheet": TEST_SHEET}
    )
    state = MAGELLAN.new_game(names, options, seed)
    rng = random.Random(seed)
    done = 0
    while state.stage not in ("scoring", "finished") and (done < skip or not STOPS[stop](state)):
        state = MAGELLAN.apply(state, random_event(state, rng))
        done += 1
    return state, names, options


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    count=st.integers(3, 6),
    chance=st.sampled_from(["physical", "digital"]),
    sides=st.integers(0, 63),
    seed=st.integers(0, 2**31),
    skip=st.integers(0, 150),
    stop=st.sampled_from(sorted(STOPS)),
    kind=st.sampled_from(sorted(TWINS)),
)
def test_hidden_cards_never_change_an_answer_to_anyone_without_their_token(
    count: int, chance: str, sides: int, seed: int, skip: int, stop: str, kind: str
) -> None:
    state, names, options = play_to(count, chance, sides, seed, skip, stop)
    if state.stage in ("scoring", "finished"):  # MG-10: every hand is counted openly from here
        return
    rng = random.Random(seed ^ skip)
    made = TWINS[kind if state.digital else "hands"](state, rng)
    if made is None:
        return
    other, secret_seats = made
    chance_kind = f"{'digital' if state.digital else 'physical'} {kind if state.digital else 'hands'}"
    note_case(f"{chance_kind} twins, {state.stage} {_head(state)}")
    assert MAGELLAN.dump(state) != MAGELLAN.dump(other)
    # Everything anyone reads: the table (state, legal actions, result, seed) and its ETag …
    assert shown(state, names, 7) == shown(other, names, 7)
    # … and every answer to every event, previewed or appended, for the write token and the own token
    # of every seat whose cards are the same in both.
    requesters = [None, *(s for s in range(count) if s not in secret_seats)]
    for event in candidates(state, rng):
        for holder in requesters:
            for preview in (True, False):
                assert answer(state, event, holder, names, options, preview) == answer(
                    other, event, holder, names, options, preview
                ), (event, holder, preview)


def undo_answer(
    before: MagellanState,
    current: MagellanState,
    undone: Event,
    holder: int | None,
    names: list[dict[str, str]],
) -> str:
    """What the table store answers `holder` for an undo of `undone` (which led from `before` to
    `current`) at log position 8 (GEN-1: refused for the server's draws, a secret entry only for its
    own seat)."""
    try:
        restored = decide_undo(MAGELLAN, before, current, undone, names, holder)
    except ApiProblem as problem:
        return canonical([problem.status, problem.code, problem.detail, problem.extra])
    except RuleError as error:
        return canonical([error.status, error.code, error.detail, error.rule])
    return shown(restored, names, 9)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    count=st.integers(3, 6),
    chance=st.sampled_from(["physical", "digital"]),
    sides=st.integers(0, 63),
    seed=st.integers(0, 2**31),
    skip=st.integers(0, 150),
    stop=st.sampled_from(sorted(STOPS)),
    kind=st.sampled_from(sorted(TWINS)),
)
def test_hidden_cards_never_change_an_undo_answer_to_anyone_without_their_token(
    count: int, chance: str, sides: int, seed: int, skip: int, stop: str, kind: str
) -> None:
    """GEN-1 extends non-interference to undo: an entry recorded in twins that differ only in hidden
    cards is then undone (or refused) alike for everyone without those seats' tokens."""
    state, names, _options = play_to(count, chance, sides, seed, skip, stop)
    if state.stage in ("scoring", "finished"):
        return
    rng = random.Random(seed ^ skip)
    made = TWINS[kind if state.digital else "hands"](state, rng)
    if made is None:
        return
    other, secret_seats = made
    undone = random_event(state, rng)  # recorded from the phone of the seat it concerns
    try:
        after, other_after = MAGELLAN.apply(state, undone), MAGELLAN.apply(other, undone)
    except RuleError:
        return  # legal in one twin only: a difference only the owner's own phone could record
    note_case(f"undo of {undone['type']} ({'digital' if state.digital else 'physical'})")
    for holder in [None, *(s for s in range(count) if s not in secret_seats)]:
        assert undo_answer(state, after, undone, holder, names) == undo_answer(
            other, other_after, undone, holder, names
        ), (undone, holder)


def test_the_twins_are_told_apart_by_the_owner() -> None:
    """The check has teeth: the owner's own answers and own view do differ (their bid limit)."""
    names = players(3)
    options = MAGELLAN.normalize_options({"depth": "ledger", "chance": "digital", "board_sheet": TEST_SHEET})
    state = MAGELLAN.new_game(names, options, 5)
    rng = random.Random(5)
    while state.stage != "auction":
        state = MAGELLAN.apply(state, random_event(state, rng))
    bidder = state.card.turn if state.card else None
    assert bidder is not None
    poorer = list(state.players)
    poorer[bidder] = replace(poorer[bidder], hand=(1, 1, 1, 1, 1, 1, 1, 1, 1))
    other = replace(state, players=tuple(poorer))
    bid = {"type": "bid", "amount": 30, "seat": bidder}
    for holder, alike in ((bidder, False), (None, True), ((bidder + 1) % 3, True)):
        mine, theirs = (answer(s, bid, holder, names, options, True) for s in (state, other))
        assert (mine == theirs) is alike, holder
    assert MAGELLAN.private_view(state, bidder) != MAGELLAN.private_view(other, bidder)
    with pytest.raises(ApiProblem) as refused:
        refuse_unless_owner(MAGELLAN, state, names, bid, None)
    assert refused.value.code == "seat-token-required" and refused.value.extra == {"seat": bidder}


# --- the same through HTTP: two real tables ------------------------------------------------------------

STAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:[+-]\d\d:\d\d|Z)?")


def _http_candidates(table: dict[str, Any]) -> list[Event]:
    """What someone might send now: each listed action, and hand probes for every seat."""
    events: list[Event] = []
    for actor in table["legal_actions"]["actors"]:
        for action in actor["actions"]:
            base = {"type": action["type"], "seat": actor["seat"]}
            if action["type"] == "bid":
                events += [{**base, "amount": a} for a in (action["min"], 44, 46, 51)]
            elif action["type"] == "reveal":
                events += [{**base, "explorer": e} for e in action["explorers"][:2]]
            elif action["type"] in ("pass", "veto"):
                events.append(base)
    for seat in (None, 0):
        named = {} if seat is None else {"seat": seat}
        events += [{"type": "pay", "cards": cards, **named} for cards in ([3], [8], [3, 8], [8, 8])]
        events += [{"type": "slide", "value": v, **named} for v in (3, 8)]
        events += [{"type": "draw", "cards": [v], **named} for v in (3, 8)]
        events += [{"type": "bid", "amount": 47, **named}, {"type": "swap", "discard": 8, "draw": 3, **named}]
    return events


@pytest.mark.parametrize("sides", [{}, {"magellan": "B"}])
def test_two_real_tables_differing_only_in_a_typed_vasco_draw_answer_alike(
    client: FlaskClient, sides: dict[str, str]
) -> None:
    """Ledger depth, physical chance: Red types in the card drawn for Vasco da Gama (MG-8) — a 3 at one
    table, an 8 at the other — and the tables then go on alike. Every answer to anyone without Red's
    token is the same at both tables, request by request, with the table id and clock times blanked."""
    options = {"depth": "ledger", "chance": "physical", "board_sheet": TEST_SHEET, "sides": sides}
    twins = [TableDriver.create(client, game="magellan", players=players(3), options=options) for _ in "AB"]
    red = 0

    def send(method: str, twin: TableDriver, path: str, token: str | None, body: Any = None) -> str:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = client.open(f"/api/tables/{twin.id}{path}", method=method, json=body, headers=headers)
        text = STAMP.sub("<time>", answer.get_data(as_text=True).replace(twin.id, "<id>"))
        # A weak tag over the answer's bytes (api.http.conditional) is a function of the body, which
        # is compared itself: its hash differs with the table's id and clock times alone.
        tag = BODY_TAG.sub("<tag of the body>", answer.headers.get("ETag", "").replace(twin.id, "<id>"))
        return f"{answer.status_code} {tag} {text}"

    def alike(method: str, path: str, holder: str | int | None, body: Any = None) -> str:
        """The same request at both tables (as `holder`: "write", a seat, or no token) → one answer."""
        answers = []
        for twin in twins:
            tokens = {"write": twin.token, None: None} | {s["seat"]: s["token"] for s in twin.seats}
            token = tokens[holder]
            answers.append(send(method, twin, path, token, body))
        assert answers[0] == answers[1], (method, path, holder, body)
        return answers[0]

    def probe() -> None:
        for path in ("", "/events"):
            alike("GET", path, None)
        for seat in (1, 2):
            alike("GET", f"/seats/{seat}", seat)
        version = twins[0].table["version"]
        for event in _http_candidates(twins[0].table):
            body = {"expected_version": version, "event": event}
            for holder in (None, "write", 1, 2):
                if not alike("POST", "/preview", holder, body).startswith("200") and holder is not None:
                    assert not alike("POST", "/events", holder, body).startswith("201")

    def play(event: Event, seat: int | None = None, *, secret: list[Any] | None = None) -> None:
        """One event at both tables (as `seat`, else with the write token); `secret`: the typed cards,
        one per table. Once the tables differ, everything is probed before each event."""
        if twins[0].own_view(red) != twins[1].own_view(red):
            probe()
        answers = []
        for twin, cards in zip(twins, secret or [None, None], strict=True):
            answer = twin.post(event if cards is None else {**event, "cards": cards}, seat=seat)
            assert answer.status_code == 201, answer.get_json()
            twin.table = answer.get_json()["table"]
            answers.append(STAMP.sub("<time>", answer.get_data(as_text=True).replace(twin.id, "<id>")))
        assert answers[0] == answers[1], event

    play({"type": "reveal", "explorer": "vasco"})
    play({"type": "bid", "amount": 2, "seat": red}, red)
    play({"type": "pass", "seat": 1})
    play({"type": "pass", "seat": 2})
    play({"type": "pay", "cards": [2], "seat": red}, red)
    play({"type": "draw", "seat": red}, red, secret=[[3], [8]])  # the one difference
    hands = [[1, 3, 3, 4, 5, 6, 7, 8, 9], [1, 3, 4, 5, 6, 7, 8, 8, 9]]
    assert [t.own_view(red)["hand"] for t in twins] == hands
    play({"type": "reveal", "explorer": "columbus"})
    play({"type": "pass", "seat": red})
    play({"type": "bid", "amount": 1, "seat": 1}, 1)
    play({"type": "pass", "seat": 2})
    play({"type": "pay", "cards": [1], "seat": 1}, 1)
    play({"type": "reveal", "explorer": "magellan"})
    play({"type": "pass", "seat": 1})
    play({"type": "pass", "seat": 2})
    play({"type": "bid", "amount": 4, "seat": red}, red)
    play({"type": "pay", "cards": [4] if sides else [4, 9], "seat": red}, red)
    slide = {"type": "slide", "value": 4 if sides else 8, "seat": red}
    play(slide, red if not sides else None)  # side B slides from the payment, face up: anyone records it
    probe()
    log = client.get(f"/api/tables/{twins[0].id}/events").get_json()["events"]
    assert log[-1]["event"] == (slide if sides else {**slide, "value": "hidden"})
    assert twins[0].own_view(red)["hand"] != twins[1].own_view(red)["hand"]  # the twins do differ
