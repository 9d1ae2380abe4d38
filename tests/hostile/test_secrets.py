"""Secrets stay secret (hostile finding: Magellan ledger hands leaked through the public view, the
refusals and the preview), and the rulings a referee audit caught (MG-5, MG-7, MG-8, MA-7)."""

from __future__ import annotations

import ast
import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.rules.errors import IllegalMove, RuleError
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import Ship
from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver
from tests.conftest import make_test_app
from tests.rules.magellan_support import TEST_SHEET, new, play, players, random_event, reveal, sides_from
from tests.rules.test_magellan_noninterference import candidates

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT.parent / "shared" / "rules" / "REFEREE.md"


def _ledger_table(client: FlaskClient, **options: Any) -> TableDriver:
    opts = {"depth": "ledger", "chance": "digital", "board_sheet": TEST_SHEET, **options}
    return TableDriver.create(client, game="magellan", players=players(3), options=opts)


def test_the_shared_view_never_shows_what_a_hand_can_pay(client: FlaskClient) -> None:
    table = _ledger_table(client)
    bidder = table.legal["next"]["seat"]
    shared = client.get(f"/api/tables/{table.id}").get_json()
    bid = next(a for a in shared["legal_actions"]["actors"][0]["actions"] if a["type"] == "bid")
    assert bid["max"] is None and "bid_max" not in str(shared)
    # MG-6: a starting hand 1–9 pays at most 45 (44 when a card must stay in hand, MG-8) — the
    # bidder's own view says so.
    assert table.own_view(bidder)["actions"]["bid_max"] in (44, 45)


@pytest.mark.parametrize("path", ["events", "preview"])
def test_hand_dependent_events_are_refused_alike_without_the_seats_token(
    client: FlaskClient, path: str
) -> None:
    table = _ledger_table(client)
    bidder = table.legal["next"]["seat"]
    url = f"/api/tables/{table.id}/{path}"
    for token in (None, table.token, table.seats[(bidder + 1) % 3]["token"]):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answers = set()
        for amount in (2, 45, 46, 60):  # affordable or not: the same answer for everyone else
            body = {"expected_version": 0, "event": {"type": "bid", "amount": amount, "seat": bidder}}
            answer = client.post(url, json=body, headers=headers)
            answers.add((answer.status_code, answer.get_json()["code"], answer.get_json()["detail"]))
        assert len(answers) == 1, answers
        status, code, detail = answers.pop()
        assert "at most" not in detail
        if token:
            assert (status, code) == (403, "seat-token-required")
    # The bidder's own phone learns its limit, as it should.
    own = client.post(
        url,
        json={"expected_version": 0, "event": {"type": "bid", "amount": 46, "seat": bidder}},
        headers={"Authorization": f"Bearer {table.seats[bidder]['token']}"},
    )
    assert own.status_code == 422 and own.get_json()["code"] == "bid-above-money"
    assert "at most 4" in own.get_json()["detail"]  # 45, or 44 when a card must stay in hand


def test_a_payment_cannot_be_probed_card_by_card(client: FlaskClient) -> None:
    table = _ledger_table(client)
    bidder = table.legal["next"]["seat"]
    table.play({"type": "bid", "amount": 3, "seat": bidder}, seat=bidder)
    while table.state["stage"] == "auction":
        table.play({"type": "pass", "seat": table.legal["next"]["seat"]})
    assert table.state["stage"] == "sale"
    winner = table.state["card"]["winner"]
    probes = [[1, 2], [9], [5, 5], [7, 8, 9], [3], [1, 1, 1, 1]]  # in the hand or not, enough or not
    other = table.seats[(winner + 1) % 3]["token"]
    for path, token in [("events", table.token), ("events", other), ("preview", None), ("preview", other)]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answers = {
            client.post(
                f"/api/tables/{table.id}/{path}",
                json={"expected_version": table.table["version"], "event": {"type": "pay", "cards": cards}},
                headers=headers,
            ).get_data(as_text=True)
            for cards in probes
        }
        assert len(answers) == 1, (path, answers)
        problem = json.loads(answers.pop())
        assert (problem["status"], problem["code"], problem["seat"]) == (403, "seat-token-required", winner)
    paid = table.post({"type": "pay", "cards": [3]}, seat=winner)
    assert paid.status_code == 201


