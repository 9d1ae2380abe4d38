"""Deltas on the live stream (issue 36): a `patch` event's JSON Patch (RFC 6902), applied to the table
at version k, gives exactly the table at version k+1 — for random whole games of all three games,
applied by the `jsonpatch` library (what a Python client uses) and by the phone's own applier
(`pwa/js/sync/patch.js`, run by node on the same cases); and through a real gunicorn, a stream with
`?patches=true` whose patches rebuild every version as `GET /api/tables/{id}` shows it."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.db.migrate import upgrade
from api.http.context import STORE_KEY
from api.i18n import localize_notes
from api.push.deltas import diff, pointer, same
from api.push.editions import PATCH, Editions
from api.rules.referee import rules_view
from api.rules.registry import get_game
from api.rules.replay import advance
from tests.browser.test_referee_differential import WholeGame, magellan_game, mahe_game, mhing_game
from tests.conftest import ROOT, make_test_app
from tests.live.sse import StreamReader

APPLY_JS = """
import { readFileSync } from "node:fs";
import { applyPatch } from "MODULE";
const canonical = (v) => JSON.stringify(v, (_k, x) =>
  x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x);
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = [];
cases.forEach(([before, patch, after], i) => {
  const copy = canonical(before);
  const got = applyPatch(before, patch);
  if (canonical(got) !== canonical(after)) bad.push(i);
  if (canonical(before) !== copy) bad.push(`changed ${i}`);
});
console.log(JSON.stringify({ applied: cases.length, bad }));
""".replace("MODULE", (ROOT / "pwa/js/sync/patch.js").as_uri())


def whole_game(kind: str, seed: int) -> WholeGame:
    rng = random.Random(seed)
    if kind == "mahe":
        return mahe_game("mahe", rng.randint(2, 7), rng.choice(["physical", "digital"]), seed, undo_rate=0.05)
    if kind == "magellan":
        depth, chance = rng.choice(["outcomes", "ledger"]), rng.choice(["physical", "digital"])
        return magellan_game("magellan", rng.randint(3, 6), depth, chance, seed, undo_rate=0.03)
    settlement = rng.choice([1, 2])  # MH-9: variant 2 for 2 to 4 players
    return mhing_game("mhing", rng.randint(2, 4 if settlement == 2 else 6), settlement, seed, undo_rate=0.05)


def views(game: WholeGame, language: str) -> list[Any]:
    """The table at every version of the game, as plain JSON (what the stream diffs)."""
    rules = get_game(game.game)
    assert rules is not None
    options = rules.normalize_options(game.options)
    states = [rules.new_game(game.players, options, game.seed)]
    found = []
    for version, event in enumerate([None, *game.events]):
        if event is not None:
            states = advance(rules, states, event)
        view = rules_view(rules, states[-1], len(states) > 1)
        table = {
            "id": "AAAAAAAAAAAAAAAA",
            "game": game.game,
            "version": version,
            "players": game.players,
            "options": options,
            **view,
            "legal_actions": localize_notes(view["legal_actions"], language),
        }
        found.append(json.loads(json.dumps(table, default=str)))
    return found


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def run_phone_applier(cases: list[tuple[Any, Any, Any]], tmp: Path) -> dict[str, Any]:
    (tmp / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp / "apply.mjs").write_text(APPLY_JS, encoding="utf-8")
    done = subprocess.run(
        ["node", str(tmp / "apply.mjs"), str(tmp / "cases.json")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["mahe", "magellan", "mhing"]),
    seed=st.integers(0, 2**32),
    language=st.sampled_from(["en", "de", "fr"]),
    skip=st.integers(2, 5),
)
def test_patches_turn_each_version_of_random_whole_games_into_the_next(
    kind: str, seed: int, language: str, skip: int, tmp_path: Path
) -> None:
    """k → k+1 for every version, and k → k+skip (a slow reader skipping ahead), in Python and JS."""
    seen = views(whole_game(kind, seed), language)
    cases = []
    for k in range(len(seen) - 1):
        for after in {k + 1, min(k + skip, len(seen) - 1)}:
            patch = diff(seen[k], seen[after])
            assert {op["op"] for op in patch} <= {"add", "remove", "replace"}
            before = canonical(seen[k])
            assert canonical(jsonpatch.apply_patch(seen[k], patch)) == canonical(seen[after]), (kind, k)
            assert canonical(seen[k]) == before  # applied to a copy
            cases.append((seen[k], patch, seen[after]))
    result = run_phone_applier(cases, tmp_path)
    assert result == {"applied": len(cases), "bad": []}


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(-2, 2, allow_nan=False)
    | st.text("a/~0", max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text("ab/~", max_size=3), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(old=JSON_VALUES, new=JSON_VALUES)
def test_a_patch_between_any_two_json_values_is_exact(old: Any, new: Any) -> None:
    """Keys with `/` and `~`, `1` against `1.0` against `true`, arrays that grow and shrink anywhere."""
    patch = diff(old, new)
    assert same(jsonpatch.apply_patch(old, patch), new)
    assert (patch == []) == same(old, new)


def test_the_phone_applies_the_corners_of_rfc_6902(tmp_path: Path) -> None:
    """The phone's applier on what the property cases rarely meet: escaped keys, the root, an
    insert in the middle and at the end of an array, and a patch that mixes them."""
    cases = [
        (
            {"a/b": 1, "m~n": [1, 2]},
            [{"op": "replace", "path": "/a~1b", "value": 2}],
            {"a/b": 2, "m~n": [1, 2]},
        ),
        (
            {"m~n": [1, 2]},
            [{"op": "add", "path": pointer(pointer("", "m~n"), 1), "value": 9}],
            {"m~n": [1, 9, 2]},
        ),
        ({"x": [1]}, [{"op": "add", "path": "/x/-", "value": 2}], {"x": [1, 2]}),
        ({"x": [1, 2, 3]}, [{"op": "remove", "path": "/x/0"}, {"op": "remove", "path": "/x/0"}], {"x": [3]}),
        ({"x": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
        (
            {"x": {"y": None}},
            [{"op": "add", "path": "/x/z", "value": {"q": []}}],
            {"x": {"y": None, "z": {"q": []}}},
        ),
    ]
    assert all(same(jsonpatch.apply_patch(a, p), b) for a, p, b in cases)
    assert run_phone_applier(cases, tmp_path) == {"applied": len(cases), "bad": []}


@pytest.mark.gunicorn
def test_a_stream_with_patches_gives_every_version_as_the_table_reads(live_server: str) -> None:
    """A whole Mahé game on a real gunicorn: the first event is the whole table, every later one a
    `patch` on the one before (MA-3 dice, MA-8's end), each rebuilding the table `GET` answers."""
    game = mahe_game("mahe", 3, "physical", 7)
    created = requests.post(
        f"{live_server}/api/tables",
        json={"game": "mahe", "players": game.players, "options": game.options},
        timeout=10,
    ).json()
    stream = StreamReader(f"{live_server}/api/tables/{created['id']}/stream?patches=true&lang=de")
    try:
        first = stream.next()
        assert first["type"] == "table" and first["version"] == 0
        events = [e for e in game.events if "reseed" not in e][:60]
        types = []
        for version, event in enumerate(events):
            answer = requests.post(
                f"{live_server}/api/tables/{created['id']}/events",
                json={"expected_version": version, "event": event},
                headers={"Authorization": f"Bearer {created['write_token']}"},
                timeout=10,
            )
            assert answer.status_code == 201, answer.text
            got = stream.next()
            while got["version"] < version + 1:  # never: each change comes once, in order
                got = stream.next()
            types.append(got["type"])
            table = requests.get(
                f"{live_server}/api/tables/{created['id']}", headers={"Accept-Language": "de"}, timeout=10
            ).json()
            assert got["table"] == table, version
            assert [entry["seq"] for entry in got["entries"]] == [version + 1]
        assert set(types) == {"patch"}
    finally:
        stream.close()


PLAYERS = [{"name": f"P{i}", "colours": [c]} for i, c in enumerate(["red", "green", "yellow", "purple"])]


def _next_move(table: dict[str, Any]) -> dict[str, Any]:
    """A legal Mahé move whatever the phase: reveal a card (MA-7), roll (MA-3), stop when deciding."""
    phase = table["legal_actions"]["phase"]
    if phase == "reveal_card":
        return {"type": "reveal_card", "value": 3}
    return {"type": "stop"} if phase == "decide" else {"type": "die", "value": 1}


@pytest.fixture(scope="module")
def one_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('patches') / 'kibitz.sqlite3'}"
    upgrade(url)
    return make_test_app(url)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("append"), st.sampled_from(["move", "move", "undo"])),
            st.tuples(st.just("ask"), st.integers(0, 12), st.sampled_from(["en", "de"])),
        ),
        max_size=25,
    )
)
def test_an_editions_patch_from_any_version_it_sent_gives_the_table_now(
    one_app: Any, steps: list[tuple[Any, ...]]
) -> None:
    """However far behind a stream is (a slow reader skipping ahead, undos between), in either
    language: the patch the edition shares applies to the table at its base and gives the table as
    `GET` reads it now; a base it no longer keeps gets the whole table instead."""
    client = one_app.test_client()
    created = client.post(
        "/api/tables", json={"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
    ).get_json()
    path = f"/api/tables/{created['id']}"

    def read(language: str) -> Any:
        return client.get(path, headers={"Accept-Language": language}).get_json()

    seen = {(0, language): read(language) for language in ("en", "de")}
    version = 0
    with Editions(one_app.extensions[STORE_KEY]).follow(created["id"]) as edition:
        for language in ("en", "de"):
            edition.message(None, 0, language, None)  # each stream starts with the whole table
        for step in steps:
            if step[0] == "append":
                event = (
                    {"type": "undo"} if step[1] == "undo" and version else _next_move(seen[(version, "en")])
                )
                answer = client.post(
                    f"{path}/events",
                    json={"expected_version": version, "event": event},
                    headers={"Authorization": f"Bearer {created['write_token']}"},
                )
                if answer.status_code == 201:
                    version += 1
                    for language in ("en", "de"):
                        seen[(version, language)] = read(language)
                continue
            _, since, language = step
            since = min(since, version)
            got, body = edition.message(since, version, language, None, form=PATCH)
            assert got == version
            if since == version:
                assert body is None
                continue
            assert body is not None
            data = json.loads(body.decode().split("data: ", 1)[1])
            assert data["version"] == version and [e["seq"] for e in data["entries"]] == list(
                range(since + 1, version + 1)
            )
            if data["type"] == "patch":
                assert data["base"] == since
                table = jsonpatch.apply_patch(seen[(since, language)], data["patch"])
            else:
                table = data["table"]
            assert table == seen[(version, language)]
