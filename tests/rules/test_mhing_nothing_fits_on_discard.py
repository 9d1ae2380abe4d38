"""MH-3 Decision: the exceptional hand "nothing fits" (MH-7) has no group and no pair, so no discard
can complete it. It goes out from the stack only: refused on a discard by the scorer, at the table
(nobody pays as the discarder, MH-9), as a claim to go out (MH-4), among the waits on a discard,
and by the phone's own referee (the same rules, asked as the app asks them)."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.mhing.exceptional import HAND_SIZE
from api.rules.referee import Referee
from tests.api.table_client import TableDriver
from tests.rules.mhing_support import HONOURS, SUITS, score

REPRO = "b1 b4 b7 c1 c4 k1 k4 we ws ww wn dr dg dw"  # the issue's hand: all honours, 8 premiums, 64 points
# Rank sets of one suit whose ranks are at least 3 apart (MH-7), by size.
SPREAD = {
    size: [
        ranks
        for ranks in combinations(range(1, 10), size)
        if all(b - a >= 3 for a, b in zip(ranks, ranks[1:], strict=False))
    ]
    for size in range(4)
}


@st.composite
def exceptional_hands(draw: st.DrawFn) -> tuple[list[str], str]:
    """14 hidden cards that read only as "nothing fits" (some turned into jokers), and flowers."""
    honours = draw(st.integers(5, 7))  # at most 3 cards per suit, so at least 5 honours
    left = HAND_SIZE - honours
    first = draw(st.integers(max(0, left - 6), min(3, left)))
    second = draw(st.integers(max(0, left - first - 3), min(3, left - first)))
    sizes = (first, second, left - first - second)
    cards = [
        f"{suit}{r}"
        for suit, size in zip(SUITS, sizes, strict=True)
        for r in draw(st.sampled_from(SPREAD[size]))
    ]
    cards += draw(st.lists(st.sampled_from(HONOURS), min_size=honours, max_size=honours, unique=True))
    jokers = draw(st.integers(0, 6))
    turned = set(draw(st.lists(st.integers(0, HAND_SIZE - 1), min_size=jokers, max_size=jokers, unique=True)))
    hidden = ["jk" if i in turned else c for i, c in enumerate(cards)]
    flowers = draw(st.lists(st.sampled_from(["f1", "f2", "f3", "f4"]), max_size=3, unique=True))
    return draw(st.permutations(hidden)), " ".join(flowers)


@settings(max_examples=300, deadline=None)
@given(exceptional_hands())
def test_mh3_every_exceptional_hand_is_refused_on_a_discard(hand: tuple[list[str], str]) -> None:
    hidden, flowers = hand
    drawn = score(" ".join(hidden), flowers=flowers)
    assert drawn.wins and drawn.kind == "nothing-fits"  # from the stack it goes out (MH-7)
    on_discard = score(" ".join(hidden), flowers=flowers, discard=True)
    assert not on_discard.wins and on_discard.reason_code == "nothing-fits-on-discard"
    assert on_discard.points == 0 and "MH-3" in (on_discard.reason or "")


@settings(max_examples=60, deadline=None)
@given(exceptional_hands(), st.data())
def test_mh3_the_phones_referee_refuses_it_too(hand: tuple[list[str], str], data: st.DataObject) -> None:
    """Score, waits and claims as the phone's screens ask its own referee (api.rules.referee)."""
    hidden, flowers = hand
    referee = Referee()

    def ask(op: str, body: dict[str, Any]) -> dict[str, Any]:
        return dict(json.loads(referee.handle(json.dumps({"op": op, "body": body}))))

    body = {"hidden": " ".join(hidden), "flowers": flowers}
    assert ask("mhing.score", {**body, "discard": False})["wins"]
    refused = ask("mhing.score", {**body, "discard": True})
    assert not refused["wins"] and refused["reason_code"] == "nothing-fits-on-discard"
    # One card short: the missing card is a wait from the stack, never on a discard.
    missing = data.draw(st.integers(0, HAND_SIZE - 1))
    short = {"hidden": " ".join(hidden[:missing] + hidden[missing + 1 :]), "flowers": flowers}
    from_stack = ask("mhing.waits", {**short, "discard": False})
    exceptional = [w for w in from_stack["waits"] if w["reading"]["kind"] == "nothing-fits"]
    assert exceptional and all(not w["on_discard"] for w in exceptional)
    on_a_discard = ask("mhing.waits", {**short, "discard": True})
    assert all(w["reading"]["kind"] != "nothing-fits" and w["on_discard"] for w in on_a_discard["waits"])
    claim = ask(
        "mhing.claims", {"discarder": 1, "seats": 3, "claims": [{"seat": 0, "kind": "out", "hand": body}]}
    )
    assert (
        not claim["ok"]
        and claim["error"]["code"] == "nothing-fits-on-discard"
        and claim["error"]["rule"] == "MH-3"
    )


def test_mh3_stateless_score_and_waits_over_http(client: FlaskClient) -> None:
    answer = client.post("/api/mhing/score", json={"hidden": REPRO, "discard": True}).get_json()
    assert answer["wins"] is False and answer["reason_code"] == "nothing-fits-on-discard"
    assert answer["points"] == 0 and answer["reading"] is None
    assert client.post("/api/mhing/score", json={"hidden": REPRO}).get_json()["points"] == 64
    short = REPRO.replace(" dw", "")
    waits = client.post("/api/mhing/waits", json={"hidden": short}).get_json()["waits"]
    assert {"dw", "jk", "c7", "k9"} <= {w["card"] for w in waits} and not any(w["on_discard"] for w in waits)
    on_discard = client.post("/api/mhing/waits", json={"hidden": short, "discard": True}).get_json()
    assert on_discard["ready"] is False and on_discard["waits"] == []


def test_mh4_a_claim_to_go_out_with_it_is_refused(client: FlaskClient) -> None:
    claim = {"seat": 2, "kind": "out", "hand": {"hidden": REPRO}}
    response = client.post("/api/mhing/claims", json={"discarder": 1, "seats": 3, "claims": [claim]})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["code"] == "nothing-fits-on-discard" and problem["rule"] == "MH-3"
    # A hand the discard does complete is a claim like any other; a hand only with `out`.
    good = {"seat": 2, "kind": "out", "hand": {"hidden": "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"}}
    taken = client.post("/api/mhing/claims", json={"discarder": 1, "seats": 3, "claims": [good]}).get_json()
    assert taken["taker"] == {"seat": 2, "kind": "out"}
    bad = {"seat": 2, "kind": "triplet", "hand": {"hidden": REPRO}}
    response = client.post("/api/mhing/claims", json={"discarder": 1, "seats": 3, "claims": [bad]})
    assert response.status_code in (400, 422) and response.get_json()["code"] == "hand-only-when-going-out"


def test_mh3_the_issues_repro_at_a_settlement_2_table(any_db_client: FlaskClient) -> None:
    """Settlement 2 (MH-9): before, the "discarder" paid double (128). Now refused, table untouched;
    the same hand from the stack is won, and everyone pays the single 64 points."""
    players = [{"name": n} for n in ("Ann", "Ben", "Cid")]
    t = TableDriver.create(any_db_client, game="mhing", players=players, options={"settlement": 2})
    before = t.refresh()
    refused = t.post({"type": "round_won", "winner": 0, "discarder": 1, "hand": {"hidden": REPRO}})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "nothing-fits-on-discard" and problem["rule"] == "MH-3"
    assert t.refresh() == before
    t.play({"type": "round_won", "winner": 0, "hand": {"hidden": REPRO}})
    assert [p["score"] for p in t.state["players"]] == [628, 436, 436]