def test_mg8_a_pass_is_not_a_bid_the_veto_stays_open() -> None:
    """MG-8 Decision: the Columbus owner may still veto after players passed, until the first bid."""
    state = new(3)
    state = play(state, reveal("columbus"), {"type": "bid", "amount": 1})
    while state.stage == "auction":
        state = MAGELLAN.apply(state, {"type": "pass"})
    state = play(state, reveal("cook"))
    owner = state.last_winner
    state = MAGELLAN.apply(state, {"type": "pass"})  # somebody passes on Cook …
    vetoed = MAGELLAN.apply(state, {"type": "veto", "seat": owner})  # … the veto is still open
    assert vetoed.history[-1].outcome == "vetoed"
    bid_first = MAGELLAN.apply(state, {"type": "bid", "amount": 1})
    with pytest.raises(IllegalMove) as late:
        MAGELLAN.apply(bid_first, {"type": "veto", "seat": owner})
    assert late.value.code == "veto-too-late" and "first bid" in late.value.detail


def test_mg7_a_player_without_ships_is_told_why_not_whose_turn_it_is() -> None:
    """MG-7 Decision: no ship left to place, no phase-I bid — and the refusal says so."""
    state = new(3)
    seats = list(state.players)
    seats[1] = replace(seats[1], ships=tuple(Ship("pizarro", 1) for _ in range(6)))  # all six placed
    state = play(replace(state, players=tuple(seats)), reveal("cook"))
    assert 1 not in state.card.order
    with pytest.raises(IllegalMove) as refused:
        MAGELLAN.apply(state, {"type": "bid", "amount": 1, "seat": 1})
    assert refused.value.code == "may-not-bid" and refused.value.rule == "MG-7"
    assert "six ships" in refused.value.detail and "decision now" not in refused.value.detail


def test_mg8_a_side_b_slide_is_face_up_in_the_log_side_a_is_not() -> None:
    slide = {"type": "slide", "value": 4}
    side_b = MAGELLAN.normalize_options({"sides": {"magellan": "B"}})
    side_a = MAGELLAN.normalize_options({"sides": {"magellan": "A"}})
    assert MAGELLAN.public_event(slide, side_b) == slide
    assert MAGELLAN.public_event(slide, side_a) == {"type": "slide", "value": "hidden"}


def test_ma7_egg_cards_lie_face_down(client: FlaskClient) -> None:
    """MA-7 Decision: counts on the shared view, values in the own view and once the game is over."""
    table = play_short_game(client)
    record = client.get(f"/api/tables/{table.id}/export").get_json()
    assert table.table["finished"] and table.state["players"][0]["cards"]  # over: shown to all
    replay = TableDriver.create(client, game="mahe", players=record["players"], options=record["options"])
    for entry in record["events"][:-1]:  # all but the beach: the game still runs
        replay.play(entry["event"])
    martin = replay.state["players"][0]
    assert martin["cards"] is None and martin["eggs"] is None and martin["card_count"] == 20
    assert len(replay.own_view(0)["cards"]) == 20 and replay.own_view(0)["eggs"] > 0


def _physical_ledger(client: FlaskClient, **sides: str) -> TableDriver:
    options = {"depth": "ledger", "chance": "physical", "board_sheet": TEST_SHEET, "sides": sides}
    return TableDriver.create(client, game="magellan", players=players(3), options=options)


def _sell(table: TableDriver, explorer: str, winner: int, cards: list[int]) -> None:
    """Physical ledger: `explorer` is turned up, `winner` bids 1 on their own phone, the others pass
    (their passes go with the write token), and the winner pays `cards` on their own phone."""
    table.play({"type": "reveal", "explorer": explorer})
    while table.state["stage"] == "auction":
        seat = table.legal["next"]["seat"]
        if seat == winner:
            table.play({"type": "bid", "amount": 1, "seat": seat}, seat=seat)
        else:
            table.play({"type": "pass", "seat": seat})
    table.play({"type": "pay", "cards": cards, "seat": winner}, seat=winner)


