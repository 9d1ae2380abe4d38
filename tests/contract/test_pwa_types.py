"""Our own phone app is the proof: the PWA's API layer and live updates (pwa/js/api.js, poll.js,
live.js) carry JSDoc types imported from the types openapi-typescript generates from openapi.yaml,
and `tsc --checkJs` checks them — a field renamed on the server fails here, not at the table."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

HERE = ROOT / "tests/contract/pwa_check"
BIN = ROOT / "node_modules/.bin"


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=ROOT, capture_output=True, text=True, timeout=300)


def check_against(document: Path) -> subprocess.CompletedProcess[str]:
    # A field with a default may be left out of a request (the server fills it in); strictNullChecks
    # is off, so on answers optional and required read the same.
    made = run(BIN / "openapi-typescript", document, "--default-non-nullable=false", "-o", HERE / "kibitz.d.ts")
    assert made.returncode == 0, made.stderr
    return run(BIN / "tsc", "-p", HERE)


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    if not (BIN / "tsc").exists() or not shutil.which("node"):
        pytest.fail("node and the npm packages are installed by `make` (npm ci)")


def test_the_pwa_type_checks_against_the_document() -> None:
    checked = check_against(ROOT / "openapi.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_field_renamed_on_the_server_breaks_the_check(tmp_path: Path) -> None:
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    message = document["components"]["schemas"]["TableStreamMessage"]
    message["properties"]["missed"] = message["properties"].pop("entries")
    message["required"] = ["missed" if name == "entries" else name for name in message["required"]]
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    try:
        checked = check_against(renamed)
    finally:
        check_against(ROOT / "openapi.yaml")
    assert checked.returncode != 0
    assert "pwa/js/live.js" in checked.stdout and "'entries'" in checked.stdout, checked.stdout
