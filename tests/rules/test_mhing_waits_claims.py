"""Waits of a 13-card hand (MH-5 … MH-8) and the MH-4 claim resolver."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mhing_support import KINDS, partitions

from api.rules.errors import IllegalMove, MalformedEvent, RuleError
from api.rules.mhing.claims import Claim, parse_claims, resolve, resolve_json
from api.rules.mhing.hand import parse_hand
from api.rules.mhing.scoring import score_hand
from api.rules.mhing.waits import waits, waits_json


def wait_cards(hidden: str, groups: object = None) -> dict[str, tuple[int, int]]:
    """card → (points, copies left)."""
    return {w.card: (w.score.points, w.copies_left) for w in waits(parse_hand(groups, hidden))}


def test_single_wait_on_the_pair_and_the_joker() -> None:
    found = wait_cards("b1 b2 b3 c5 c5 c5 we we we dr dr dr k2")
    assert found == {"k2": (64, 3), "jk": (64, 6)}


def test_nine_waits_of_a_one_suit_hand_match_brute_force() -> None:
    """b1 ×3, b2–b8, b9 ×3 waits on every bamboo; each completed hand as the scorer scores it."""
    hidden = "b1 b1 b1 b2 b3 b4 b5 b6 b7 b8 b9 b9 b9"
    found = wait_cards(hidden)
    base = Counter(hidden.split())
    expected = {k for k in KINDS if any(True for _ in partitions(base + Counter([k]), 4, True))}
    assert set(found) == expected | {"jk"}
    assert expected == {f"b{r}" for r in range(1, 10)}
    for card, (pts, left) in found.items():
        assert pts == score_hand(parse_hand(None, f"{hidden} {card}")).points
        assert left == (6 if card == "jk" else 4 - base[card])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(KINDS[:9] + KINDS[27:29]), min_size=13, max_size=13))
def test_waits_are_exactly_the_cards_that_complete_the_hand(cards: list[str]) -> None:
    if any(n > 4 for n in Counter(cards).values()):
        return
    found = wait_cards(" ".join(cards))
    base = Counter(cards)
    completes = {k for k in KINDS if any(True for _ in partitions(base + Counter([k]), 4, True))}
    assert set(found) - {"jk"} == {k for k in completes if base[k] < 4}  # no fifth natural copy
    assert ("jk" in found) == bool(found)


def test_a_card_whose_copies_are_all_in_the_hand_is_not_a_wait() -> None:
    """Four red dragons held: a fifth can only be a joker (MH-5 Decision)."""
    found = wait_cards("dr dr dr dr b1 b2 b3 c1 c2 c3 k4 k5 k6")
    jk = score_hand(parse_hand(None, "dr dr dr dr jk b1 b2 b3 c1 c2 c3 k4 k5 k6")).points
    assert found == {"jk": (jk, 6)}


def test_waits_with_laid_out_groups_and_flowers() -> None:
    body = waits_json(parse_hand(["b3 jk=b4 b5"], "c5 c5 c5 we we we dr dr k2 k2", "f1"))
    assert body["ready"] and {w["card"] for w in body["waits"]} == {"dr", "k2", "jk"}
    dr = next(w for w in body["waits"] if w["card"] == "dr")
    assert (
        dr["total_premiums"]
        == score_hand(parse_hand(["b3 jk=b4 b5"], "c5 c5 c5 we we we dr dr dr k2 k2", "f1")).total_premiums
    )
    assert next(w for w in body["waits"] if w["card"] == "jk")["copies_left"] == 5


def test_waits_need_13_cards() -> None:
    with pytest.raises(IllegalMove) as error:
        waits(parse_hand(None, "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"))
    assert error.value.code == "wrong-card-count"
    assert waits_json(parse_hand(None, "b1 b3 b5 b7 b9 c1 c3 c5 c7 c9 k1 k3 k5"))["ready"] is False


# --- MH-4 claims --------------------------------------------------------------------------------


def test_mh4_going_out_beats_triplet_beats_sequence() -> None:
    ruling = resolve_json(
        0, 4, [{"seat": 1, "kind": "sequence"}, {"seat": 2, "kind": "triplet"}, {"seat": 3, "kind": "out"}]
    )
    assert ruling["taker"] == {"seat": 3, "kind": "out"}
    assert ruling["skipped"] == [1, 2] and ruling["next_seat"] == 3
    assert [c["seat"] for c in ruling["ranked"]] == [3, 2, 1]
    assert "beats a triplet and a sequence" in ruling["explanation"]
    assert resolve_json(0, 4, [{"seat": 1, "kind": "sequence"}, {"seat": 3, "kind": "triplet"}])["taker"] == {
        "seat": 3,
        "kind": "triplet",
    }


def test_mh4_equal_claims_go_to_the_nearest_after_the_discarder_in_seat_order() -> None:
    ruling = resolve_json(2, 4, [{"seat": 1, "kind": "triplet"}, {"seat": 3, "kind": "triplet"}])
    assert ruling["taker"]["seat"] == 3 and ruling["skipped"] == []
    wrapped = resolve_json(3, 5, [{"seat": 2, "kind": "out"}, {"seat": 1, "kind": "out"}])
    assert wrapped["taker"]["seat"] == 1 and wrapped["skipped"] == [4, 0]
    assert "nearest after seat 3" in wrapped["explanation"]


def test_mh4_no_claim_the_next_player_draws() -> None:
    ruling = resolve_json(5, 6, [])
    assert ruling["taker"] is None and ruling["next_seat"] == 0 and ruling["skipped"] == []


@given(st.integers(2, 6), st.data())
def test_mh4_the_taker_is_strongest_then_nearest(seats: int, data: st.DataObject) -> None:
    discarder = data.draw(st.integers(0, seats - 1))
    others = [s for s in range(seats) if s != discarder]
    claimants = data.draw(st.lists(st.sampled_from(others), unique=True))
    claims = [Claim(s, data.draw(st.sampled_from(["out", "triplet", "sequence"]))) for s in claimants]
    ruling = resolve(discarder, seats, claims)
    if not claims:
        assert ruling.taker is None
        return
    assert ruling.taker is not None
    order = ["out", "triplet", "sequence"]
    best = min(order.index(c.kind) for c in claims)
    assert order.index(ruling.taker.kind) == best
    distance = (ruling.taker.seat - discarder) % seats
    assert all((c.seat - discarder) % seats >= distance for c in claims if order.index(c.kind) == best)
    assert len(ruling.skipped) == distance - 1 and discarder not in ruling.skipped


@pytest.mark.parametrize(
    ("discarder", "seats", "claims", "code", "kind"),
    [
        (0, 4, [{"seat": 0, "kind": "out"}], "own-discard", IllegalMove),
        (0, 4, [{"seat": 1, "kind": "out"}, {"seat": 1, "kind": "triplet"}], "duplicate-claim", IllegalMove),
        (0, 4, [{"seat": 4, "kind": "out"}], "no-such-seat", IllegalMove),
        (0, 4, [{"seat": 1, "kind": "pung"}], "unknown-claim-kind", MalformedEvent),
        (0, 7, [], "invalid-seat-count", IllegalMove),
        (5, 4, [], "no-such-seat", IllegalMove),
        ("0", 4, [], "invalid-seat", MalformedEvent),
        (0, 4, "seat 1", "invalid-claims", MalformedEvent),
    ],
)
def test_mh4_bad_claims_are_refused(
    discarder: object, seats: object, claims: object, code: str, kind: type
) -> None:
    with pytest.raises(RuleError) as error:
        parse_claims(discarder, seats, claims)
    assert error.value.code == code and isinstance(error.value, kind)


def test_mh3_without_a_claim_the_next_player_draws_from_the_stack() -> None:
    """MH-3: the discard may only be taken to lay out a group or to go out; unclaimed, the turn
    passes in seat order and the next player takes the top card of the stack."""
    ruling = resolve_json(3, 4, [])
    assert ruling["taker"] is None
    assert ruling["next_seat"] == 0 and ruling["skipped"] == []
    assert "draws from the stack (MH-3)" in ruling["explanation"]
