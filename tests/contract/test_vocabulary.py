"""Each game's vocabulary in the document is the one the referee speaks: every event of random whole
games of all three games (accepted by the engines) is valid against the document's `AnyEvent`, and
an event the document refuses (an unknown field, a field of the wrong type or out of range, a type
no game has) is refused by the engine too. The schemas come from the games' own `EVENT_FIELDS`."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import RuleError
from api.rules.referee import rules_view
from api.rules.registry import get_game
from api.rules.replay import advance
from tests.browser.test_referee_differential import WholeGame, whole_games
from tests.openapi_document import openapi_document

DOC = openapi_document()


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable` as JSON Schema's type list (jsonschema knows no `nullable`)."""
    if isinstance(node, dict):
        out = {
            k: json_schema(v) for k, v in node.items() if k not in ("nullable", "discriminator", "example")
        }
        if node.get("nullable"):
            out = {"anyOf": [out, {"type": "null"}]}
        return out
    if isinstance(node, list):
        return [json_schema(v) for v in node]
    return node


def validator(name: str) -> jsonschema_rs.Draft7Validator:
    """A compiled validator for one component (the Rust validator: the pure-Python one took ~3 min
    of the suite on the random games below, issue 34)."""
    return jsonschema_rs.Draft7Validator(
        {"$ref": f"#/components/schemas/{name}", "components": json_schema(DOC["components"])}
    )


VALIDATOR = validator("AnyEvent")


@cache
def games() -> list[WholeGame]:
    return whole_games()


def appended(game: WholeGame) -> list[dict[str, Any]]:
    """The events as a phone appends them (a recorded undo's fresh seed is the server's own)."""
    return [e for e in game.events if "reseed" not in e]


def test_every_event_of_random_whole_games_is_in_the_document() -> None:
    seen: set[tuple[str, str]] = set()
    for game in games():
        for event in appended(game):
            errors = [e.message for e in VALIDATOR.iter_errors(event)]
            assert not errors, (game.label, event, errors)
            seen.add((game.game, event["type"]))
    assert {kind for _, kind in seen} >= {"die", "stop", "reveal_card", "bid", "pass", "round_won", "undo"}


def test_every_event_type_has_a_valid_example() -> None:
    schemas = DOC["components"]["schemas"]
    unions = [schemas[union["$ref"].rsplit("/", 1)[1]] for union in schemas["AnyEvent"]["oneOf"]]
    names = [
        target for union in unions for target in union.get("discriminator", {}).get("mapping", {}).values()
    ]
    assert len(names) > 20
    names.append(DOC["components"]["schemas"]["AnyEvent"]["oneOf"][-1]["$ref"])
    for name in names:
        component = schemas[name.rsplit("/", 1)[1]]
        assert not list(VALIDATOR.iter_errors(component["example"])), name


def state_before(game: WholeGame, index: int) -> Any:
    rules = get_game(game.game)
    assert rules is not None
    states = [rules.new_game(game.players, rules.normalize_options(game.options), game.seed)]
    for event in game.events[:index]:
        states = advance(rules, states, event)
    return rules, states[-1]


def spoil(event: dict[str, Any], how: str, data: st.DataObject) -> dict[str, Any]:
    spoilt = copy.deepcopy(event)
    fields = [k for k in spoilt if k not in ("type", "seat")]
    if how == "unknown-field" or not fields:
        spoilt["colour_of_the_sky"] = "blue"
    elif how == "wrong-type":
        spoilt[data.draw(st.sampled_from(fields))] = {"not": "this"}
    else:  # out of range: a number no card, die or seat has
        spoilt[data.draw(st.sampled_from(fields))] = data.draw(st.sampled_from([-1, 99, 2**40]))
    return spoilt


@settings(max_examples=60, deadline=None)
@given(data=st.data(), how=st.sampled_from(["unknown-field", "wrong-type", "out-of-range", "no-such-type"]))
def test_what_the_document_refuses_the_engine_refuses(data: st.DataObject, how: str) -> None:
    game = data.draw(st.sampled_from(games()))
    index = data.draw(st.integers(0, len(game.events) - 1))
    event = game.events[index]
    if "reseed" in event or event["type"] == "undo":
        return
    spoilt = {"type": "roll_the_bones"} if how == "no-such-type" else spoil(event, how, data)
    if not list(VALIDATOR.iter_errors(spoilt)):
        return  # e.g. 99 as a Magellan pile number: the document allows any pile, so does the engine
    rules, state = state_before(game, index)
    with pytest.raises(RuleError):
        rules.apply(state, spoilt)


def test_the_append_body_names_the_vocabulary() -> None:
    body = DOC["components"]["schemas"]["Append"]["properties"]["event"]
    assert body == {"$ref": "#/components/schemas/AnyEvent"}
    assert json.dumps(DOC["components"]["schemas"]["MaheEvent"]).count("$ref") == 5


TABLE = validator("Table")


def test_every_table_of_random_whole_games_matches_its_games_typed_view() -> None:
    """The document's per-game `state` and `legal_actions` (additional properties refused) fit every
    step of random whole games of all three games, both chance modes, both depths, both settlements."""
    checked = 0
    for game in games():
        rules = get_game(game.game)
        assert rules is not None
        options = rules.normalize_options(game.options)
        states = [rules.new_game(game.players, options, game.seed)]
        for event in game.events:
            states = advance(rules, states, event)
            table = {
                "id": "AAAAAAAAAAAAAAAA",
                "game": game.game,
                "version": 1,
                "players": game.players,
                "options": options,
                "seed": None,
                "created_at": "2026-11-23T00:00:00+00:00",
                "updated_at": "2026-11-23T00:00:00+00:00",
                **rules_view(rules, states[-1], len(states) > 1),
            }
            served = json.loads(json.dumps(table))  # as the client reads it (a Message is a str)
            errors = [f"{list(e.instance_path)}: {e.message}" for e in TABLE.iter_errors(served)]
            assert not errors, (game.label, event, errors[:3])
            checked += 1
    assert checked > 500


def test_the_log_private_views_and_results_of_random_whole_games_match_the_document() -> None:
    """Each event as the open log shows it (secrets masked, an undo's seed hidden) is a
    `LoggedEvent`; every seat's private view is a `PrivateView.view`; the result its game's."""
    logged, private = validator("LoggedEvent"), validator("PrivateView")
    for game in games():
        rules = get_game(game.game)
        assert rules is not None
        options = rules.normalize_options(game.options)
        states = [rules.new_game(game.players, options, game.seed)]
        for event in game.events:
            shown = event if event["type"] == "undo" else rules.public_event(event, options)
            shown = json.loads(json.dumps(shown))
            errors = [e.message for e in logged.iter_errors(shown)]
            assert not errors, (game.label, shown, errors[:3])
            states = advance(rules, states, event)
        for seat in range(len(game.players)):
            view = json.loads(json.dumps({"seat": seat, "view": rules.private_view(states[-1], seat)}))
            errors = [e.message for e in private.iter_errors(view)]
            assert not errors, (game.label, view, errors[:3])
    for masked in ({"type": "draw", "cards": "hidden"}, {"type": "undo", "reseed": "hidden"}):
        assert not list(logged.iter_errors(masked))