def test_mg7_the_write_token_hears_why_a_player_may_not_bid(client: FlaskClient) -> None:
    """MG-7 Decision through HTTP: a bid for a player without a ship to place is refused with that
    reason, from public information — not "seat-token-required", not whose decision it is."""
    table = _physical_ledger(client)
    for index, explorer in enumerate(["pizarro"] * 3 + ["marco_polo"] * 3):
        _sell(table, explorer, 1, [index + 1])
    assert table.state["players"][1]["ships_left"] == 0
    table.play({"type": "reveal", "explorer": "cook"})
    for token_seat in (None, 1):
        refused = table.post({"type": "bid", "amount": 1, "seat": 1}, seat=token_seat)
        problem = refused.get_json()
        assert (refused.status_code, problem["code"], problem["rule"]) == (422, "may-not-bid", "MG-7")
        assert "six ships" in problem["detail"] and "decision now" not in problem["detail"]


def test_mg8_a_pass_leaves_the_columbus_veto_open_through_http(client: FlaskClient) -> None:
    """MG-8 Decision: a pass is not a bid — the veto stays open until the first bid."""
    table = _physical_ledger(client)
    _sell(table, "columbus", 0, [1])
    table.play({"type": "reveal", "explorer": "cook"})
    opener = table.legal["next"]["seat"]
    table.play({"type": "pass", "seat": opener})
    table.play({"type": "veto", "seat": 0})
    assert table.state["history"][-1]["outcome"] == "vetoed"
    assert table.state["decks"][0]["under_deck"] == ["cook"]


def test_mg8_a_side_b_slide_reads_face_up_in_the_open_log(client: FlaskClient) -> None:
    """MG-8: on side B the slid card is taken from the payment, face up — the log shows it; side A
    slides from the hand, face down, and the log hides it until the game is over."""
    for side, value, recorder in (("B", 2, None), ("A", 3, 0)):  # B: anyone; A: Red's own phone
        table = _physical_ledger(client, magellan=side)
        _sell(table, "magellan", 0, [1, 2])
        table.play({"type": "slide", "value": value, "seat": 0}, seat=recorder)
        log = client.get(f"/api/tables/{table.id}/events").get_json()["events"]
        assert log[-1]["event"] == {"type": "slide", "value": value if side == "B" else "hidden", "seat": 0}


def test_pass_and_play_is_never_locked_out_by_seat_token_refusals(sqlite_url: str) -> None:
    """The phone that holds every seat link first sends a secret event with the write token and, told
    `seat-token-required`, again with the seat's own: those refusals are no wrong tokens."""
    client = make_test_app(
        sqlite_url, KIBITZ_TOKEN_FAILURE_LIMIT="3 per minute", KIBITZ_TOKEN_GUESS_LIMIT="5 per minute"
    ).test_client()
    table = _ledger_table(client)
    for _ in range(8):
        bidder = table.legal["next"]["seat"]
        bid = {"type": "bid", "amount": table.legal["actors"][0]["actions"][0]["min"], "seat": bidder}
        assert table.post(bid).get_json()["code"] == "seat-token-required"
        table.play(bid, seat=bidder)
    assert table.post({"type": "pass", "seat": table.legal["next"]["seat"]}).status_code == 201
    # Wrong tokens still count: the fourth try with a made-up one is throttled.
    wrong = {"Authorization": "Bearer not-a-token-of-this-table"}
    body = {"expected_version": table.table["version"], "event": {"type": "pass"}}
    codes = [
        client.post(f"/api/tables/{table.id}/events", json=body, headers=wrong).status_code for _ in range(4)
    ]
    assert codes == [403, 403, 403, 429]


def _referee_decisions() -> set[str]:
    if not REFEREE.exists():
        pytest.skip("REFEREE.md is not beside the checkout")
    rules, current = set(), None
    for line in REFEREE.read_text().splitlines():
        match = re.match(r"\*\*(M[AGH]-\d+)\b", line)
        current = match.group(1) if match else current
        if current and "**Decision" in line:
            rules.add(current)
    return rules


