"""Our own phone app is the proof: every module of the PWA (pwa/app.js, pwa/js/**, found by the
tsconfig's globs, so a new file is checked without being listed) carries JSDoc types imported from
the types openapi-typescript generates from openapi.yaml, and `tsc --checkJs` checks them — a field
renamed on the server fails here, in the screen that reads it, not at the table. The service worker
and the referee's worker are checked with the WebWorker library (tsconfig.sw.json,
tsconfig.worker.json)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT
from tests.openapi_document import openapi_document_copy

HERE = ROOT / "tests/contract/pwa_check"
BIN = ROOT / "node_modules/.bin"

# A field the server could rename → the PWA module that reads it (each a different part of the app).
RENAMES = [
    ("TableStreamMessage", "entries", "pwa/js/live.js"),  # the live updates
    ("MaheView", "face_up", "pwa/js/games/mahe/board.js"),  # the Mahé board (MA-7's face-up egg card)
    ("MagellanLegalActions", "actors", "pwa/js/games/magellan/controls.js"),  # Magellan's action bar
    ("MhingRound", "payments", "pwa/js/games/mhing/standings.js"),  # Mhing's standings (MH-9 variant 2)
    ("HistoryEntry", "table_id", "pwa/js/views/group.js"),  # a group's history
    ("CreatedSheet", "edit_token", "pwa/js/games/magellan/sheets.js"),  # Magellan board sheets (MG-2)
]


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def generate_types(document: Path, target: Path) -> None:
    """openapi-typescript's types for `document`, written whole under `target`'s name (a rename, so
    a check running meanwhile in another worker never reads half a file)."""
    # A field with a default may be left out of a request (the server fills it in); strictNullChecks
    # is off, so on answers optional and required read the same.
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    made = run(BIN / "openapi-typescript", document, "--default-non-nullable=false", "-o", partial)
    assert made.returncode == 0, made.stderr
    partial.replace(target)


def check_against(document: Path) -> subprocess.CompletedProcess[str]:
    generate_types(document, HERE / "kibitz.d.ts")
    return run(BIN / "tsc", "-p", HERE)


def check_against_elsewhere(document: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    """The app checked against `document`'s types in `folder`, leaving the shared types alone."""
    types = folder / "kibitz.d.ts"
    generate_types(document, types)
    base = json.loads((HERE / "tsconfig.json").read_text(encoding="utf-8"))
    paths = {**base["compilerOptions"]["paths"], "kibitz-api": [str(types)]}
    config = folder / "tsconfig.json"
    config.write_text(
        json.dumps(
            {
                "extends": str(HERE / "tsconfig.json"),
                "compilerOptions": {"baseUrl": str(HERE), "paths": paths},
                "include": [str((HERE / pattern).resolve()) for pattern in base["include"][:-1]],
                "exclude": [str((HERE / pattern).resolve()) for pattern in base["exclude"]],
            }
        ),
        encoding="utf-8",
    )
    return run(BIN / "tsc", "-p", config)


def rename(document: dict[str, Any], schema: str, old: str) -> None:
    body = document["components"]["schemas"][schema]
    assert old in body["properties"], (schema, old)
    body["properties"][f"renamed_{old}"] = body["properties"].pop(old)
    body["required"] = [f"renamed_{old}" if name == old else name for name in body.get("required", [])]


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    if not (BIN / "tsc").exists() or not shutil.which("node"):
        pytest.fail("node and the npm packages are installed by `make` (npm ci)")


def test_the_pwa_type_checks_against_the_document() -> None:
    checked = check_against(ROOT / "openapi.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("config", ["tsconfig.sw.json", "tsconfig.worker.json"])
def test_the_workers_type_check(config: str) -> None:
    checked = run(BIN / "tsc", "-p", HERE / config)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_module_of_the_app_is_checked() -> None:
    listed = run(BIN / "tsc", "-p", HERE, "--listFilesOnly")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    checked = {Path(line).resolve() for line in listed.stdout.splitlines()}
    for config in ("tsconfig.sw.json", "tsconfig.worker.json"):
        more = run(BIN / "tsc", "-p", HERE / config, "--listFilesOnly")
        checked |= {Path(line).resolve() for line in more.stdout.splitlines()}
    modules = {path.resolve() for path in (ROOT / "pwa").rglob("*.js")}
    assert modules and modules <= checked, sorted(str(m.relative_to(ROOT)) for m in modules - checked)


def test_a_field_renamed_on_the_server_breaks_the_check(tmp_path: Path) -> None:
    document = openapi_document_copy()
    for schema, field, _ in RENAMES:
        rename(document, schema, field)
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    checked = check_against_elsewhere(renamed, tmp_path)
    assert checked.returncode != 0
    errors = [line for line in checked.stdout.splitlines() if "error TS" in line]
    for schema, field, module in RENAMES:
        hits = [line for line in errors if line.startswith(f"{module}(") and f"'{field}'" in line]
        assert hits, (schema, field, module, checked.stdout)


def test_the_whole_app_is_checked_strictly() -> None:
    """Issue 34: every module of the phone is checked with `strict: true` (no implicit `any`, nulls
    checked), the workers too; a module that needs `strict: false` to pass cannot come back."""
    for config in ("tsconfig.json", "tsconfig.sw.json", "tsconfig.worker.json"):
        options = json.loads((HERE / config).read_text(encoding="utf-8")).get("compilerOptions", {})
        assert options.get("strict") is True, config
