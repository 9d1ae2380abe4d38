"""The phone's referee answers what the server answers (`api.rules.referee`, the module the browser
runs under Pyodide; tests/browser/test_referee_differential.py checks the browser's copy).

Whole random Mahé games with undos, split anywhere into "what the server has" and "what this phone
queued offline": replaying the log on the phone gives the server's state, legal actions (with their
odds) and result, and a refusal has the server's code. Tables with secrets are the server's alone.
"""

from __future__ import annotations

import json
import random
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.rules.mahe.game import MAHE
from api.rules.referee import Referee
from tests.rules.test_mahe_properties import pick

PLAYERS = [{"name": "Eva", "colours": ["red", "yellow"]}, {"name": "Tom", "colours": ["green", "darkblue"]}]


def ask(referee: Referee, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(referee.handle(json.dumps(request)))
    return answer


def random_log(seed: int, policy_seed: int, undo_rate: float, length: int) -> list[dict[str, Any]]:
    """A Mahé game with real dice (MA-12) played from its legal actions, with undos mixed in."""
    rng = random.Random(policy_seed)
    states = [MAHE.new_game(PLAYERS, {"chance": "physical"}, seed)]
    log: list[dict[str, Any]] = []
    while len(log) < length and states[-1].phase != "finished":
        if len(states) > 1 and rng.random() < undo_rate:
            log.append({"type": "undo"})
            states.pop()
            continue
        event = pick(states[-1], MAHE.legal_actions(states[-1]), rng, 0.8)
        states.append(MAHE.apply(states[-1], event))
        log.append(event)
    return log


def server_table(client: FlaskClient, seed: int, log: list[dict[str, Any]]) -> dict[str, Any]:
    created = client.post(
        "/api/tables", json={"game": "mahe", "players": PLAYERS, "options": {}, "seed": seed}
    )
    assert created.status_code == 201
    table_id, token = created.json["id"], created.json["write_token"]
    table = created.json["table"]
    for event in log:
        answer = client.post(
            f"/api/tables/{table_id}/events",
            json={"expected_version": table["version"], "event": event},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201, answer.json
        table = answer.json["table"]
    return dict(table)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**31),
    policy_seed=st.integers(0, 2**31),
    undo_rate=st.sampled_from([0.0, 0.1, 0.3]),
    length=st.integers(1, 60),
    split=st.floats(0, 1),
)
def test_the_phone_replays_the_servers_answers(
    client: FlaskClient, seed: int, policy_seed: int, undo_rate: float, length: int, split: float
) -> None:
    log = random_log(seed, policy_seed, undo_rate, length)
    server = server_table(client, seed, log)
    at = int(split * len(log))
    referee = Referee()
    opened = ask(
        referee, op="open", id="t", game="mahe", players=PLAYERS, options={}, seed=seed, events=log[:at]
    )
    assert opened["ok"], opened
    for event in log[at:]:  # what the phone recorded on top, offline
        applied = ask(referee, op="apply", id="t", event=event, commit=True)
        assert applied["ok"], applied
    view = ask(
        referee, op="open", id="whole", game="mahe", players=PLAYERS, options={}, seed=seed, events=log
    )["view"]
    for key in ("state", "legal_actions", "result", "finished"):
        assert view[key] == server[key], key
    assert ask(referee, op="dump", id="t") == ask(referee, op="dump", id="whole")


def test_a_preview_changes_nothing_and_a_refusal_has_the_servers_code(client: FlaskClient) -> None:
    referee = Referee()
    ask(referee, op="open", id="t", game="mahe", players=PLAYERS, options={}, seed=1, events=[])
    before = ask(referee, op="dump", id="t")
    preview = ask(referee, op="apply", id="t", event={"type": "reveal_card", "value": 4}, commit=False)
    assert preview["ok"] and preview["view"]["state"]["face_up"] == 4
    assert ask(referee, op="dump", id="t") == before
    for event in (
        {"type": "die", "value": 3},
        {"type": "reveal_card", "value": 9},
        {"type": "undo"},
        {"type": "x"},
    ):
        local = ask(referee, op="apply", id="t", event=event, commit=True)
        assert not local["ok"]
        created = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS, "options": {}})
        server = client.post(
            f"/api/tables/{created.json['id']}/events",
            json={"expected_version": 0, "event": event},
            headers={"Authorization": f"Bearer {created.json['write_token']}"},
        )
        assert server.status_code == local["error"]["status"]
        assert (
            server.json["code"] == local["error"]["code"]
            and server.json["detail"] == local["error"]["detail"]
        )


def test_tables_with_secrets_stay_with_the_server() -> None:
    """MA-12 / MG-4: the app's dice and cards come from the server's secret seed; MG-6: hands in the
    "every card" depth are secret. The phone refuses to referee them (rulings MA-12-2, MG-3-2)."""
    referee = Referee()
    magellan = [{"name": n} for n in ("Eva", "Tom", "Ann")]
    for game, players, options, local in (
        ("mahe", PLAYERS, {"chance": "digital"}, False),
        ("mahe", PLAYERS, {"chance": "physical"}, True),
        ("magellan", magellan, {"chance": "digital"}, False),
        ("magellan", magellan, {"depth": "ledger"}, False),
        ("magellan", magellan, {"depth": "outcomes"}, True),
        ("mhing", magellan, {}, True),
    ):
        answer = ask(
            referee, op="open", id="t", game=game, players=players, options=options, seed=3, events=[]
        )
        assert answer["ok"] is local, (game, options, answer)
        if not local:
            assert answer["error"]["code"] == "server-referee-only"


def test_a_masked_entry_hands_the_table_to_the_server() -> None:
    """A Magellan A slide is face down (MG-8): the open log says "hidden", so a phone that did not
    record it cannot follow and lets the server referee."""
    referee = Referee()
    players = [{"name": n} for n in ("Eva", "Tom", "Ann")]
    answer = ask(
        referee,
        op="open",
        id="t",
        game="magellan",
        players=players,
        options={},
        seed=1,
        events=[{"type": "slide", "value": "hidden"}],
    )
    assert not answer["ok"] and answer["error"]["code"] == "hidden-in-log" and answer["index"] == 0


def test_the_stateless_helpers_answer_as_the_endpoints(client: FlaskClient) -> None:
    referee = Referee()
    hand = {
        "groups": ["b3 jk=b4 b5"],
        "hidden": "c5 c5 c5 we we we dr dr jk k2 k2",
        "flowers": "",
        "discard": True,
    }
    assert ask(referee, op="mhing.score", body=hand) == {
        "ok": True,
        **client.post("/api/mhing/score", json=hand).json,
    }
    waits = {key: hand[key] for key in ("groups", "flowers")} | {"hidden": "c5 c5 c5 we we we dr dr jk k2"}
    assert ask(referee, op="mhing.waits", body=waits) == {
        "ok": True,
        **client.post("/api/mhing/waits", json=waits).json,
    }
    odds = {"known_cards": [8, 1, 1, 5, 2, 4, 1, 2, 3, 4], "drawn": [5, 6, 2], "target": 16}
    assert ask(referee, op="magellan.odds", body=odds) == {
        "ok": True,
        **client.post("/api/magellan/pizarro/odds", json=odds).json,
    }
