"""MH-1 cards and MH-10 notation: parser, formatter, groups with declared jokers, and clear errors."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules.errors import IllegalMove, MalformedEvent, RuleError
from api.rules.mhing.cards import ALL_CARDS, FLOWERS, KINDS, format_cards, parse_cards
from api.rules.mhing.hand import parse_group, parse_hand

LIMIT = {**{k: 4 for k in KINDS}, **{f: 2 for f in FLOWERS}, "jk": 6}


@st.composite
def card_lists(draw: st.DrawFn) -> list[str]:
    """Any list of cards that exists in one deck (MH-1), in any order."""
    cards = draw(st.lists(st.sampled_from(ALL_CARDS), max_size=40))
    kept: list[str] = []
    for card in cards:
        if kept.count(card) < LIMIT[card]:
            kept.append(card)
    return kept


def spelled(draw: st.DrawFn, cards: list[str]) -> str:
    """The cards typed as a player might: any case, spaces and/or commas between them."""
    words = ["".join(draw(st.sampled_from((ch.lower(), ch.upper()))) for ch in card) for card in cards]
    text = ""
    for word in words:
        text += word + draw(st.sampled_from([" ", ",", ", ", "  ", " ,", "\t"]))
    return draw(st.sampled_from(["", " ", ","])) + text


def test_deck_has_150_cards_mh1() -> None:
    """MH-1: 108 suit cards, 28 honours, 8 flowers (four kinds, two each), 6 jokers."""
    assert sum(LIMIT.values()) == 150
    assert len(KINDS) == 34 and sum(LIMIT[k] for k in KINDS) == 136


def test_mh10_example_parses_and_formats() -> None:
    text = "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"
    assert format_cards(parse_cards(text)) == text
    assert parse_cards("B1,b2, B3") == ("b1", "b2", "b3")
    assert parse_cards(["WE", " dr "]) == ("we", "dr")


@given(st.data())
def test_format_of_parse_round_trips_mh10(data: st.DataObject) -> None:
    """MH-10: case-insensitive, spaces or commas; formatting gives the canonical text back."""
    cards = data.draw(card_lists())
    text = spelled(data.draw, cards)
    parsed = parse_cards(text)
    assert list(parsed) == cards
    assert format_cards(parsed) == " ".join(cards)
    assert parse_cards(format_cards(parsed)) == parsed
    assert parse_cards(cards) == parsed


@given(st.text(alphabet="abcdfgjkrsw0123456789xyz", min_size=1, max_size=4))
def test_anything_else_is_an_unknown_card_mh10(token: str) -> None:
    if token.lower() in ALL_CARDS:
        assert parse_cards(token) == (token.lower(),)
        return
    with pytest.raises(MalformedEvent) as error:
        parse_cards(f"b1 {token} b2")
    assert error.value.code == "unknown-card" and error.value.rule == "MH-10"
    assert repr(token) in error.value.detail


@given(st.sampled_from(KINDS), st.integers(5, 8))
def test_a_fifth_copy_is_refused_mh1(kind: str, copies: int) -> None:
    with pytest.raises(IllegalMove) as error:
        parse_cards(" ".join([kind] * copies))
    assert error.value.code == "too-many-copies" and error.value.rule == "MH-1"
    assert f"only 4 copies of {kind}" in error.value.detail


def test_a_seventh_joker_is_refused_mh1() -> None:
    assert Counter(parse_cards("jk " * 6))["jk"] == 6
    with pytest.raises(IllegalMove) as error:
        parse_cards("jk " * 7)
    assert error.value.code == "too-many-jokers"


def test_a_ninth_flower_and_a_third_copy_of_a_flower_kind_are_refused_mh1() -> None:
    assert len(parse_cards("f1 f1 f2 f2 f3 f3 f4 f4")) == 8
    with pytest.raises(IllegalMove) as ninth:
        parse_cards("f1 f1 f2 f2 f3 f3 f4 f4 f1")
    assert ninth.value.code == "too-many-flowers"
    with pytest.raises(IllegalMove) as third:
        parse_cards("f1 f1 f1")
    assert third.value.code == "too-many-copies" and "only 2 copies of f1" in third.value.detail


def test_copies_are_counted_over_the_whole_hand_mh1() -> None:
    """A b1 laid out, three hidden and one more hidden make five; a declared joker is not a b1."""
    with pytest.raises(IllegalMove) as error:
        parse_hand(["b1 b2 b3"], "b1 b1 b1 b1")
    assert error.value.code == "too-many-copies"
    hand = parse_hand(["jk=b1 b2 b3"], "b1 b1 b1 b1")
    assert hand.groups[0].physical == ("jk", "b2", "b3")
    with pytest.raises(IllegalMove):
        parse_hand(["jk=b1 b2 b3", "jk jk jk"], "jk jk jk b5 b5")


def test_a_flower_inside_a_group_is_refused_mh5() -> None:
    with pytest.raises(IllegalMove) as error:
        parse_group("f1 b2 b3")
    assert error.value.code == "flower-in-group"
    with pytest.raises(IllegalMove) as declared:
        parse_group("jk=f1 b2 b3")
    assert declared.value.code == "invalid-joker"


def test_flowers_among_hidden_cards_are_set_aside_mh2() -> None:
    hand = parse_hand(None, "b1 f2 b2 b3", "f1")
    assert hand.hidden == ("b1", "b2", "b3") and hand.flowers == ("f1", "f2")
    with pytest.raises(IllegalMove) as error:
        parse_hand(None, "b1", "f1 b2")
    assert error.value.code == "not-a-flower"


def test_groups_with_declared_and_evident_jokers_mh5() -> None:
    group = parse_group("b3 jk=b4 b5")
    assert group.notation == "b3 jk=b4 b5" and group.physical == ("b3", "jk", "b5")
    assert parse_group("dr dr jk").notation == "dr dr jk=dr"
    assert parse_group(["b5", "JK", "b3"]).notation == "b3 jk=b4 b5"
    assert parse_group("jk=c7 jk=c8 jk=c9").physical == ("jk", "jk", "jk")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("b3 b4 jk", "undeclared-joker"),
        ("jk jk jk", "undeclared-joker"),
        ("b1 b2 b4", "not-a-group"),
        ("b8 b9 c1", "not-a-group"),
        ("we ws ww", "not-a-group"),
        ("b1 b2", "group-size"),
        ("b1 b1 b1 b1", "group-size"),
        ("jk=jk b1 b1", "invalid-joker"),
        ("b1 jk=b5 b3", "not-a-group"),
    ],
)
def test_bad_groups_are_refused_with_a_reason_mh5(text: str, code: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_group(text)
    assert error.value.code == code
    assert error.value.detail


def test_groups_as_one_string_and_hidden_jokers_never_declared_mh10() -> None:
    hand = parse_hand("b1 b2 b3 | dr dr dr; c5 c5 c5", "k1 k1")
    assert [g.notation for g in hand.groups] == ["b1 b2 b3", "dr dr dr", "c5 c5 c5"]
    with pytest.raises(IllegalMove) as error:
        parse_hand(None, "jk=b4 b5")
    assert error.value.code == "joker-declared-in-hidden"
    with pytest.raises(IllegalMove) as many:
        parse_hand(["b1 b2 b3"] * 5, "")
    assert many.value.code == "too-many-groups"
    with pytest.raises(MalformedEvent):
        parse_hand(None, 5)  # type: ignore[arg-type]
