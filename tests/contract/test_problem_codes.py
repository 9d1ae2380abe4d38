"""Every problem code is in the document (issue 24: "rule refusals of valid-looking input documented
as 422 with their codes"): the codes are read from the sources (api/contract/problem_codes.py), the
committed reading is fresh, no refusal builds its code beyond that reading, and the referee's
refusals of random events at random moments of random whole games of all three games are each
listed for that game on the append's 422 answer."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.contract.problem_codes import COMMITTED, GAME_FOLDERS, read_catalog, refusals
from api.rules.errors import RuleError
from tests.contract.test_vocabulary import games, spoil, state_before
from tests.openapi_document import openapi_document

DOC = openapi_document()
CATALOG = json.loads(COMMITTED.read_text())


def test_the_committed_reading_is_fresh() -> None:
    assert read_catalog() == CATALOG, (
        "run: python -m api.contract.problem_codes > api/contract/problem_codes.json"
    )


def test_every_refusal_names_a_code_the_reading_finds() -> None:
    found, unread = refusals()
    assert not unread, "codes built at run time escape the document:\n" + "\n".join(unread)
    assert len({r.code for r in found}) > 150


def test_the_document_lists_every_code_and_each_games_refusals_on_the_append() -> None:
    enum = DOC["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert enum == CATALOG["codes"]
    for code in ("stale-version", "no-third-die-at-seven", "nothing-fits-on-discard", "method-not-allowed"):
        assert code in enum
    append = DOC["paths"]["/api/tables/{table_id}/events"]["post"]["responses"]["422"]["description"]
    for game, items in CATALOG["rules"].items():
        assert f"- {game}: " in append
        for item in items:
            assert f"`{item['code']}`" in append
    create = DOC["paths"]["/api/tables"]["post"]["responses"]["422"]["description"]
    assert "`colour-count` (MA-2)" in create and "`unknown-game`" in create


def listed_for(game: str) -> set[str]:
    rules = CATALOG["rules"]
    return {i["code"] for i in rules[GAME_FOLDERS[game]] + rules["every game"]}


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_refusal_of_random_events_is_listed_for_its_game(data: st.DataObject) -> None:
    """Any event of the same game played at another moment, or spoilt, is refused (if at all) with a
    code the append's 422 answer lists for that game (MA-3, MG-4, MH-5 … as the referee says)."""
    game = data.draw(st.sampled_from(games()))
    same_game = [g for g in games() if g.game == game.game]
    index = data.draw(st.integers(0, len(game.events) - 1))
    rules, state = state_before(game, index)
    other = data.draw(st.sampled_from(same_game))
    event: dict[str, Any] = dict(random.Random(data.draw(st.integers())).choice(other.events))
    if data.draw(st.booleans()):
        event = spoil(
            event, data.draw(st.sampled_from(["unknown-field", "wrong-type", "out-of-range"])), data
        )
    event.pop("reseed", None)
    try:
        rules.apply(state, event)
    except RuleError as refusal:
        assert refusal.code in listed_for(game.game), (refusal.code, event)


@pytest.mark.parametrize("game", sorted(GAME_FOLDERS))
def test_each_game_has_its_own_refusals_listed(game: str) -> None:
    assert len(listed_for(game)) > 30
