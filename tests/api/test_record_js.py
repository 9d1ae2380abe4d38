"""The JavaScript verifier (examples/verify_record.mjs, WebCrypto in Node) agrees with the Python one
(docs/verify_record.py) and with the server on random finished records of all three games — seeds
past 2^53 included, an undo's fresh seed included — and both refuse any edit. docs/records.md's
specification is what both implement; a record survives a JavaScript JSON round trip (issue 35)."""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from api.http.context import STORE_KEY
from api.tables.chain import canonical
from tests.api.magellan_finish import play_to_the_end
from tests.api.table_client import TableDriver, dice, reveal
from tests.api.test_record_heads import edited, paths
from tests.rules.magellan_support import TEST_SHEET

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "examples" / "verify_record.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node 20 (npm's node)")

_spec = importlib.util.spec_from_file_location("verify_record", ROOT / "docs" / "verify_record.py")
assert _spec is not None and _spec.loader is not None
offline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(offline)

SAFE = 2**53 - 1
# Seeds a JavaScript number cannot hold (up to the server's 2^62), and ones it can.
SEEDS = st.one_of(
    st.integers(SAFE + 1, 2**62), st.integers(0, SAFE), st.sampled_from([0, SAFE, SAFE + 1, 2**62])
)
# Names that exercise the canonical strings: quotes, backslashes, non-ASCII, astral emoji.
PIECES = ["a", "Zoë", "ß", '"', "\\", "'", "/", "中文", "😀", "🏳️‍🌈", "<&>", "x y"]
NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)


class Node:
    """One `node verify_record.mjs --lines` for the module: a record and key a line in, a verdict out."""

    def __init__(self) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(JS), "--lines"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def check(self, record: dict[str, Any], key: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"record": record, "key": key}, ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the JavaScript verifier stopped"
        return dict(json.loads(line))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    runner = Node()
    yield runner
    runner.close()


def new_table(client: FlaskClient, seed: int, **body: Any) -> TableDriver:
    """A table with this seed: through the API, or, for a seed above 2^53 - 1 (which the API no
    longer draws or takes), made in the store as the tables from before were."""
    if seed <= SAFE:
        return TableDriver.create(client, seed=seed, **body)
    store = client.application.extensions[STORE_KEY]
    table, token, seats = store.create(body["game"], body["players"], body.get("options", {}), seed)
    shown = client.get(f"/api/tables/{table.id}")
    assert shown.status_code == 200, shown.get_json()
    created = {"id": table.id, "write_token": token, "table": shown.get_json(), "seats": []}
    created["seats"] = [{"seat": seat, "token": seat_token} for seat, seat_token in enumerate(seats)]
    return TableDriver(client, created)


def unique(names: list[str]) -> list[str]:
    return [f"{name}{index}" for index, name in enumerate(names)]


def mahe(client: FlaskClient, seed: int, names: list[str], reopen: bool) -> TableDriver:
    """Four players, one takes every card and the beach (tests.api.finished_game); `reopen`: the
    last move is undone after the end (a fresh seed recorded in the undo) and played again."""
    colours = ["red", "yellow", "darkblue", "green"]
    t = new_table(
        client,
        seed,
        game="mahe",
        players=[{"name": n, "colours": [c]} for n, c in zip(unique(names), colours, strict=False)],
        options={"chance": "physical"},
    )
    t.play(reveal(3))
    take = dice(2, 1, 4)
    for index in range(21):
        t.play(*take)
        if index < 19:
            t.play(reveal(1 + index % 6))
        if index < 20:
            for _ in range(3):
                t.play(*dice(6, 6))
    if reopen:
        t.undo()
        t.play(take[-1])
    assert t.table["finished"]
    return t


def magellan(client: FlaskClient, seed: int, names: list[str], reopen: bool) -> TableDriver:
    options = {"sides": {}, "depth": "outcomes", "chance": "physical", "board_sheet": TEST_SHEET}
    players = [{"name": n} for n in unique(names)]
    t = new_table(client, seed, game="magellan", players=players, options=options)
    play_to_the_end(t)
    return t


def mhing(client: FlaskClient, seed: int, names: list[str], reopen: bool) -> TableDriver:
    t = new_table(client, seed, game="mhing", players=[{"name": n} for n in unique(names)])
    t.play({"type": "round_points", "winner": 1, "points": 64, "discarder": None}, {"type": "round_drawn"})
    t.play({"type": "round_points", "winner": 0, "points": 512, "discarder": None})
    if reopen:
        t.undo()
        t.play({"type": "round_points", "winner": 2, "points": 512, "discarder": None})
    return t


GAMES = {"mahe": mahe, "magellan": magellan, "mhing": mhing}


def python_verdict(record: dict[str, Any], key: dict[str, Any]) -> str:
    return str(offline.check(record, key)[0])


