"""Secrets stay secret (hostile finding: Magellan ledger hands leaked through the public view, the
refusals and the preview), and the rulings a referee audit caught (MG-5, MG-7, MG-8, MA-7)."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.rules.errors import IllegalMove
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import Ship
from tests.api.finished_game import play_short_game
from tests.api.table_client import TableDriver
from tests.rules.magellan_support import TEST_SHEET, new, play, players, reveal

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
    probes = [[1, 2], [9], [5, 5], [7, 8, 9]]
    for path in ("events", "preview"):
        answers = {
            client.post(
                f"/api/tables/{table.id}/{path}",
                json={"expected_version": table.table["version"], "event": {"type": "pay", "cards": cards}},
                headers={"Authorization": f"Bearer {table.token}"},
            ).get_data(as_text=True)
            for cards in probes
        }
        assert len(answers) == 1 and "seat-token-required" in answers.pop()
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


def test_engine_messages_cite_only_real_decisions_and_no_field_names() -> None:
    decisions = _referee_decisions()
    problems = []
    for path in (ROOT / "api" / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(getattr(node, "func", None), "id", None)
            if (
                not isinstance(node, ast.Call)
                or name not in ("IllegalMove", "MalformedEvent")
                or len(node.args) < 2
            ):
                continue
            text = "".join(
                n.value
                for n in ast.walk(node.args[1])
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            )
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            problems += [f"{where}: field name {w!r}" for w in re.findall(r"\b[a-z]+_[a-z_]+\b", text)]
            problems += [
                f"{where}: no {r} Decision"
                for r in re.findall(r"\((M[AGH]-\d+)[^)]*Decision\)", text)
                if r not in decisions
            ]
            problems += [
                f"{where}: doubled citation" for _ in re.findall(r"\(M[AGH]-\d+\)\s*\(M[AGH]-\d+\)", text)
            ]
    assert not problems, problems