# Calls whose text arguments reach players: refusals, and the reasons and notes of legal actions.
MESSAGE_CALLS = {"IllegalMove", "MalformedEvent", "InvalidSetup", "RuleError", "note", "sheet_incomplete"}
FIELD_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")  # pile_index, from_part …
CITED_DECISION = re.compile(r"\b(M[AGH]-\d+)[^()]*\bDecision\b")
DOUBLED = re.compile(r"\(M[AGH]-\d+[^()]*\)\s*\(M[AGH]-\d+")


PLACEHOLDER = re.compile(r"\{\w+\}")  # a template's {slot} is filled with a value, never shown


def _message_problems(text: str, decisions: set[str], field_names: bool = True) -> list[str]:
    shown = PLACEHOLDER.sub("", text)
    found = [f"field name {w!r}" for w in FIELD_NAME.findall(shown)] if field_names else []
    found += [f"no {r} Decision in REFEREE.md" for r in CITED_DECISION.findall(text) if r not in decisions]
    found += ["doubled citation"] * len(DOUBLED.findall(text))
    return found


def _literal_messages(path: Path) -> list[tuple[int, str, str]]:
    """(line, call, text) of every message written in the source: the string parts of the arguments
    after the code of a refusal or note, and the reason of an actor (f-string values left out), and
    of every `say(template, …)` template."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        args = node.args[1:2] if name == "actor" else node.args[1:] if name in MESSAGE_CALLS else []
        args = node.args[:1] if name == "say" else args
        for arg in args:
            parts = [
                n.value for n in ast.walk(arg) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            found.append((node.lineno, str(name), "".join(parts)))
    return found


def test_engine_messages_cite_only_real_decisions_and_no_field_names() -> None:
    """Every refusal, reason and note the engines can write cites only Decisions REFEREE.md has, cites
    one rule per bracket, and names no internal field (a setup refusal may name the option key the
    API caller sent)."""
    decisions = _referee_decisions()
    problems = []
    for path in sorted((ROOT / "api" / "rules").rglob("*.py")):
        for line, call, text in _literal_messages(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            found = _message_problems(text, decisions, field_names=call != "InvalidSetup")
            problems += [f"{where}: {problem}: {text!r}" for problem in found]
    assert not problems, problems


def _texts(value: Any) -> list[str]:
    """Every sentence in a legal-actions or view answer (reasons, notes, details, waiting texts)."""
    if isinstance(value, dict):
        return [
            t
            for key, v in value.items()
            for t in (
                [v]
                if key in ("reason", "text", "detail", "waiting_for") and isinstance(v, str)
                else _texts(v)
            )
        ]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


@pytest.mark.parametrize("seed", range(6))
def test_every_message_a_magellan_game_produces_is_clean(seed: int) -> None:
    """The same check on what the engine actually says in random ledger games: the reasons and notes of
    every legal-actions answer, the own views' notes, and the refusal of every candidate event."""
    decisions = _referee_decisions()
    count = 3 + seed % 4
    options = MAGELLAN.normalize_options(
        {
            "depth": "ledger",
            "chance": ("physical", "digital")[seed % 2],
            "sides": dict(sides_from(seed * 11)),
            "board_sheet": TEST_SHEET,
        }
    )
    state, rng = MAGELLAN.new_game(players(count), options, seed), random.Random(seed)
    said: set[str] = set()
    while state.stage not in ("scoring", "finished"):
        said.update(
            _texts(MAGELLAN.legal_actions(state)) + _texts(MAGELLAN.public_view(state)["waiting_for"])
        )
        for seat in range(count):
            said.update(_texts(MAGELLAN.private_view(state, seat)))
        if rng.random() < 0.3:
            for event in candidates(state, rng):
                try:
                    MAGELLAN.apply(state, event)
                except RuleError as error:
                    said.add(error.detail)
        state = MAGELLAN.apply(state, random_event(state, rng))
    problems = [f"{p}: {text!r}" for text in sorted(said) for p in _message_problems(text, decisions)]
    assert len(said) > 50 and not problems, problems
