"""openapi.yaml passes the two linters integrators run on a contract, with nothing switched off:
Redocly's `recommended` ruleset and Spectral's `spectral:oas`, 0 errors and 0 warnings each (both
pinned in package-lock.json, installed by `make` through `npm ci`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any

import pytest

from tests.conftest import ROOT

BIN = ROOT / "node_modules/.bin"
QUIET = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def tool(name: str) -> str:
    if not (BIN / name).exists() or not shutil.which("node"):
        pytest.fail("node and the npm packages are installed by `make` (npm ci)")
    return str(BIN / name)


def test_redocly_recommended_finds_nothing() -> None:
    made = subprocess.run(
        [tool("redocly"), "lint", "openapi.yaml", "--extends", "recommended", "--format", "json",
         "--max-problems", "100000"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=QUIET,
    )  # fmt: skip
    report: dict[str, Any] = json.loads(made.stdout)
    problems = [(p["severity"], p["ruleId"], p["location"][0]["pointer"]) for p in report["problems"]]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, problems[:20]
    assert made.returncode == 0


def test_spectral_oas_finds_nothing() -> None:
    made = subprocess.run(
        [tool("spectral"), "lint", "openapi.yaml", "--ruleset", "tests/contract/spectral.yaml",
         "--format", "json", "--fail-severity", "hint", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env=QUIET,
    )  # fmt: skip
    found = json.loads(made.stdout or "[]")
    assert [(p["severity"], p["code"], ".".join(map(str, p["path"]))) for p in found] == [], made.stderr
    assert made.returncode == 0, made.stderr
