"""Proof for web integrators: a TypeScript client generated from `openapi.yaml` alone
(openapi-typescript, pinned in package-lock.json) type-checks a small program with `tsc --strict`,
and the compiled program plays a table against a real gunicorn."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from tests.conftest import ROOT

HERE = ROOT / "tests/contract/ts_client"
BIN = ROOT / "node_modules/.bin"


def run(*command: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def generated() -> Path:
    if not (BIN / "tsc").exists() or not shutil.which("node"):
        pytest.fail("node and the npm packages are installed by `make` (npm ci)")
    made = run(BIN / "openapi-typescript", "openapi.yaml", "-o", HERE / "kibitz.d.ts")
    assert made.returncode == 0, made.stderr
    return HERE / "kibitz.d.ts"


def test_the_program_type_checks_and_plays_against_gunicorn(generated: Path, live_server: str) -> None:
    compiled = run(BIN / "tsc", "-p", HERE)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    played = run("node", HERE / "build/play.js", live_server)
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["version"] == 4 and summary["last_move"]["to"] == 4  # MA-3: a 4 moves red to 4
    assert (summary["stale_status"], summary["stale_code"]) == (409, "stale-version")
    log = requests.get(f"{live_server}/api/tables/{summary['id']}/events", timeout=5).json()
    assert [entry["event"]["type"] for entry in log["events"]] == [
        "reveal_card",
        "choose_turtle",
        "die",
        "stop",
    ]


def test_the_types_refuse_a_wrong_request(generated: Path) -> None:
    """The generated types are not `any`: a string log position does not compile, nor an event type
    no game has (the games' vocabulary is in the document)."""
    wrong = HERE / "wrong.ts"
    wrong.write_text(
        'import createClient from "openapi-fetch";\n'
        'import type { paths } from "./kibitz.js";\n'
        'const kibitz = createClient<paths>({ baseUrl: "http://localhost" });\n'
        'void kibitz.POST("/api/tables/{table_id}/events", {\n'
        '  params: { path: { table_id: "x" } },\n'
        '  body: { expected_version: "three", event: { type: "stop" } },\n'
        "});\n"
        'void kibitz.POST("/api/tables/{table_id}/events", {\n'
        '  params: { path: { table_id: "x" } },\n'
        '  body: { expected_version: 3, event: { type: "roll", value: 4 } },\n'
        "});\n",
        encoding="utf-8",
    )
    try:
        checked = run(
            BIN / "tsc",
            "--noEmit",
            "--strict",
            "--module",
            "NodeNext",
            "--moduleResolution",
            "NodeNext",
            wrong,
            generated,
        )
    finally:
        wrong.unlink()
    assert checked.returncode != 0
    assert "wrong.ts(10," in checked.stdout, checked.stdout  # "roll" is no event of any game
    assert "wrong.ts(6," in checked.stdout and "not assignable to type 'number'" in checked.stdout, (
        checked.stdout
    )