# Each example plays a whole game: no shrinking (a failure names its game, seed and names as drawn).
@settings(
    max_examples=10,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=SEEDS,
    names=st.lists(NAMES, min_size=4, max_size=4),
    reopen=st.booleans(),
    data=st.data(),
)
def test_javascript_and_python_agree_on_random_records(
    client: FlaskClient,
    node: Node,
    game: str,
    seed: int,
    names: list[str],
    reopen: bool,
    data: st.DataObject,
) -> None:
    players = 4 if game == "mahe" else 3
    t = GAMES[game](client, seed, names[:players], reopen)
    key = client.get("/api/record-key").get_json()
    record = client.get(f"/api/tables/{t.id}/export").get_json()
    assert record["format"] == "kibitz-record/3" and record["seed"] == str(seed)
    rfc8785.dumps(record)  # every number in it is exact in a double: JCS writes the whole record
    reseeds = [e["event"]["reseed"] for e in record["events"] if "reseed" in e["event"]]
    assert all(isinstance(r, str) for r in reseeds)
    # docs/records.md: Chain JSON is JCS but for the seeds (integers in full there).
    for entry in record["events"]:
        if "reseed" not in entry["event"]:
            assert canonical({"seq": entry["seq"], "event": entry["event"]}) == rfc8785.dumps(
                {"seq": entry["seq"], "event": entry["event"]}
            )
    header = {k: record[k] for k in ("game", "players", "options")}
    assert canonical(header) == rfc8785.dumps(header)

    said = node.check(record, key)
    assert said["verdict"] == "valid", said
    assert python_verdict(record, key) == "valid"
    # What a JavaScript client stores (JSON.parse, then JSON.stringify) verifies here as it was.
    stored = json.loads(said["roundtrip"])
    assert stored == record and python_verdict(stored, key) == "valid"
    assert client.post("/api/verify", json=stored).get_json()["valid"] is True

    for _ in range(3):  # any edit anywhere: both refuse it
        tampered = copy.deepcopy(record)
        where = data.draw(st.sampled_from([*paths(tampered), ("added-field",)]))
        holder: Any = tampered
        for step in where[:-1]:
            holder = holder[step]
        old = holder.get(where[-1]) if isinstance(holder, dict) else holder[where[-1]]
        holder[where[-1]] = edited(old)
        js, py = node.check(tampered, key)["verdict"], python_verdict(tampered, key)
        assert js != "valid" and py != "valid", (where, js, py)
        assert js == py, (where, js, py)


def test_a_format_2_record_and_its_limits_in_javascript(client: FlaskClient, node: Node) -> None:
    """An older format-2 export (integers in full) keeps verifying in Python, and on the server
    while its seed is exact in a double (a larger bare number is refused as `number-too-large`:
    the table's own export, format 3, verifies); JavaScript verifies it while its seed is exact in
    a double, and says `unsupported` (not `invalid`) when it is not."""
    from api.tables.record import signed_bytes

    key_pair = client.application.extensions["kibitz.store"].key
    key = client.get("/api/record-key").get_json()
    for seed, in_js in ((12345, "valid"), (2**62 - 3, "unsupported")):
        t = mhing(client, seed, ["Ada", "Bob", "Cy"], reopen=False)
        record = client.get(f"/api/tables/{t.id}/export").get_json()
        old = {**record, "format": "kibitz-record/2", "seed": seed}
        old["signature"] = {"algorithm": "Ed25519", "key_id": key_pair.key_id}
        old["signature"]["value"] = key_pair.sign_bytes(signed_bytes(old))
        assert python_verdict(old, key) == "valid"
        answer = client.post("/api/verify", json=old).get_json()
        if seed <= SAFE:
            assert answer["valid"] is True
        else:  # the service reads no number JavaScript cannot hold; re-export the table instead
            assert answer["code"] == "number-too-large", answer
        assert node.check(old, key)["verdict"] == in_js


def test_the_command_line(client: FlaskClient, tmp_path: Path) -> None:
    """`node examples/verify_record.mjs record.json record-key.json`: word, colon, why; exit code."""
    t = mhing(client, 2**60 + 7, ["Ada", "Bob", "Cy"], reopen=False)
    record = client.get(f"/api/tables/{t.id}/export").get_json()
    (tmp_path / "key.json").write_text(json.dumps(client.get("/api/record-key").get_json()))
    for content, code, word in (
        (record, 0, "valid"),
        ({**record, "finished_at": "2020-01-01T00:00:00+00:00"}, 1, "invalid"),
        ({**record, "signature": {"algorithm": "Ed25519", "key_id": "x"}}, 2, "unsigned"),
    ):
        (tmp_path / "record.json").write_text(json.dumps(content))
        assert NODE is not None
        done = subprocess.run(
            [NODE, str(JS), str(tmp_path / "record.json"), str(tmp_path / "key.json")],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stdout.split(":")[0]) == (code, word), done
